import MediaModel

/// The bytes that precede the media data of a progressive ("faststart") movie:
/// `ftyp`, `moov`, then the `mdat` box header.
///
/// The caller writes ``header`` and then exactly the `mdat` payload whose chunks the sample tables
/// describe (``MediaDataInterleaver`` places them). Chunk offsets in `moov` point past the header,
/// so they depend on the size of `moov`, which depends on whether they need `co64`: the layout
/// writes `moov` once to measure it, switches to `co64` if an offset would pass `UInt32.max`,
/// and writes it again with the final offsets.
///
/// ```swift
/// let layout = try MovieLayout(brand: .mp4, tracks: [track], sampleTables: [table])
/// try file.write(contentsOf: layout.header)
/// for chunk in chunks { try file.write(contentsOf: chunk) }
/// ```
package struct MovieLayout: Sendable {
    /// `ftyp` + `moov` + the `mdat` header, ready to write at the start of the file.
    package let header: [UInt8]
    /// Whether the chunk offsets are written as `co64`.
    package let usesLargeChunkOffsets: Bool
    /// Whether the `mdat` header uses the 64-bit largesize form.
    package let usesLargeMediaDataHeader: Bool
    /// The size of the `free` box before the `mdat` header; 0 when there is none.
    package let paddingSize: Int

    /// The file offset of the first payload byte, which is the header's length.
    package var payloadOffset: UInt64 { UInt64(header.count) }

    /// Lays out the movie.
    ///
    /// The movie's timescale is the first track's. A track's `tkhd` duration is its edit list's
    /// total when it has one, otherwise its media duration (in the movie's timescale); `mvhd` has the
    /// longest.
    ///
    /// - Parameters:
    ///   - brand: The kind of file, which decides `ftyp` and QuickTime details.
    ///   - tracks: The tracks, with their sample descriptions and edit lists.
    ///   - sampleTables: Each track's samples and chunks, in the same order.
    ///   - tags: The creation time (seconds since 1904 for every creation and modification time; 0, the
    ///     default, keeps the output deterministic) and the tags written in `moov`; none by default.
    ///   - extensions: Private `uuid` boxes written at the end of `moov`; none by default.
    ///   - alignment: Makes the header's length a multiple of this many bytes by putting a `free` box
    ///     before the `mdat` header, so the payload can start on a file-system block (for example to
    ///     insert the header in front of payload already on disk); 1, the default, adds nothing.
    /// - Throws: ``MuxingError`` with code `.invalidTrack` if a track cannot be described.
    package init(
        brand: FileBrand, tracks: [Track], sampleTables: [SampleTable], tags: MovieTags = MovieTags(),
        extensions: [MovieExtension] = [], alignment: Int = 1
    ) throws {
        precondition(alignment >= 1, "MovieLayout alignment \(alignment) must be at least 1")
        let movie = try MovieBoxWriter(
            brand: brand, tracks: tracks, sampleTables: sampleTables, tags: tags,
            extensions: extensions)
        let payloadSize = sampleTables.reduce(0) { $0 + $1.payloadSize }
        let largeMediaData = payloadSize > UInt64(UInt32.max) - 8
        let lastChunkOffset = sampleTables.compactMap(\.chunkOffsets.last).max() ?? 0
        var largeOffsets = lastChunkOffset > UInt64(UInt32.max)
        var padding = 0
        while true {
            let measured = movie.header(
                base: 0, largeOffsets: largeOffsets, largeMediaData: largeMediaData, payloadSize: payloadSize)
            if alignment > 1 {
                let smallest = measured.count + 8  // a free box is at least a header
                padding = (smallest + alignment - 1) / alignment * alignment - measured.count
            }
            let base = UInt64(measured.count + padding)
            if !largeOffsets && base + lastChunkOffset > UInt64(UInt32.max) {
                largeOffsets = true
                continue
            }
            let final = movie.header(
                base: base, largeOffsets: largeOffsets, largeMediaData: largeMediaData, payloadSize: payloadSize,
                padding: padding)
            precondition(UInt64(final.count) == base, "moov size changed with its chunk offsets")
            header = final
            break
        }
        paddingSize = padding
        usesLargeChunkOffsets = largeOffsets
        usesLargeMediaDataHeader = largeMediaData
    }
}
