// libFuzzer target: Flipbook's Matroska and WebM reading (EBML headers, Info, Tracks, every block, Tags).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Matroska

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzMatroska(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        MatroskaReadingFuzzEntry.read(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzMatroska {
        static func main() { print("FuzzMatroska is a libFuzzer target; run it with make fuzz.") }
    }
#endif
