// libFuzzer target: soundtrack files through libavformat, libavcodec and libswresample, as Flipbook
// reads every soundtrack it does not copy itself (WAV, AIFF, FLAC, Vorbis, AC-3, ALAC …).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import Flipbook

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzSound(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        FuzzEntry.soundTarget(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main enum FuzzSound {
        static func main() { print("FuzzSound is a libFuzzer target; run it with make fuzz.") }
    }
#endif
