// libFuzzer target: Flipbook's MP4 reading (box tree, sample tables, fragments, inspection, dump).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import ISOBMFF

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzMP4(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        MovieReadingFuzzEntry.read(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzMP4 {
        static func main() { print("FuzzMP4 is a libFuzzer target; run it with make fuzz.") }
    }
#endif
