import Foundation
import ISOBMFF

/// A fragmented movie on disk while it is being written: `ftyp` and `moov` first, then one
/// `moof` + `mdat` pair per fragment, each written and flushed to the storage device as soon as it
/// is complete, then `mfra` when the movie is finished.
///
/// The file being written is the hidden temporary file beside the destination
/// (`.NAME.flipbook-PID-RANDOM.tmp`). If the process dies, that file is a playable movie holding
/// every fragment completed so far; renaming it is all a user needs to do. On
/// ``commit(track:editList:extensions:)`` the last fragment and the random access index are written, the
/// final duration is patched into `moov` in place, and the file is renamed over the destination
/// exactly as a progressive movie is.
///
/// A fragment ends at the first sync sample once it holds at least half of ``fragmentDuration``, so
/// every fragment starts with a keyframe and can be decoded on its own. The encoder places a keyframe
/// at least once every ``fragmentDuration`` (x264 sometimes a frame early, hence the half), so a
/// fragment is between half and all of it long, and a crash loses at most that much.
final class FragmentedMovieFile: MovieOutput {
    let destination: MovieDestination
    /// The target length of a fragment, in the first track's timescale.
    let fragmentDuration: UInt64
    private let moviePath: String
    private var file: POSIXFile?
    private var header: FragmentedMovieHeader?
    private var committed = false
    /// What the caller should pass on about a movie that was committed (see ``MovieDestination/publish(_:)``).
    private(set) var warnings: [String] = []

    /// Each track's samples gathered for the fragment being built.
    private var pending: [[MediaSample]]
    /// Each track's decode time at the start of the fragment being built.
    private var decodeTimes: [UInt64]
    /// The first track's media time gathered for the fragment being built.
    private var gatheredDuration: UInt64 = 0
    /// What is already in the file.
    private var fileSize: UInt64 = 0
    private var fragmentsWritten: UInt32 = 0
    private var randomAccess: [UInt32: [TrackFragmentRandomAccessBox.Entry]] = [:]

    /// Creates the hidden movie file beside `destination`.
    ///
    /// - Parameters:
    ///   - destination: Where the finished movie will appear.
    ///   - trackCount: How many tracks the movie has; the first one (video) decides where fragments end.
    ///   - fragmentDuration: The target length of a fragment in the first track's timescale, at least 1.
    init(destination: MovieDestination, trackCount: Int, fragmentDuration: UInt64) throws {
        self.destination = destination
        self.fragmentDuration = max(1, fragmentDuration)
        pending = Array(repeating: [], count: trackCount)
        decodeTimes = Array(repeating: 0, count: trackCount)
        moviePath = destination.temporaryStem() + ".tmp"
        file = try destination.createTemporary(at: moviePath)
    }

    deinit {
        if !committed { POSIXFile.remove(moviePath) }
    }

    func append(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws {
        guard file != nil else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        if track == 0 {
            if sample.isSync && 2 * gatheredDuration >= fragmentDuration {
                if header == nil { try writeHeader(tracks: tracks()) }
                try writeFragment()
            }
            gatheredDuration += UInt64(sample.duration)
        }
        pending[track].append(sample)
    }

    /// Writes the last fragment and `mfra`, patches the final duration into `moov`, and renames the
    /// file over the destination.
    ///
    /// - Important: `extensions` are not written yet: `moov` went to disk before the first fragment,
    ///   and growing it now would move every fragment. A fragmented movie is not a joinable segment.
    func commit(tracks: [Track], extensions: [UserExtensionBox]) throws -> UInt64 {
        guard let file else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        if let media = tracks.first?.editList.last, let last = pending[0].last {
            // The last sample lasts until the media's presented end on the decode timeline, so the
            // fragments' durations add up to what the edit list presents: players that measure a
            // fragmented track by its decode times (ffmpeg does) then report the exact length.
            let before = decodeTimes[0] + gatheredDuration - UInt64(last.duration)
            if media.segmentDuration > before, let duration = UInt32(exactly: media.segmentDuration - before) {
                gatheredDuration = before - decodeTimes[0] + UInt64(duration)
                pending[0][pending[0].count - 1].duration = duration
            }
        }
        for index in tracks.indices.dropFirst() where index < pending.count {
            endMedia(ofTrack: index, at: tracks[index], movieTimescale: tracks[0].timescale)
        }
        if pending.contains(where: { !$0.isEmpty }) {
            if header == nil { try writeHeader(tracks: tracks) }
            try writeFragment()
        }
        guard let header else { throw FlipbookError(.invalidState, "no frames were written") }
        var index = ByteWriter()
        let tables = tracks.compactMap { track in
            randomAccess[track.trackID].map { TrackFragmentRandomAccessBox(trackID: track.trackID, entries: $0) }
        }
        MovieFragmentRandomAccessBox(tracks: tables).write(to: &index)
        try file.write(index.bytes)
        fileSize += UInt64(index.count)
        // The final edit lists and duration are written over the provisional ones in moov; only a
        // duration that outgrows 32 bits at the very end changes the size, and then the movie keeps
        // the provisional ones (it plays the same; players then measure it from the fragments).
        let edits = tracks.indices.map { finalEdits(of: tracks[$0], index: $0, movieTimescale: tracks[0].timescale) }
        let duration = edits.map { $0.reduce(0) { $0 + $1.segmentDuration } }.max() ?? 0
        if let final = header.finalized(duration: duration, editLists: edits) {
            try file.write(final.bytes, at: 0)
        }
        try file.sync()
        try file.close()
        self.file = nil
        warnings = try destination.publish(moviePath)
        committed = true
        return fileSize
    }

    func discard() {
        try? file?.close()
        file = nil
        POSIXFile.remove(moviePath)
    }

    /// Ends a later track's media (sound) where its edit list stops presenting it: samples still
    /// pending that start after that are left out, and the last one lasts exactly until there, so
    /// players that measure the track by its decode times see the edited length.
    private func endMedia(ofTrack index: Int, at track: Track, movieTimescale: UInt32) {
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

    /// Writes `ftyp` and `moov` with the edit lists so far; the length of each last segment is not
    /// known yet and is written as 0 until ``commit(tracks:extensions:)`` patches it in.
    private func writeHeader(tracks: [Track]) throws {
        guard let file else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        var provisional = tracks
        for index in provisional.indices {
            if provisional[index].editList.isEmpty {
                provisional[index].editList = [EditListEntry(segmentDuration: 0, mediaTime: 0)]
            }
            provisional[index].editList[provisional[index].editList.count - 1].segmentDuration = 0
        }
        let start = try FragmentedMovieHeader(brand: destination.brand, tracks: provisional)
        try file.write(start.bytes)
        fileSize += UInt64(start.bytes.count)
        header = start
    }

    /// Writes the gathered samples of every track as one fragment, in one write, then flushes it to
    /// the storage device so that it survives a crash.
    private func writeFragment() throws {
        guard let file, let header else { throw FlipbookError(.invalidState, "the movie file is already closed") }
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
        for index in pending.indices {
            for sample in pending[index] {
                bytes += sample.data
                decodeTimes[index] += UInt64(sample.duration)
            }
            pending[index].removeAll(keepingCapacity: true)
        }
        try file.write(bytes)
        try file.syncData()
        fileSize += UInt64(bytes.count)
        gatheredDuration = 0
    }
}
