import MediaModel

/// The muxing session of a fragmented movie: `ftyp` and `moov` first, then one `moof` + `mdat`
/// pair per fragment, each handed out whole and followed by ``WriteAction/syncData`` so that it
/// survives a crash, then `mfra` when the movie is finished.
///
/// Whatever the sink has written at any moment is a playable movie holding every fragment completed
/// so far. On ``finish(tracks:extensions:)`` the last fragment and the random access index are
/// appended and the final duration and edit lists are written over the provisional `moov` in place;
/// when a duration passes 32 bits only then, the final `moov` with its 64-bit boxes is put in front
/// of the file instead, the provisional one left inside a `free` box behind it.
///
/// A fragment ends at the first sync sample of the first track once it holds at least half of
/// ``fragmentDuration``, so every fragment starts with a keyframe and can be decoded on its own. The
/// encoder places a keyframe at least once every ``fragmentDuration`` (x264 sometimes a frame early,
/// hence the half), so a fragment is between half and all of it long, and a crash loses at most that
/// much.
package struct FragmentedMovieSession: MuxingSession {
    /// The kind of file, which decides `ftyp` and QuickTime details.
    package let brand: FileBrand
    /// The target length of a fragment, in the first track's timescale.
    package let fragmentDuration: UInt64
    /// The sink's block size: the length a final `moov` put in front of the file is padded to a
    /// multiple of (see ``WriteAction/prependHeader(inserted:copied:)``).
    package let alignment: Int
    /// The creation time and tags written in `moov`.
    package let tags: MovieTags
    private var header: FragmentedMovieHeader?
    /// Each track's samples gathered for the fragment being built.
    private var pending: [[MediaSample]]
    /// Each track's decode time at the start of the fragment being built.
    private var decodeTimes: [UInt64]
    /// The first track's media time gathered for the fragment being built.
    private var gatheredDuration: UInt64 = 0
    /// What the actions handed out so far have written.
    package private(set) var fileSize: UInt64 = 0
    private var fragmentsWritten: UInt32 = 0
    private var randomAccess: [UInt32: [TrackFragmentRandomAccessBox.Entry]] = [:]

    /// Creates the session.
    ///
    /// - Parameters:
    ///   - brand: The kind of file.
    ///   - trackCount: How many tracks the movie has; the first one (video) decides where fragments end.
    ///   - fragmentDuration: The target length of a fragment in the first track's timescale, at least 1.
    ///   - alignment: The sink's block size, for a final `moov` put in front of the file; 1 (the
    ///     default) pads nothing.
    ///   - tags: The creation time and tags written in `moov`; none by default.
    package init(
        brand: FileBrand, trackCount: Int, fragmentDuration: UInt64, alignment: Int = 1, tags: MovieTags = MovieTags()
    ) {
        precondition(alignment >= 1, "alignment \(alignment) must be at least 1")
        self.brand = brand
        self.tags = tags
        self.fragmentDuration = max(1, fragmentDuration)
        self.alignment = alignment
        pending = Array(repeating: [], count: trackCount)
        decodeTimes = Array(repeating: 0, count: trackCount)
    }

    package mutating func add(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws -> [WriteAction] {
        var actions: [WriteAction] = []
        if track == TrackKind.video.index {
            if sample.isSync && 2 * gatheredDuration >= fragmentDuration {
                if header == nil { actions += try startMovie(tracks: tracks()) }
                actions += fragment()
            }
            gatheredDuration += UInt64(sample.duration)
        }
        pending[track].append(sample)
        return actions
    }

    /// Appends the last fragment and `mfra`, and writes the final duration and edit lists over the
    /// provisional ones in `moov`.
    ///
    /// - Important: `extensions` are not written: `moov` went out before the first fragment, and
    ///   growing it now would move every fragment. A fragmented movie is not a joinable segment.
    package mutating func finish(tracks: [Track], extensions: [MovieExtension]) throws -> [WriteAction] {
        var actions: [WriteAction] = []
        if let media = tracks.first?.editList.last, let last = pending[TrackKind.video.index].last {
            // The last sample lasts until the media's presented end on the decode timeline, so the
            // fragments' durations add up to what the edit list presents: players that measure a
            // fragmented track by its decode times (ffmpeg does) then report the exact length.
            let before = decodeTimes[TrackKind.video.index] + gatheredDuration - UInt64(last.duration)
            if media.segmentDuration > before, let duration = UInt32(exactly: media.segmentDuration - before) {
                gatheredDuration = before - decodeTimes[TrackKind.video.index] + UInt64(duration)
                pending[TrackKind.video.index][pending[TrackKind.video.index].count - 1].duration = duration
            }
        }
        for index in tracks.indices.dropFirst() where index < pending.count {
            endMedia(ofTrack: index, at: tracks[index], movieTimescale: tracks[TrackKind.video.index].timescale)
        }
        if pending.contains(where: { !$0.isEmpty }) {
            if header == nil { actions += try startMovie(tracks: tracks) }
            actions += fragment()
        }
        guard let header else { throw MuxingError.noSamples() }
        let edits = tracks.indices.map {
            finalEdits(of: tracks[$0], index: $0, movieTimescale: tracks[TrackKind.video.index].timescale)
        }
        let duration = edits.map { $0.reduce(0) { $0 + $1.segmentDuration } }.max() ?? 0
        // Only a duration that outgrows 32 bits at the very end changes moov's size: the final one
        // then goes in front of the file, and every fragment (and so every mfra offset) moves by it.
        let inPlace = header.finalized(duration: duration, editLists: edits)
        let front =
            inPlace == nil ? try header.finalStart(duration: duration, editLists: edits, alignment: alignment) : []
        var index = ByteWriter()
        let tables = tracks.compactMap { track in
            randomAccess[track.trackID].map { entries in
                TrackFragmentRandomAccessBox(
                    trackID: track.trackID,
                    entries: entries.map { entry in
                        var moved = entry
                        moved.moofOffset += UInt64(front.count)
                        return moved
                    })
            }
        }
        MovieFragmentRandomAccessBox(tracks: tables).write(to: &index)
        actions.append(.append(index.bytes))
        fileSize += UInt64(index.count)
        if let inPlace {
            actions.append(.overwrite(inPlace.bytes, at: 0))
        } else {
            actions.append(.prependHeader(inserted: front, copied: front))
            fileSize += UInt64(front.count)
        }
        return actions
    }

    /// Ends a later track's media (sound) where its edit list stops presenting it: samples still
    /// pending that start after that are left out, and the last one lasts exactly until there, so
    /// players that measure the track by its decode times see the edited length.
    private mutating func endMedia(ofTrack index: Int, at track: Track, movieTimescale: UInt32) {
        guard let edit = track.editList.last, edit.mediaTime >= 0, movieTimescale > 0 else { return }
        let span = edit.segmentDuration.multipliedFullWidth(by: UInt64(track.timescale))
        guard span.high < UInt64(movieTimescale) else { return }
        let (ticks, remainder) = UInt64(movieTimescale).dividingFullWidth(span)
        let end = UInt64(edit.mediaTime) + ticks + (remainder > 0 ? 1 : 0)
        var start = decodeTimes[index]
        var kept = 0
        while kept < pending[index].count, start < end {
            start += UInt64(pending[index][kept].duration)
            kept += 1
        }
        guard kept > 0 else { return }
        pending[index].removeSubrange(kept...)
        let last = start - UInt64(pending[index][kept - 1].duration)
        if let duration = UInt32(exactly: end - last), duration > 0 { pending[index][kept - 1].duration = duration }
    }

    /// A track's edit list, or one that presents its whole media from the start.
    private func finalEdits(of track: Track, index: Int, movieTimescale: UInt32) -> [EditListEntry] {
        guard track.editList.isEmpty else { return track.editList }
        let media = decodeTimes[index] * UInt64(movieTimescale) / UInt64(track.timescale)
        return [EditListEntry(segmentDuration: media, mediaTime: 0)]
    }

    /// `ftyp` and `moov` with the edit lists so far; the length of each last segment is not known
    /// yet and is written as 0 until ``finish(tracks:extensions:)`` writes it over.
    private mutating func startMovie(tracks: [Track]) throws -> [WriteAction] {
        var provisional = tracks
        for index in provisional.indices {
            if provisional[index].editList.isEmpty {
                provisional[index].editList = [EditListEntry(segmentDuration: 0, mediaTime: 0)]
            }
            provisional[index].editList[provisional[index].editList.count - 1].segmentDuration = 0
        }
        let start = try FragmentedMovieHeader(brand: brand, tracks: provisional, tags: tags)
        fileSize += UInt64(start.bytes.count)
        header = start
        return [.append(start.bytes)]
    }

    /// The gathered samples of every track as one fragment, in one write, made durable.
    private mutating func fragment() -> [WriteAction] {
        guard let header else { return [] }
        fragmentsWritten += 1
        let runs = pending.indices.compactMap { index -> TrackRun? in
            guard !pending[index].isEmpty else { return nil }
            return TrackRun(
                trackID: header.tracks[index].trackID, baseMediaDecodeTime: decodeTimes[index],
                samples: pending[index].map(\.entry))
        }
        let fragment = MovieFragment(sequenceNumber: fragmentsWritten, runs: runs)
        for (trackID, entry) in fragment.randomAccessEntries(moofOffset: fileSize) {
            randomAccess[trackID, default: []].append(entry)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fragment.header.count + Int(fragment.payloadSize))
        bytes += fragment.header
        var actions: [WriteAction] = [.append(bytes)]
        for index in pending.indices {
            for sample in pending[index] {
                actions.appendBytes(of: sample, merging: true)
                decodeTimes[index] += UInt64(sample.duration)
            }
            pending[index].removeAll(keepingCapacity: true)
        }
        actions.append(.syncData)
        fileSize += UInt64(fragment.header.count) + fragment.payloadSize
        gatheredDuration = 0
        return actions
    }
}
