/// The bytes that precede the media data of a progressive ("faststart") movie:
/// `ftyp`, `moov`, then the `mdat` box header.
///
/// The caller writes ``header`` and then exactly `sampleTable.payloadSize` bytes of sample data,
/// in the order the samples were appended. Chunk offsets in `moov` point past the header, so
/// they depend on the size of `moov`, which depends on whether they need `co64`: the layout
/// writes `moov` once to measure it, switches to `co64` if an offset would pass `UInt32.max`,
/// and writes it again with the final offsets.
///
/// ```swift
/// let layout = try MovieLayout(brand: .mp4, track: track, sampleTable: table)
/// try file.write(contentsOf: layout.header)
/// for sample in encodedSamples { try file.write(contentsOf: sample) }
/// ```
public struct MovieLayout: Sendable {
    /// `ftyp` + `moov` + the `mdat` header, ready to write at the start of the file.
    public let header: [UInt8]
    /// Whether the chunk offsets are written as `co64`.
    public let usesLargeChunkOffsets: Bool
    /// Whether the `mdat` header uses the 64-bit largesize form.
    public let usesLargeMediaDataHeader: Bool
    /// The size of the `free` box before the `mdat` header; 0 when there is none.
    public let paddingSize: Int

    /// The file offset of the first payload byte, which is the header's length.
    public var payloadOffset: UInt64 { UInt64(header.count) }

    /// Lays out the movie.
    ///
    /// The movie and the media share the track's timescale. The `mvhd`/`tkhd` duration is the
    /// edit list's total when one is given, otherwise the media duration.
    ///
    /// - Parameters:
    ///   - brand: The kind of file, which decides `ftyp` and QuickTime details.
    ///   - track: The video track's format.
    ///   - sampleTable: Every sample, in decode order.
    ///   - editList: Edits to write as `edts`/`elst`, e.g. to hide the B-frame delay; none by default.
    ///   - creationTime: Seconds since 1904 for the creation and modification times; 0 keeps the output deterministic.
    ///   - extensions: Private `uuid` boxes written at the end of `moov`; none by default.
    ///   - alignment: Makes the header's length a multiple of this many bytes by putting a `free` box
    ///     before the `mdat` header, so the payload can start on a file-system block (for example to
    ///     insert the header in front of payload already on disk); 1, the default, adds nothing.
    /// - Throws: ``ISOBMFFError`` with code `.invalidTrack` if the track cannot be described.
    public init(
        brand: FileBrand, track: VideoTrack, sampleTable: SampleTable, editList: [EditListEntry]? = nil,
        creationTime: UInt64 = 0, extensions: [UserExtensionBox] = [], alignment: Int = 1
    ) throws {
        precondition(alignment >= 1, "MovieLayout alignment \(alignment) must be at least 1")
        try track.validate()
        guard track.timescale == sampleTable.timescale else {
            throw ISOBMFFError(
                .invalidTrack,
                "track timescale \(track.timescale) differs from the sample table's \(sampleTable.timescale)")
        }
        let movie = MovieBoxWriter(
            brand: brand, track: track, sampleTable: sampleTable, editList: editList ?? [],
            creationTime: creationTime, extensions: extensions)
        let largeMediaData = sampleTable.payloadSize > UInt64(UInt32.max) - 8
        let lastChunkOffset = sampleTable.chunkOffsets.last ?? 0
        var largeOffsets = lastChunkOffset > UInt64(UInt32.max)
        var padding = 0
        while true {
            let measured = movie.header(base: 0, largeOffsets: largeOffsets, largeMediaData: largeMediaData)
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
                base: base, largeOffsets: largeOffsets, largeMediaData: largeMediaData, padding: padding)
            precondition(UInt64(final.count) == base, "moov size changed with its chunk offsets")
            header = final
            break
        }
        paddingSize = padding
        usesLargeChunkOffsets = largeOffsets
        usesLargeMediaDataHeader = largeMediaData
    }
}

/// Writes `ftyp`, `moov` and the `mdat` header for one layout attempt; also the `ftyp` and `moov`
/// of a fragmented movie (with `mvex`, empty sample tables and no `mdat`).
struct MovieBoxWriter {
    let brand: FileBrand
    let track: VideoTrack
    let sampleTable: SampleTable
    let editList: [EditListEntry]
    let creationTime: UInt64
    var extensions: [UserExtensionBox] = []
    /// The `mvex` of a fragmented movie; `nil` for a progressive one.
    var movieExtends: MovieExtendsBox? = nil
    /// The `mvhd`/`tkhd` duration when it is not the edit list's or the sample table's.
    var durationOverride: UInt64? = nil

    var isQuickTime: Bool { brand == .quickTime }

    var movieDuration: UInt64 {
        if let durationOverride { return durationOverride }
        return editList.isEmpty ? sampleTable.mediaDuration : EditListBox(entries: editList).duration
    }

    func header(base: UInt64, largeOffsets: Bool, largeMediaData: Bool, padding: Int = 0) -> [UInt8] {
        var w = ByteWriter(capacity: 4096 + sampleTable.sampleCount * 4 + sampleTable.chunkCount * 12 + padding)
        writeMovie(to: &w, base: base, largeOffsets: largeOffsets)
        if padding > 0 { w.box("free") { w in w.putZeros(padding - 8) } }
        w.boxHeader("mdat", payloadSize: sampleTable.payloadSize)
        return w.bytes
    }

    /// Writes `ftyp` and `moov`.
    func writeMovie(to w: inout ByteWriter, base: UInt64, largeOffsets: Bool) {
        FileTypeBox(brand: brand).write(to: &w)
        w.box("moov") { w in
            MovieHeaderBox(
                creationTime: creationTime, modificationTime: creationTime, timescale: track.timescale,
                duration: movieDuration
            ).write(to: &w)
            writeTrack(to: &w, base: base, largeOffsets: largeOffsets)
            for box in extensions { box.write(to: &w) }
            movieExtends?.write(to: &w)
        }
    }

    private func writeTrack(to w: inout ByteWriter, base: UInt64, largeOffsets: Bool) {
        w.box("trak") { w in
            TrackHeaderBox(
                creationTime: creationTime, modificationTime: creationTime, duration: movieDuration,
                width: UInt32(track.width), height: UInt32(track.height)
            ).write(to: &w)
            if !editList.isEmpty { EditListBox(entries: editList).write(to: &w) }
            w.box("mdia") { w in
                MediaHeaderBox(
                    creationTime: creationTime, modificationTime: creationTime, timescale: track.timescale,
                    duration: sampleTable.mediaDuration
                ).write(to: &w)
                HandlerBox(isQuickTime: isQuickTime).write(to: &w)
                w.box("minf") { w in
                    VideoMediaHeaderBox().write(to: &w)
                    DataInformationBox().write(to: &w)
                    w.box("stbl") { w in
                        SampleDescriptionBox(track: track, isQuickTime: isQuickTime).write(to: &w)
                        sampleTable.write(to: &w, base: base, usesLargeOffsets: largeOffsets)
                    }
                }
            }
        }
    }
}
