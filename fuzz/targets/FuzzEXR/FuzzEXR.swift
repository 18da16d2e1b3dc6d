// libFuzzer target: OpenEXR decoding with OpenEXRCore (every part and layer choice, alpha kept or composited).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzEXR(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.exrTarget(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzEXR {
        static func main() { print("FuzzEXR is a libFuzzer target; run it with make fuzz.") }
    }
#endif
