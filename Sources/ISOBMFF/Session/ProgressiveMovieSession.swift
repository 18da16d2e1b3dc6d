import MediaModel

/// The muxing session of a progressive ("faststart") movie: `ftyp`, `moov`, then one `mdat`.
///
/// Samples of every track are placed by a ``MediaDataInterleaver``: chunks of about a second, the
/// tracks' chunks in time order, appended as they are complete, so the sink holds media only in
/// its file. When the movie is finished the header (`ftyp`, `moov` with every sample table, and
/// the `mdat` header) goes in front of the media: ``WriteAction/prependHeader(inserted:copied:)``
/// offers it both padded to whole blocks with a `free` box, for a sink that can insert blocks at
/// the start of its file (no byte of media is copied), and unpadded, for a sink that writes it into
/// a second file followed by a copy of the media.
package struct ProgressiveMovieSession: MuxingSession {
    /// The kind of file, which decides `ftyp` and QuickTime details.
    package let brand: FileBrand
    /// The sink's block size: the length the inserted header is padded to a multiple of.
    package let alignment: Int
    /// The creation time and tags written in `moov`.
    package private(set) var tags: MovieTags
    private var interleaver: MediaDataInterleaver
    /// Each track's samples and chunks so far.
    package private(set) var sampleTables: [SampleTable]
    /// Bytes of media handed out so far.
    package private(set) var payloadSize: UInt64 = 0

    /// Creates the session of a movie with tracks of these timescales, in track order.
    ///
    /// - Parameters:
    ///   - brand: The kind of file.
    ///   - timescales: Each track's media timescale.
    ///   - alignment: The sink's block size, for the header inserted in front of the media; 1 (the
    ///     default) pads nothing.
    ///   - tags: The creation time and tags written in `moov`; none by default.
    package init(brand: FileBrand, timescales: [UInt32], alignment: Int = 1, tags: MovieTags = MovieTags()) {
        precondition(alignment >= 1, "alignment \(alignment) must be at least 1")
        self.brand = brand
        self.alignment = alignment
        self.tags = tags
        interleaver = MediaDataInterleaver(timescales: timescales)
        sampleTables = timescales.map { SampleTable(timescale: $0) }
    }

    package mutating func add(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws -> [WriteAction] {
        sampleTables[track].append(sample.entry)
        return place(interleaver.add(sample, track: track))
    }

    /// `moov` is written last, so tags added before ``finish(tracks:extensions:)`` go in it.
    package mutating func addClosingTags(_ items: [MovieTags.Item]) -> Bool {
        tags.set(items)
        return true
    }

    package mutating func finish(tracks: [Track], extensions: [MovieExtension]) throws -> [WriteAction] {
        var actions = place(interleaver.finish())
        let copied = try MovieLayout(
            brand: brand, tracks: tracks, sampleTables: sampleTables, tags: tags, extensions: extensions
        ).header
        var inserted: [UInt8]?
        if payloadSize > 0 {
            inserted =
                alignment == 1
                ? copied
                : try MovieLayout(
                    brand: brand, tracks: tracks, sampleTables: sampleTables, tags: tags, extensions: extensions,
                    alignment: alignment
                ).header
        }
        actions.append(.prependHeader(inserted: inserted, copied: copied))
        return actions
    }

    /// Records where complete chunks go and hands out their samples' bytes, sample by sample (no
    /// copy into a chunk buffer); adjacent bytes of one source file are copied in one action.
    private mutating func place(_ chunks: [MediaDataInterleaver.Chunk]) -> [WriteAction] {
        var actions: [WriteAction] = []
        for chunk in chunks {
            sampleTables[chunk.track].appendChunk(offset: payloadSize, sampleCount: chunk.samples.count)
            for sample in chunk.samples { actions.appendBytes(of: sample, merging: false) }
            payloadSize += chunk.byteCount
        }
        return actions
    }
}
