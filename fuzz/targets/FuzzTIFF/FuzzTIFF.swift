// libFuzzer target: TIFF decoding with libtiff (header and limits first).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTIFF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.decodeImage(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzTIFF {
        static func main() { print("FuzzTIFF is a libFuzzer target; run it with make fuzz.") }
    }
#endif
