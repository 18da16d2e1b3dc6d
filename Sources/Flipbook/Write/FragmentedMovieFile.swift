import Foundation
import ISOBMFF

/// A fragmented movie on disk while it is being written: `ftyp` and `moov` first, then one
/// `moof` + `mdat` pair per fragment, each written and flushed to the storage device as soon as it
/// is complete, then `mfra` when the movie is finished.
///
/// The file being written is the hidden temporary file beside the destination
/// (`.NAME.flipbook-PID-RANDOM.tmp`). If the process dies, that file is a playable movie holding
/// every fragment completed so far; renaming it is all a user needs to do. On
/// ``commit(track:editList:)`` the last fragment and the random access index are written, the
/// final duration is patched into `moov` in place, and the file is renamed over the destination
/// exactly as a progressive movie is.
///
/// A fragment ends at the first sync sample once it holds at least half of ``fragmentDuration``, so
/// every fragment starts with a keyframe and can be decoded on its own. The encoder places a keyframe
/// at least once every ``fragmentDuration`` (x264 sometimes a frame early, hence the half), so a
/// fragment is between half and all of it long, and a crash loses at most that much.
final class FragmentedMovieFile: MovieOutput {
    let destination: URL
    let overwrite: Bool
    /// The target length of a fragment, in the track's timescale.
    let fragmentDuration: UInt64
    private let brand: FileBrand
    private let track: VideoTrack
    private let moviePath: String
    private var file: POSIXFile?
    private var header: FragmentedMovieHeader?
    private var committed = false
    /// What the caller should pass on about a movie that was committed (see ``MovieFile/publish(_:at:overwrite:)``).
    private(set) var warnings: [String] = []

    /// Bytes of samples whose table entries are not known yet, oldest first.
    private var unmatchedData: [[UInt8]] = []
    /// The fragment being gathered.
    private var samples: [Sample] = []
    private var sampleData: [[UInt8]] = []
    private var samplesDuration: UInt64 = 0
    /// What is already in the file.
    private var fileSize: UInt64 = 0
    private var fragmentsWritten: UInt32 = 0
    private var decodeTime: UInt64 = 0
    private var randomAccess: [TrackFragmentRandomAccessBox.Entry] = []

    /// Creates the hidden movie file beside `destination`.
    ///
    /// - Parameters:
    ///   - destination: Where the finished movie will appear.
    ///   - overwrite: Whether an existing file there may be replaced at the end.
    ///   - track: The video track; its parameter sets go into `moov` before the first fragment.
    ///   - fragmentDuration: The target length of a fragment in the track's timescale, at least 1.
    init(destination: URL, overwrite: Bool, track: VideoTrack, fragmentDuration: UInt64) throws {
        try MovieFile.checkDestination(destination, overwrite: overwrite)
        self.destination = destination
        self.overwrite = overwrite
        self.track = track
        self.fragmentDuration = max(1, fragmentDuration)
        brand = FileBrand(pathExtension: destination.pathExtension)
        moviePath = temporaryStem(for: destination) + ".tmp"
        file = try MovieFile.createTemporary(at: moviePath, for: destination)
    }

    deinit {
        if !committed { POSIXFile.remove(moviePath) }
    }

    /// The path of the file being written.
    var temporaryPath: String { moviePath }

    func writeSampleData(_ data: [UInt8]) throws {
        guard file != nil else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        unmatchedData.append(data)
    }

    func addSample(_ sample: Sample, editList: () -> [EditListEntry]?) throws {
        guard file != nil, !unmatchedData.isEmpty else {
            throw FlipbookError(.invalidState, "a sample entry arrived without its bytes")
        }
        let data = unmatchedData.removeFirst()
        if sample.isSync && 2 * samplesDuration >= fragmentDuration {
            if header == nil { try writeHeader(editList: editList()) }
            try writeFragment()
        }
        samples.append(sample)
        sampleData.append(data)
        samplesDuration += UInt64(sample.duration)
    }

    /// Writes the last fragment and `mfra`, patches the final duration into `moov`, and renames the
    /// file over the destination.
    ///
    /// - Important: `extensions` are not written yet: `moov` went to disk before the first fragment,
    ///   and growing it now would move every fragment. A fragmented movie is not a joinable segment.
    func commit(track: VideoTrack, editList: [EditListEntry]?, extensions: [UserExtensionBox]) throws -> UInt64 {
        guard let file else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        guard unmatchedData.isEmpty else {
            throw FlipbookError(.invalidState, "\(unmatchedData.count) samples have bytes but no table entry")
        }
        if let media = editList?.last, let last = samples.last {
            // The last sample lasts until the media's presented end on the decode timeline, so the
            // fragments' durations add up to what the edit list presents: players that measure a
            // fragmented track by its decode times (ffmpeg does) then report the exact length.
            let before = decodeTime + samplesDuration - UInt64(last.duration)
            if media.segmentDuration > before, let duration = UInt32(exactly: media.segmentDuration - before) {
                samplesDuration = before - decodeTime + UInt64(duration)
                samples[samples.count - 1].duration = duration
            }
        }
        if !samples.isEmpty {
            if header == nil { try writeHeader(editList: editList) }
            try writeFragment()
        }
        guard let header else { throw FlipbookError(.invalidState, "no frames were written") }
        var index = ByteWriter()
        MovieFragmentRandomAccessBox(tracks: [TrackFragmentRandomAccessBox(entries: randomAccess)]).write(to: &index)
        try file.write(index.bytes)
        fileSize += UInt64(index.count)
        // The final edit list and duration are written over the provisional ones in moov; only a
        // duration that outgrows 32 bits at the very end changes the size, and then the movie keeps
        // the provisional ones (it plays the same; players then measure it from the fragments).
        let edits = editList ?? [EditListEntry(segmentDuration: decodeTime, mediaTime: 0)]
        let duration = edits.reduce(0) { $0 + $1.segmentDuration }
        if let final = header.finalized(duration: duration, editList: edits) {
            try file.write(final.bytes, at: 0)
        }
        try file.sync()
        try file.close()
        self.file = nil
        warnings = try MovieFile.publish(moviePath, at: destination, overwrite: overwrite)
        committed = true
        return fileSize
    }

    func discard() {
        try? file?.close()
        file = nil
        POSIXFile.remove(moviePath)
    }

    /// Writes `ftyp` and `moov` with the edit list so far; the length of its last segment is not
    /// known yet and is written as 0 until ``commit(track:editList:)`` patches it in.
    private func writeHeader(editList: [EditListEntry]?) throws {
        guard let file else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        var edits = editList ?? [EditListEntry(segmentDuration: 0, mediaTime: 0)]
        edits[edits.count - 1].segmentDuration = 0
        let start = try FragmentedMovieHeader(brand: brand, track: track, editList: edits)
        try file.write(start.bytes)
        fileSize += UInt64(start.bytes.count)
        header = start
    }

    /// Writes the gathered samples as one fragment, in one write, then flushes it to the storage
    /// device so that it survives a crash.
    private func writeFragment() throws {
        guard let file else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        var bytes: [UInt8] = []
        fragmentsWritten += 1
        let fragment = MovieFragment(
            sequenceNumber: fragmentsWritten, baseMediaDecodeTime: decodeTime, samples: samples)
        randomAccess.append(fragment.randomAccessEntry(moofOffset: fileSize + UInt64(bytes.count)))
        bytes.reserveCapacity(bytes.count + fragment.header.count + Int(fragment.payloadSize))
        bytes += fragment.header
        for data in sampleData { bytes += data }
        try file.write(bytes)
        try file.syncData()
        fileSize += UInt64(bytes.count)
        decodeTime += samplesDuration
        samples.removeAll(keepingCapacity: true)
        sampleData.removeAll(keepingCapacity: true)
        samplesDuration = 0
    }
}
