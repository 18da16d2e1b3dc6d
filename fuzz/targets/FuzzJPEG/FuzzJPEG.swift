// libFuzzer target: JPEG decoding with TurboJPEG and EXIF orientation parsing.
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.jpegTarget(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzJPEG {
        static func main() { print("FuzzJPEG is a libFuzzer target; run it with make fuzz.") }
    }
#endif
