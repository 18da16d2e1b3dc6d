// libFuzzer target: GIF decoding with giflib and Flipbook's compositing (structure and limits first).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.gifTarget(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzGIF {
        static func main() { print("FuzzGIF is a libFuzzer target; run it with make fuzz.") }
    }
#endif
