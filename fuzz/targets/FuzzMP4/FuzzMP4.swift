// libFuzzer target: Flipbook's MP4 reading (box tree, sample tables, fragments, inspection, dump).
// Built and run by `make fuzz`; without -DFUZZING it is a stub so plain builds link.
import ISOBMFF

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzMP4(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        let bytes = Array(UnsafeBufferPointer(start: data, count: size))
        if let boxes = try? BoxReader.parse(bytes) { _ = BoxDump.render(boxes, in: bytes) }
        if let table = try? SampleTableReader(bytes: bytes, maximumSampleCount: 1 << 16) { _ = table.validate() }
        if let fragments = try? FragmentedMovieReader(bytes: bytes) { _ = fragments.validate() }
        if let file = try? MovieFileBytes(fileBytes: bytes, limit: 1 << 24) { _ = try? MovieInspection.inspect(file) }
        return 0
    }
#else
    @main enum FuzzMP4 {
        static func main() { print("FuzzMP4 is a libFuzzer target; run it with make fuzz.") }
    }
#endif
