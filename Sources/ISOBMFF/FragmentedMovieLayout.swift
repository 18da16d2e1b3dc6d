import MediaModel

/// The start of a fragmented movie: `ftyp`, then a `moov` whose sample tables are empty and whose
/// `mvex` announces that movie fragments follow.
///
/// Written first, before any fragment. When the movie is finished, ``finalized(duration:editLists:)``
/// gives the same boxes with the final duration, to be written over the first ones in place when
/// they have the same size; they do unless a duration passes 32 bits only at the end, and then
/// ``finalStart(duration:editLists:alignment:)`` gives them with their 64-bit boxes, to be put in
/// front of the file.
///
/// ```swift
/// let start = try FragmentedMovieHeader(brand: .mp4, track: track)
/// try file.write(start.bytes)
/// let fragment = MovieFragment(sequenceNumber: 1, baseMediaDecodeTime: 0, samples: samples)
/// try file.write(fragment.header)            // moof + mdat header
/// for sample in sampleBytes { try file.write(sample) }
/// ```
package struct FragmentedMovieHeader: Sendable {
    /// `ftyp` + `moov`, ready to write at the start of the file.
    package let bytes: [UInt8]
    /// The tracks this movie describes, with the edit lists written in `moov`.
    package let tracks: [Track]
    /// The movie's duration in `mvhd`, `tkhd` and `mehd`; 0 while unknown.
    package let duration: UInt64
    private let brand: FileBrand
    private let tags: MovieTags

    /// Lays out the start of a fragmented movie.
    ///
    /// - Parameters:
    ///   - brand: The kind of file, which decides `ftyp` and QuickTime details.
    ///   - tracks: The tracks; the first one's timescale is the movie's. Their edit lists (for
    ///     example to hide the B-frame delay) have a last segment duration of 0 while the movie's
    ///     length is unknown.
    ///   - duration: The movie's duration in the movie's timescale, 0 while unknown.
    ///   - tags: The creation time (seconds since 1904) and the tags written in `moov`; none by default.
    /// - Throws: ``MuxingError`` with code `.invalidTrack` if a track cannot be described.
    package init(brand: FileBrand, tracks: [Track], duration: UInt64 = 0, tags: MovieTags = MovieTags()) throws {
        self.brand = brand
        self.tracks = tracks
        self.duration = duration
        self.tags = tags
        let writer = try MovieBoxWriter(
            brand: brand, tracks: tracks, sampleTables: tracks.map { SampleTable(timescale: $0.timescale) },
            tags: tags,
            movieExtends: MovieExtendsBox(
                header: MovieExtendsHeaderBox(fragmentDuration: duration),
                trackExtends: tracks.map { TrackExtendsBox(trackID: $0.trackID) }),
            durationOverride: duration)
        var w = ByteWriter(capacity: 2048)
        writer.writeMovie(to: &w, base: 0, largeOffsets: false)
        bytes = w.bytes
    }

    /// The same boxes with the movie's final duration and edit lists, or `nil` when they would not
    /// have the same size as these (and so cannot be written over them in place).
    ///
    /// - Parameters:
    ///   - duration: The movie's duration in the movie's timescale.
    ///   - editLists: Each track's final edit list; each must have as many entries as the first one.
    package func finalized(duration: UInt64, editLists: [[EditListEntry]]) -> FragmentedMovieHeader? {
        guard let header = try? final(duration: duration, editLists: editLists), header.bytes.count == bytes.count
        else { return nil }
        return header
    }

    /// The movie's final start when ``finalized(duration:editLists:)`` cannot be written in place (a
    /// duration that passes 32 bits only at the end takes the 64-bit boxes): the final `ftyp` and
    /// `moov`, then a `free` box that fills a whole number of `alignment` bytes and goes on over
    /// these provisional boxes, which stay in the file inside it. Put in front of the file, it moves
    /// every fragment by its length, and nothing else.
    ///
    /// - Parameters:
    ///   - duration: The movie's duration in the movie's timescale.
    ///   - editLists: Each track's final edit list.
    ///   - alignment: The length the result is a whole number of (a file system's block); 1 for none.
    /// - Throws: ``MuxingError`` with code `.invalidTrack` if a track cannot be described.
    package func finalStart(duration: UInt64, editLists: [[EditListEntry]], alignment: Int) throws -> [UInt8] {
        let header = try final(duration: duration, editLists: editLists).bytes
        let step = max(1, alignment)
        let length = (header.count + 8 + step - 1) / step * step
        var w = ByteWriter(capacity: length)
        w.putBytes(header)
        w.boxHeader("free", payloadSize: UInt64(length - header.count - 8 + bytes.count))
        w.putZeros(length - w.count)
        return w.bytes
    }

    /// The same boxes with the movie's final duration and edit lists, whatever their size.
    private func final(duration: UInt64, editLists: [[EditListEntry]]) throws -> FragmentedMovieHeader {
        var final = tracks
        for index in final.indices where index < editLists.count { final[index].editList = editLists[index] }
        return try FragmentedMovieHeader(brand: brand, tracks: final, duration: duration, tags: tags)
    }
}

/// One track's samples within a movie fragment.
package struct TrackRun: Sendable {
    /// The track the samples belong to.
    package var trackID: UInt32
    /// The decode time of the first sample: the sum of every earlier sample's duration in the track.
    package var baseMediaDecodeTime: UInt64
    /// The samples, in decode order; at least one.
    package var samples: [Sample]

    /// Creates a run.
    package init(trackID: UInt32 = 1, baseMediaDecodeTime: UInt64, samples: [Sample]) {
        self.trackID = trackID
        self.baseMediaDecodeTime = baseMediaDecodeTime
        self.samples = samples
    }

    /// The sum of the sample sizes.
    package var payloadSize: UInt64 { samples.reduce(0) { $0 + UInt64($1.size) } }
}

/// One movie fragment: a `moof` with one `traf` per track run, and the header of the `mdat` holding
/// them.
///
/// The caller writes ``header`` and then exactly ``payloadSize`` bytes: each run's samples' bytes in
/// decode order, the runs in the order given. Each track run's data offset points into that
/// `mdat`, relative to the `moof` (`default-base-is-moof`), so the fragment is self-contained
/// wherever it lands in the file.
package struct MovieFragment: Sendable {
    /// The fragment's number, from 1.
    package let sequenceNumber: UInt32
    /// The track runs, in the order their bytes follow in `mdat`.
    package let runs: [TrackRun]
    /// The sum of the sample sizes: the exact `mdat` payload size.
    package let payloadSize: UInt64
    /// `moof` + the `mdat` header, ready to write.
    package let header: [UInt8]

    /// Lays out a fragment.
    ///
    /// - Parameters:
    ///   - sequenceNumber: The fragment's number, from 1, increasing in file order.
    ///   - runs: At least one run of at least one sample.
    package init(sequenceNumber: UInt32, runs: [TrackRun]) {
        precondition(!runs.isEmpty && !runs.contains { $0.samples.isEmpty }, "a movie fragment needs samples")
        self.sequenceNumber = sequenceNumber
        self.runs = runs
        payloadSize = runs.reduce(0) { $0 + $1.payloadSize }
        func moof(payloadStart: Int) -> [UInt8] {
            var w = ByteWriter(capacity: 100 + 16 * runs.reduce(0) { $0 + $1.samples.count })
            var dataOffset = payloadStart
            w.box("moof") { w in
                MovieFragmentHeaderBox(sequenceNumber: sequenceNumber).write(to: &w)
                for run in runs {
                    w.box("traf") { w in
                        TrackFragmentHeaderBox(trackID: run.trackID).write(to: &w)
                        TrackFragmentDecodeTimeBox(baseMediaDecodeTime: run.baseMediaDecodeTime).write(to: &w)
                        TrackRunBox(dataOffset: Int32(dataOffset), entries: run.samples.map(TrackRunBox.Entry.init))
                            .write(to: &w)
                    }
                    dataOffset += Int(run.payloadSize)
                }
            }
            return w.bytes
        }
        var mdatHeader = ByteWriter()
        mdatHeader.boxHeader("mdat", payloadSize: payloadSize)
        let measured = moof(payloadStart: 0)
        let final = moof(payloadStart: measured.count + mdatHeader.count)
        precondition(final.count == measured.count, "moof size changed with its data offsets")
        header = final + mdatHeader.bytes
    }

    /// The random access entry of each run that starts with a sync sample, by track ID.
    ///
    /// - Parameter moofOffset: The file offset where ``header`` is written.
    package func randomAccessEntries(moofOffset: UInt64) -> [(
        trackID: UInt32, entry: TrackFragmentRandomAccessBox.Entry
    )] {
        runs.enumerated().compactMap { index, run in
            guard let first = run.samples.first, first.isSync else { return nil }
            let time = run.baseMediaDecodeTime + UInt64(first.compositionOffset)
            return (run.trackID, .init(time: time, moofOffset: moofOffset, trafNumber: UInt32(index + 1)))
        }
    }
}
