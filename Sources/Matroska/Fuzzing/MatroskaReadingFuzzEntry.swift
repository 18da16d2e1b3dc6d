/// What the `FuzzMatroska` target does with one input, and what the tests replay on every kept
/// seed: the file read as `probe` and `join` read it, its blocks and tracks. Any error is thrown
/// away; a crash is the finding.
package enum MatroskaReadingFuzzEntry {
    package static func read(_ bytes: [UInt8]) {
        if let file = try? MatroskaFile(bytes: bytes) {
            _ = file.blocks.count
            _ = file.tracks.map(\.codecID)
        }
    }
}
