// libFuzzer target: WebP decoding with libwebp (header and limits first).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzWebP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.decodeImage(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzWebP {
        static func main() { print("FuzzWebP is a libFuzzer target; run it with make fuzz.") }
    }
#endif
