// libFuzzer target: camera raw files through LibRaw (developed at full and half size, and the preview).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzRaw(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.rawTarget(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzRaw {
        static func main() { print("FuzzRaw is a libFuzzer target; run it with make fuzz.") }
    }
#endif
