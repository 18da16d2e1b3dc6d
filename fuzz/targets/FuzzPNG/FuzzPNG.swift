// libFuzzer target: PNG decoding (Flipbook's fast path, libspng, and the metadata filter).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.pngTarget(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzPNG {
        static func main() { print("FuzzPNG is a libFuzzer target; run it with make fuzz.") }
    }
#endif
