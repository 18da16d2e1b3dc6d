// libFuzzer target: HEIF decoding with libheif (header and limits first).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzHEIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.decodeImage(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzHEIF {
        static func main() { print("FuzzHEIF is a libFuzzer target; run it with make fuzz.") }
    }
#endif
