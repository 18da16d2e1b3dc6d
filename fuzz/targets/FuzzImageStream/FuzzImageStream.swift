// libFuzzer target: the splitter that cuts images sent back to back on standard input.
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzImageStream(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.imageStreamTarget(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzImageStream {
        static func main() { print("FuzzImageStream is a libFuzzer target; run it with make fuzz.") }
    }
#endif
