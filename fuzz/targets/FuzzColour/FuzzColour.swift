// libFuzzer target: colour statements (ICC profiles through Little CMS, H.273 code points, PNG gAMA and cHRM).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzColour(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.colourTarget(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzColour {
        static func main() { print("FuzzColour is a libFuzzer target; run it with make fuzz.") }
    }
#endif
