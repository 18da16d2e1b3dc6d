/// What the `FuzzMP4` target does with one input, and what the tests replay on every kept seed:
/// the box tree and its dump, the sample tables and their validation, the fragments, and the
/// inspection `probe` runs. Any error is thrown away; a crash is the finding.
package enum MovieReadingFuzzEntry {
    package static func read(_ bytes: [UInt8]) {
        if let boxes = try? BoxReader.parse(bytes) { _ = BoxDump.render(boxes, in: bytes) }
        if let table = try? SampleTableReader(bytes: bytes, maximumSampleCount: 1 << 16) { _ = table.validate() }
        if let fragments = try? FragmentedMovieReader(bytes: bytes) { _ = fragments.validate() }
        if let file = try? MovieFileBytes(fileBytes: bytes, limit: 1 << 24) { _ = try? MovieInspection.inspect(file) }
    }
}
