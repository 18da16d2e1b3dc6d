import Foundation
import ISOBMFF

/// Joins segments made with ``Segment`` into one movie, without re-encoding.
///
/// The segments are checked before anything is written: each must be a Flipbook segment of the same
/// sequence, all `N` must be there exactly once, made with the same settings, and their frames must
/// follow on without a gap or an overlap. The result is a normal faststart movie whose frames keep
/// their exact times, as if the whole sequence had been encoded on one machine.
///
/// Only the segments' indexes are read: the joined movie's index is built from their sample tables,
/// and their media is copied file to file by the kernel (`copy_file_range`: shared blocks or a copy on
/// the server where the file system can), so a join runs at about the speed of copying the files.
/// The joined movie keeps the first segment's metadata (title, creation time and the other tags) and
/// rotation.
public enum MovieJoiner {
    /// Joins `segments` (in any order) into a movie at `url`.
    ///
    /// - Parameters:
    ///   - segments: Segment files made with `--segment K/N` or ``MovieWriter/makeMovie(fromImagesAt:to:options:)``.
    ///   - url: The joined movie's destination.
    ///   - overwrite: Whether an existing file at `url` may be replaced; it passes on its permissions,
    ///     owner, group and extended attributes, and a link there is written through, as for
    ///     ``MovieWriter/init(url:settings:overwrite:imageLimits:soundtrack:audio:metadata:)``.
    ///   - soundtrack: Sound for the joined movie, added once (segments are made without it), cut or
    ///     left short to the pictures' length; none by default. The segments' media is still copied
    ///     file to file, in runs of about a second between the sound's.
    /// - Returns: What was written.
    /// - Throws: ``FlipbookError``: `.invalidSettings` naming the segment at fault when the segments
    ///   do not fit together, `.unreadableInput` for a file that cannot be read, `.invalidAudio`
    ///   naming the sound file when it cannot be used; nothing is written then.
    public static func join(segments: [URL], to url: URL, overwrite: Bool = false, soundtrack: Soundtrack? = nil)
        throws -> MovieSummary
    {
        guard !segments.isEmpty else {
            throw FlipbookError(.invalidSettings, "no segments were given; list every segment file to join")
        }
        let destination = try MovieDestination(url, overwrite: overwrite)
        let parts = try SegmentFile.checkedSequence(try segments.map(SegmentFile.init(url:)))
        let first = parts[0]
        if let codec = VideoCodec(name: first.codecName) {
            do {
                try codec.checkContainer(destination.container)
            } catch let error as FlipbookError {
                throw FlipbookError(error.code, error.message, path: url.path)
            }
        }
        var timeline = try joinedTimeline(parts)
        let sound = try soundtrack.map {
            try SoundFeeds.make($0, movieTimescale: Int32(first.timescale), container: destination.container)
        }
        let muxer = try MovieMuxer(
            destination: destination, videoTimescale: first.timescale, sound: sound, tags: first.tags)
        do {
            // The media is copied file to file; the samples only say where it is. The timeline hands
            // each sample out one packet late, in decode order, so their places are taken in that order.
            let sources = try parts.map { muxer.addSource(try POSIXFile.openForReading(at: $0.url.path)) }
            var places = parts.indices.lazy.flatMap { part in
                parts[part].samples.lazy.map { (source: sources[part], offset: $0.offset, size: $0.size) }
            }.makeIterator()
            func videoTrack() -> Track {
                var track = Track(
                    trackID: 1, timescale: first.timescale, sampleEntry: first.sampleEntry,
                    editList: timeline.editList() ?? [])
                track.rotation = first.rotation.degrees
                return track
            }
            var videoBytes: UInt64 = 0
            func append(_ sample: MediaSample) throws {
                let place = places.next()!
                videoBytes += UInt64(place.size)
                let copied = sample.withBytes(inSource: place.source, at: place.offset, count: place.size)
                try muxer.appendVideo(copied, video: videoTrack)
            }
            for part in parts {
                for packet in part.packets() {
                    if let sample = timeline.add(inTicks: packet) { try append(sample) }
                }
            }
            if let last = timeline.finish() { try append(last) }
            let end = timeline.presentationEnd
            let bytes = try muxer.finish(video: videoTrack(), movieEnd: end)
            var summary = MovieSummary(
                url: url, frames: timeline.frameCount,
                duration: MediaTime(value: end, timescale: Int32(first.timescale)), bytes: bytes,
                width: first.width, height: first.height, codec: first.codecName, warnings: muxer.warnings)
            summary.audio = muxer.sound?.info(movieEnd: end, movieTimescale: Int64(first.timescale))
            summary.videoBytes = videoBytes
            summary.metadata = MovieMetadata(first.tags)
            summary.rotation = first.rotation
            return summary
        } catch var failure as FlipbookError where failure.code == .outputNotWritable {
            // A disk error names the movie asked for; the temporary file is in the cause.
            muxer.discard()
            failure.path = url.path
            throw failure
        } catch {
            muxer.discard()
            throw error
        }
    }

    /// The joined movie's clock: every frame's presentation time, the last lasting until the last
    /// segment ends. Decode times must follow on from segment to segment.
    private static func joinedTimeline(_ parts: [SegmentFile]) throws -> MovieTimeline {
        var timeline = MovieTimeline(copyingTimescale: Int32(parts[0].timescale))
        var presentation: [Int64] = []
        var lastDecode: Int64?
        for part in parts {
            for sample in part.samples {
                let dts = Int64(sample.decodeTime) + part.offset
                if let last = lastDecode, dts <= last {
                    throw FlipbookError(
                        .invalidSettings,
                        "segment \(part.info.segment) decodes a frame at tick \(dts), not after the previous segment's "
                            + "last at \(last); the segments were not made with the same encoder settings",
                        path: part.url.path)
                }
                lastDecode = dts
                presentation.append(dts + sample.compositionOffset)
            }
        }
        let scale = Int32(parts[0].timescale)
        for time in presentation.sorted() {
            try timeline.schedule(at: MediaTime(value: time, timescale: scale), duration: nil)
        }
        try timeline.extendLatest(until: MediaTime(value: parts.last!.end, timescale: scale))
        return timeline
    }
}

/// One segment file, read and placed on the whole movie's timeline.
private struct SegmentFile {
    let url: URL
    let info: SegmentInfo
    /// The segment's entry, read into its parts and written again as the encoder writes it.
    let sampleEntry: VideoSampleEntry
    let width: Int
    let height: Int
    let codecName: String
    let timescale: UInt32
    let sampleDescription: [UInt8]
    /// The segment's creation time and tags, which the joined movie keeps from the first segment.
    let tags: MovieTags
    /// How the segment's video track is turned for display.
    let rotation: Rotation
    let samples: [SampleTableReader.DecodedSample]
    /// Add to a media time to get the movie time.
    let offset: Int64
    /// Where the segment's presentation starts and ends on the movie's timeline.
    let start: Int64
    let end: Int64

    init(url: URL) throws {
        self.url = url
        let path = url.path
        func refuse(_ message: String) -> FlipbookError {
            FlipbookError(.invalidSettings, message, path: path)
        }
        let file: MovieFileBytes
        let boxes: [Box]
        let table: SampleTableReader
        do {
            file = try MovieFileBytes(path: path)
            boxes = try BoxReader.parse(file.bytes, fileSize: file.fileSize)
            table = try SampleTableReader(bytes: file.bytes, fileSize: file.fileSize)
        } catch let error as ISOBMFFError {
            throw FlipbookError(
                .invalidMovie, "the segment is not a readable movie", path: path, underlying: error)
        } catch {
            throw FlipbookError(
                .unreadableInput, "cannot read the segment", path: path, underlying: SystemCause(error))
        }
        guard let moov = boxes.first("moov"), let trak = moov.child("trak"),
            let stsd = trak.descendant(["mdia", "minf", "stbl", "stsd"]), let mdhd = trak.descendant(["mdia", "mdhd"])
        else { throw refuse("the segment has no movie header or video track") }
        guard let info = SegmentInfo(moov: moov, bytes: file.bytes) else {
            throw refuse("not a Flipbook segment (it was not made with --segment K/N)")
        }
        // Segments hold one video track; a join copies that track and nothing else, so a segment
        // with more is refused rather than joined without the rest.
        let tracks = moov.children.filter { $0.type == "trak" }.count
        guard tracks == 1 else {
            throw refuse("the segment has \(tracks) tracks; a join copies segments of one video track only")
        }
        let problems = table.validate()
        guard problems.isEmpty else { throw refuse("the segment's sample tables are inconsistent: \(problems[0])") }
        self.info = info
        do {
            let entry = try VideoSampleEntry(reading: trak, in: file.bytes)
            sampleEntry = entry
            (width, height, codecName) = (entry.width, entry.height, entry.codecName)
            timescale = try MediaHeaderBox(reading: mdhd, in: file.bytes).timescale
        } catch {
            throw refuse("the segment's video track cannot be read: \(error)")
        }
        sampleDescription = Array(file.bytes[stsd.offset..<min(stsd.end, file.bytes.count)])
        tags = MovieTags(reading: moov, in: file.bytes)
        let header = trak.child("tkhd").flatMap { try? TrackHeaderBox(reading: $0, in: file.bytes) }
        rotation = header?.rotation.flatMap(Rotation.init(degrees:)) ?? .upright
        samples = table.samples
        guard !samples.isEmpty else { throw refuse("the segment has no frames") }

        let edits =
            try moov.descendant(["trak", "edts", "elst"]).map { try EditListBox(reading: $0, in: file.bytes).entries }
            ?? []
        let empty = edits.prefix { $0.mediaTime == -1 }.reduce(Int64(0)) { $0 + Int64($1.segmentDuration) }
        if let main = edits.first(where: { $0.mediaTime != -1 }) {
            offset = empty - main.mediaTime
            start = empty
            end = empty + Int64(main.segmentDuration)
        } else {
            offset = empty
            start = empty
            end = empty + Int64(table.mediaDuration)
        }
    }

    /// Orders the segments and checks that they form one whole sequence.
    static func checkedSequence(_ parts: [SegmentFile]) throws -> [SegmentFile] {
        let count = parts[0].info.segments
        var byIndex: [Int: SegmentFile] = [:]
        for part in parts {
            guard part.info.segments == count, part.info.totalFrames == parts[0].info.totalFrames else {
                throw FlipbookError(
                    .invalidSettings,
                    "segment \(part.info.segment)/\(part.info.segments) of \(part.info.totalFrames) frames belongs to "
                        + "another sequence than \(parts[0].url.path) (\(parts[0].info.segment)/\(count) of "
                        + "\(parts[0].info.totalFrames) frames)", path: part.url.path)
            }
            if let twin = byIndex[part.info.segment] {
                throw FlipbookError(
                    .invalidSettings,
                    "segment \(part.info.segment)/\(count) is given twice, also as \(twin.url.path)",
                    path: part.url.path)
            }
            byIndex[part.info.segment] = part
        }
        let missing = (1...count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            let list = missing.map { "\($0)/\(count)" }.joined(separator: ", ")
            throw FlipbookError(
                .invalidSettings,
                "segment\(missing.count == 1 ? "" : "s") \(list) \(missing.count == 1 ? "is" : "are") missing; "
                    + "a join needs all \(count)")
        }
        let ordered = (1...count).map { byIndex[$0]! }
        let first = ordered[0]
        for part in ordered.dropFirst() {
            guard part.info.settings == first.info.settings, part.sampleDescription == first.sampleDescription else {
                throw FlipbookError(
                    .invalidSettings,
                    "segment \(part.info.segment)/\(count) was made with different settings (\(part.info.settings)) "
                        + "than segment 1 (\(first.info.settings)); encode every segment with the same options",
                    path: part.url.path)
            }
        }
        guard first.start == 0 else {
            throw FlipbookError(.invalidSettings, "segment 1 does not start at time zero", path: first.url.path)
        }
        for (previous, part) in zip(ordered, ordered.dropFirst()) where part.start != previous.end {
            let timescale = Double(first.timescale)
            throw FlipbookError(
                .invalidSettings,
                String(
                    format: "segment %d starts at %.6f s but segment %d ends at %.6f s; segments must follow on "
                        + "without a gap or an overlap", part.info.segment, Double(part.start) / timescale,
                    previous.info.segment, Double(previous.end) / timescale), path: part.url.path)
        }
        return ordered
    }

    /// The segment's samples in decode order, without their bytes, with their times on the joined
    /// movie's timeline, in ticks.
    func packets() -> some Sequence<EncodedPacket> {
        samples.lazy.map { sample in
            let dts = Int64(sample.decodeTime) + offset
            return EncodedPacket(
                data: [], presentationTime: dts + sample.compositionOffset, decodeTime: dts, isKeyframe: sample.isSync)
        }
    }
}
