/// The start of a fragmented movie: `ftyp`, then a `moov` whose sample tables are empty and whose
/// `mvex` announces that movie fragments follow.
///
/// Written first, before any fragment. When the movie is finished, ``finalized(duration:editList:)``
/// gives the same boxes with the final duration, to be written over the first ones in place when
/// they have the same size (they do unless a duration passes 32 bits only at the end).
///
/// ```swift
/// let start = try FragmentedMovieHeader(brand: .mp4, track: track)
/// try file.write(start.bytes)
/// let fragment = MovieFragment(sequenceNumber: 1, baseMediaDecodeTime: 0, samples: samples)
/// try file.write(fragment.header)            // moof + mdat header
/// for sample in sampleBytes { try file.write(sample) }
/// ```
public struct FragmentedMovieHeader: Sendable {
    /// `ftyp` + `moov`, ready to write at the start of the file.
    public let bytes: [UInt8]
    /// The track this movie describes.
    public let track: VideoTrack
    /// The edit list written in `moov`.
    public let editList: [EditListEntry]
    /// The movie's duration in `mvhd`, `tkhd` and `mehd`; 0 while unknown.
    public let duration: UInt64
    private let brand: FileBrand
    private let creationTime: UInt64

    /// Lays out the start of a fragmented movie.
    ///
    /// - Parameters:
    ///   - brand: The kind of file, which decides `ftyp` and QuickTime details.
    ///   - track: The video track's format; its timescale is the movie's and the media's.
    ///   - editList: Edits to write as `edts`/`elst`, e.g. to hide the B-frame delay; a segment
    ///     duration of 0 while the movie's length is unknown. None by default.
    ///   - duration: The movie's duration in the track's timescale, 0 while unknown.
    ///   - creationTime: Seconds since 1904 for the creation and modification times.
    /// - Throws: ``ISOBMFFError`` with code `.invalidTrack` if the track cannot be described.
    public init(
        brand: FileBrand, track: VideoTrack, editList: [EditListEntry] = [], duration: UInt64 = 0,
        creationTime: UInt64 = 0
    ) throws {
        try track.validate()
        self.brand = brand
        self.track = track
        self.editList = editList
        self.duration = duration
        self.creationTime = creationTime
        let writer = MovieBoxWriter(
            brand: brand, track: track, sampleTable: SampleTable(timescale: track.timescale), editList: editList,
            creationTime: creationTime,
            movieExtends: MovieExtendsBox(
                header: MovieExtendsHeaderBox(fragmentDuration: duration), trackExtends: [TrackExtendsBox()]),
            durationOverride: duration)
        var w = ByteWriter(capacity: 2048)
        writer.writeMovie(to: &w, base: 0, largeOffsets: false)
        bytes = w.bytes
    }

    /// The same boxes with the movie's final duration and edit list, or `nil` when they would not
    /// have the same size as these (and so cannot be written over them in place).
    ///
    /// - Parameters:
    ///   - duration: The movie's duration in the track's timescale.
    ///   - editList: The final edit list; it must have as many entries as the first one.
    public func finalized(duration: UInt64, editList: [EditListEntry]) -> FragmentedMovieHeader? {
        guard
            let final = try? FragmentedMovieHeader(
                brand: brand, track: track, editList: editList, duration: duration, creationTime: creationTime),
            final.bytes.count == bytes.count
        else { return nil }
        return final
    }
}

/// One movie fragment: a `moof` describing a run of samples, and the header of the `mdat` holding them.
///
/// The caller writes ``header`` and then exactly ``payloadSize`` bytes: the samples' bytes in
/// decode order. The track run's data offset points just past the `mdat` header, relative to the
/// `moof` (`default-base-is-moof`), so the fragment is self-contained wherever it lands in the file.
public struct MovieFragment: Sendable {
    /// The fragment's number, from 1.
    public let sequenceNumber: UInt32
    /// The decode time of the first sample: the sum of every earlier sample's duration.
    public let baseMediaDecodeTime: UInt64
    /// The samples, in decode order.
    public let samples: [Sample]
    /// The sum of the sample sizes: the exact `mdat` payload size.
    public let payloadSize: UInt64
    /// `moof` + the `mdat` header, ready to write.
    public let header: [UInt8]

    /// Lays out a fragment.
    ///
    /// - Parameters:
    ///   - sequenceNumber: The fragment's number, from 1, increasing in file order.
    ///   - baseMediaDecodeTime: The decode time of the first sample, in the track's timescale.
    ///   - samples: At least one sample, in decode order.
    ///   - trackID: The track, 1 by default.
    public init(sequenceNumber: UInt32, baseMediaDecodeTime: UInt64, samples: [Sample], trackID: UInt32 = 1) {
        precondition(!samples.isEmpty, "a movie fragment needs at least one sample")
        self.sequenceNumber = sequenceNumber
        self.baseMediaDecodeTime = baseMediaDecodeTime
        self.samples = samples
        payloadSize = samples.reduce(0) { $0 + UInt64($1.size) }
        let entries = samples.map(TrackRunBox.Entry.init)
        func moof(dataOffset: Int32) -> [UInt8] {
            var w = ByteWriter(capacity: 100 + 16 * samples.count)
            w.box("moof") { w in
                MovieFragmentHeaderBox(sequenceNumber: sequenceNumber).write(to: &w)
                w.box("traf") { w in
                    TrackFragmentHeaderBox(trackID: trackID).write(to: &w)
                    TrackFragmentDecodeTimeBox(baseMediaDecodeTime: baseMediaDecodeTime).write(to: &w)
                    TrackRunBox(dataOffset: dataOffset, entries: entries).write(to: &w)
                }
            }
            return w.bytes
        }
        var mdatHeader = ByteWriter()
        mdatHeader.boxHeader("mdat", payloadSize: payloadSize)
        let measured = moof(dataOffset: 0)
        let final = moof(dataOffset: Int32(measured.count + mdatHeader.count))
        precondition(final.count == measured.count, "moof size changed with its data offset")
        header = final + mdatHeader.bytes
    }

    /// The random access entry of this fragment, which starts with a sync sample.
    ///
    /// - Parameter moofOffset: The file offset where ``header`` is written.
    public func randomAccessEntry(moofOffset: UInt64) -> TrackFragmentRandomAccessBox.Entry {
        let first = samples[0]
        return .init(time: baseMediaDecodeTime + UInt64(first.compositionOffset), moofOffset: moofOffset)
    }
}
