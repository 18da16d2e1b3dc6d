// libFuzzer target: DPX and Cineon decoding (Flipbook's own reader), either byte order.
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzDPX(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.dpxTarget(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzDPX {
        static func main() { print("FuzzDPX is a libFuzzer target; run it with make fuzz.") }
    }
#endif
