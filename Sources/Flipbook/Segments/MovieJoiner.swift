import Foundation
import ISOBMFF
import MediaModel

/// Joins segments made with ``Segment`` into one movie, without re-encoding.
///
/// The segments are checked before anything is written: each must be a Flipbook segment of the same
/// sequence, all `N` must be there exactly once, made with the same settings, and their frames must
/// follow on without a gap or an overlap. The result is a normal faststart movie whose frames keep
/// their exact times, as if the whole sequence had been encoded on one machine.
///
/// Segments may be MP4, QuickTime, Matroska or WebM files, joined into the container the destination
/// names. Only the segments' indexes are read: the joined movie's index is built from their sample
/// tables or blocks, and their media is copied file to file by the kernel (`copy_file_range`: shared blocks or a copy on
/// the server where the file system can), so a join runs at about the speed of copying the files.
/// The joined movie keeps the first segment's metadata (title, creation time and the other tags) and
/// rotation, starts its timecode where the first segment's starts, and records the sum of the colour
/// conversions the segments record (see `flipbook probe`).
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
            throw FlipbookError.noSegmentsGiven()
        }
        let destination = try MovieDestination(url, overwrite: overwrite)
        var parts = try segments.map(SegmentFile.init(url:))
        if let delay = parts.compactMap(\.reorderDelay).max() {
            parts = parts.map { $0.decoded(framesBehind: delay) }
        }
        parts = try SegmentFile.checkedSequence(parts)
        let first = parts[0]
        if let codec = VideoCodec(name: first.codecName) {
            do {
                try codec.checkContainer(destination.container)
                if !first.alphaPictures.isEmpty { try codec.checkAlpha(bitDepth: 8, in: destination.container) }
            } catch let error as FlipbookError {
                throw FlipbookError.restating(error, path: url.path)
            }
        }
        var timeline = try joinedTimeline(parts)
        let sound = try soundtrack.map {
            try SoundFeeds.make($0, movieTimescale: Int32(first.timescale), container: destination.container)
        }
        // A frame's nominal length, for a Matroska movie's DefaultDuration, when the segments record it.
        var frameDuration: UInt64?
        if let ticks = first.info.frameDuration.flatMap(UInt64.init(exactly:)),
            let timescale = first.info.timescale.flatMap(UInt64.init(exactly:))
        {
            frameDuration = MovieMuxer.nanoseconds(ofFrame: ticks, timescale: timescale)
        }
        let conversions = joinedColourConversions(parts)
        var tags = first.tags
        tags.items.removeAll { $0.name == ColourConversionTag.name }
        if let record = ColourConversionTag.item(conversions) { tags.set([record]) }
        // The joined movie's timecode starts where the first segment's does.
        tags.items.removeAll { $0.name.lowercased() == "timecode" }
        let muxer = try MovieMuxer(
            destination: destination, videoTimescale: first.timescale, sound: sound, frameDuration: frameDuration,
            tags: tags, timecode: first.info.movieTimecode)
        let outline = MovieOutline(
            url: url, timescale: timeline.timescale, width: first.width, height: first.height,
            rotation: first.rotation)
        do {
            // The media is copied file to file; the samples only say where it is. The timeline hands
            // each sample out one packet late, in decode order, so their places are taken in that order.
            let files = try parts.map { try POSIXFile.openForReading(at: $0.url.path) }
            let sources = files.map { muxer.addSource($0) }
            var places = parts.indices.lazy.flatMap { part in
                parts[part].samples.indices.lazy.map { index in
                    let sample = parts[part].samples[index]
                    let alpha = parts[part].alphaPictures.isEmpty ? nil : parts[part].alphaPictures[index]
                    return (part: part, source: sources[part], offset: sample.offset, size: sample.size, alpha: alpha)
                }
            }.makeIterator()
            let entry = Self.joinedEntry(parts)
            func videoTrack() -> Track {
                outline.videoTrack(codec: entry, editList: timeline.editList())
            }
            var videoBytes: UInt64 = 0
            func append(_ sample: MediaSample) throws {
                let place = places.next()!
                videoBytes += UInt64(place.size)
                var copied = sample.withBytes(inSource: place.source, at: place.offset, count: place.size)
                // An alpha picture is small beside its frame: read, not copied file to file.
                if let alpha = place.alpha {
                    copied.alpha = try files[place.part].read(at: alpha.offset, count: alpha.size)
                }
                try muxer.appendVideo(copied, video: videoTrack)
            }
            for part in parts {
                for packet in part.packets() {
                    if let sample = try timeline.add(inTicks: packet) { try append(sample) }
                }
            }
            if let last = try timeline.finish() { try append(last) }
            let end = timeline.presentationEnd
            let bytes = try muxer.finish(video: videoTrack(), movieEnd: end)
            var metadata = first.tags
            metadata.items.removeAll { $0.name == ColourConversionTag.name }
            return outline.summary(
                frames: timeline.frameCount, end: end, bytes: bytes, videoBytes: videoBytes, codec: first.codecName,
                muxer: muxer, metadata: MovieMetadata(metadata), colourConversions: conversions)
        } catch let failure as FlipbookError {
            muxer.discard()
            throw outline.namingMovie(failure)
        } catch {
            muxer.discard()
            throw error
        }
    }

    /// The colour conversions the segments record, added up.
    private static func joinedColourConversions(_ parts: [SegmentFile]) -> [String: Int] {
        var sum: [String: Int] = [:]
        for part in parts {
            let record = part.tags.items.first { $0.name.lowercased() == ColourConversionTag.name }
            for (space, count) in record.flatMap({ ColourConversionTag.counts($0.value) }) ?? [:] {
                sum[space, default: 0] += count
            }
        }
        return sum
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
                    throw FlipbookError.segmentDecodesTooEarly(
                        part.info.segment, tick: dts, last: last, path: part.url.path)
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

extension MovieJoiner {
    /// The first segment's sample entry, with the MaxCLL and MaxFALL of the whole movie: the largest of
    /// the segments' (each measured its own pictures), or none when a segment states none.
    static func joinedEntry(_ parts: [SegmentFile]) -> VideoSampleEntry {
        var entry = parts[0].sampleEntry
        let levels = parts.map(\.sampleEntry.colour.contentLight)
        if entry.colour.contentLight != nil {
            let stated = levels.compactMap { $0 }
            entry.colour.contentLight =
                stated.count == levels.count
                ? ContentLightLevel(
                    maxCLL: stated.map(\.maxCLL).max() ?? 0, maxFALL: stated.map(\.maxFALL).max() ?? 0)
                : nil
        }
        return entry
    }
}
