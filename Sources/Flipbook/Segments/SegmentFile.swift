import Foundation
import ISOBMFF
import Matroska
import MediaModel

/// One segment file, read and placed on the whole movie's timeline.
struct SegmentFile {
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
    var samples: [SampleTableReader.DecodedSample]
    /// Where each sample's alpha picture lies (a WebM's VP9 alpha, `BlockAdditional` 1), sample by
    /// sample; empty for a segment without one.
    var alphaPictures: [(offset: UInt64, size: Int)?] = []
    /// Add to a media time to get the movie time.
    var offset: Int64
    /// The frames by which a Matroska segment's decode times trail its presentation times, worked out
    /// from its blocks (Matroska keeps no decode times); `nil` for an MP4 segment, which keeps them.
    var reorderDelay: Int?
    /// Where the segment's presentation starts and ends on the movie's timeline.
    let start: Int64
    let end: Int64
}

extension SegmentFile {
    /// Reads the segment at `url`: an MP4 or QuickTime movie, or a Matroska or WebM one.
    ///
    /// - Throws: ``FlipbookError`` naming the file: `.invalidMovie` for a file that is not a readable
    ///   movie, `.invalidSettings` for one that is not a Flipbook segment or cannot be joined,
    ///   `.unreadableInput` for one that cannot be read.
    init(url: URL) throws {
        if MatroskaFile.startsWithEBMLHeader(path: url.path) {
            self = try SegmentFile(matroskaAt: url)
        } else {
            self = try SegmentFile(isoBMFFAt: url)
        }
    }

    /// Reads an MP4 or QuickTime segment: its times from the sample table, its description from the
    /// `uuid` box.
    private init(isoBMFFAt url: URL) throws {
        self.url = url
        let path = url.path
        let file: MovieFileBytes
        let boxes: [Box]
        let table: SampleTableReader
        do {
            file = try MovieFileBytes(path: path)
            boxes = try BoxReader.parse(file.bytes, fileSize: file.fileSize)
            table = try SampleTableReader(bytes: file.bytes, fileSize: file.fileSize)
        } catch let error as MediaReadingError {
            throw FlipbookError.segmentNotAMovie(path, cause: error)
        } catch {
            throw FlipbookError.segmentNotReadable(path, cause: error)
        }
        guard let moov = boxes.first("moov"), let trak = moov.child("trak"),
            let stsd = trak.descendant(["mdia", "minf", "stbl", "stsd"]), let mdhd = trak.descendant(["mdia", "mdhd"])
        else { throw FlipbookError.segmentNotJoinable(path, "the segment has no movie header or video track") }
        guard let info = SegmentInfo(moov: moov, bytes: file.bytes) else {
            throw FlipbookError.notAFlipbookSegment(path)
        }
        // Segments hold one video track (and the timecode track its pictures refer to, which the
        // segment's description states again); a join copies that track and nothing else, so a segment
        // with more is refused rather than joined without the rest.
        let tracks = moov.children.filter { track in
            guard track.type == "trak" else { return false }
            let handler = track.descendant(["mdia", "hdlr"]).flatMap { try? HandlerBox(reading: $0, in: file.bytes) }
            return handler?.handlerType != "tmcd"
        }.count
        guard tracks == 1 else {
            throw FlipbookError.segmentTrackCount(path, tracks)
        }
        let problems = table.validate()
        guard problems.isEmpty else {
            throw FlipbookError.segmentNotJoinable(path, "the segment's sample tables are inconsistent: \(problems[0])")
        }
        self.info = info
        do {
            let entry = try VideoSampleEntry(reading: trak, in: file.bytes)
            sampleEntry = entry
            (width, height, codecName) = (entry.width, entry.height, entry.codecName)
            timescale = try MediaHeaderBox(reading: mdhd, in: file.bytes).timescale
        } catch {
            throw FlipbookError.segmentNotJoinable(path, "the segment's video track cannot be read: \(error)")
        }
        sampleDescription = Self.withoutContentLight(Array(file.bytes[stsd.offset..<min(stsd.end, file.bytes.count)]))
        tags = MovieTags(reading: moov, in: file.bytes)
        let header = trak.child("tkhd").flatMap { try? TrackHeaderBox(reading: $0, in: file.bytes) }
        rotation = header?.rotation.flatMap(Rotation.init(degrees:)) ?? .upright
        samples = table.samples
        guard !samples.isEmpty else { throw FlipbookError.segmentHasNoFrames(path) }

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
                throw FlipbookError.segmentOfAnotherSequence(
                    part.info, at: part.url.path, first: parts[0].info, firstPath: parts[0].url.path)
            }
            if let twin = byIndex[part.info.segment] {
                throw FlipbookError.segmentGivenTwice(
                    part.info.segment, of: count, at: part.url.path, twin: twin.url.path)
            }
            byIndex[part.info.segment] = part
        }
        let missing = (1...count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw FlipbookError.segmentsMissing(missing, of: count)
        }
        let ordered = (1...count).map { byIndex[$0]! }
        let first = ordered[0]
        for part in ordered.dropFirst() {
            guard part.info.settings == first.info.settings, part.sampleDescription == first.sampleDescription else {
                throw FlipbookError.segmentSettingsDiffer(part.info, of: count, at: part.url.path, first: first.info)
            }
        }
        guard first.start == 0 else {
            throw FlipbookError.firstSegmentStartsLate(first.url.path)
        }
        for (previous, part) in zip(ordered, ordered.dropFirst()) where part.start != previous.end {
            let timescale = Double(first.timescale)
            throw FlipbookError.segmentsDoNotFollowOn(
                part.info.segment, startsAt: Double(part.start) / timescale, previous: previous.info.segment,
                endsAt: Double(previous.end) / timescale, path: part.url.path)
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

extension SegmentFile {
    /// A sample description with its `clli` or `CoLL` values zeroed: each segment measures its own
    /// MaxCLL and MaxFALL, and a join combines them, so they alone may differ between segments.
    static func withoutContentLight(_ description: [UInt8]) -> [UInt8] {
        var bytes = description
        for (type, size, payload) in [(Array("clli".utf8), 12, 4), (Array("CoLL".utf8), 16, 8)] {
            var index = 4
            while index + size - 4 <= bytes.count {
                if Array(bytes[index..<index + 4]) == type,
                    bytes[index - 4..<index].reduce(0, { $0 << 8 | Int($1) }) == size
                {
                    for offset in (index + size - 4 - payload)..<(index + size - 4) { bytes[offset] = 0 }
                }
                index += 1
            }
        }
        return bytes
    }
}
