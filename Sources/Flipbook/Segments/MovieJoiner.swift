import Foundation
import ISOBMFF

/// Joins segments made with ``Segment`` into one movie, without re-encoding.
///
/// The segments are checked before anything is written: each must be a Flipbook segment of the same
/// sequence, all `N` must be there exactly once, made with the same settings, and their frames must
/// follow on without a gap or an overlap. The result is a normal faststart movie whose frames keep
/// their exact times, as if the whole sequence had been encoded on one machine.
public enum MovieJoiner {
    /// Joins `segments` (in any order) into a movie at `url`.
    ///
    /// - Parameters:
    ///   - segments: Segment files made with `--segment K/N` or ``MovieWriter/makeMovie(fromImagesAt:to:settings:size:overwrite:imageDuration:repeatFrames:imageLimits:segment:skipInvalidImages:progress:)``.
    ///   - url: The joined movie's destination.
    ///   - overwrite: Whether an existing file at `url` may be replaced.
    /// - Returns: What was written.
    /// - Throws: ``FlipbookError``: `.invalidSettings` naming the segment at fault when the segments
    ///   do not fit together, `.unreadableInput` for a file that cannot be read; nothing is written then.
    public static func join(segments: [URL], to url: URL, overwrite: Bool = false) throws -> MovieSummary {
        guard !segments.isEmpty else {
            throw FlipbookError(.invalidSettings, "no segments were given; list every segment file to join")
        }
        let destination = try MovieDestination(url, overwrite: overwrite)
        let parts = try SegmentFile.checkedSequence(try segments.map(SegmentFile.init(url:)))
        let plan = try JoinPlan(parts)
        let first = parts[0]
        let file = try MovieFile(destination: destination, timescales: [first.timescale])
        do {
            var entries = plan.samples[...]
            for part in parts {
                try part.copySamples(into: file, entries: &entries)
            }
            let track = Track(
                trackID: 1, timescale: first.timescale, sampleEntry: first.sampleEntry, editList: plan.editList ?? [])
            let bytes = try file.commit(tracks: [track], extensions: [])
            return MovieSummary(
                url: url, frames: plan.samples.count,
                duration: MediaTime(value: plan.end, timescale: Int32(first.timescale)), bytes: bytes,
                width: first.sampleEntry.width, height: first.sampleEntry.height, codec: "h264",
                warnings: file.warnings)
        } catch {
            file.discard()
            throw error
        }
    }
}

/// The joined movie's sample table: decode times made continuous, composition offsets, edit list.
private struct JoinPlan {
    let samples: [Sample]
    let editList: [EditListEntry]?
    let end: Int64

    init(_ parts: [SegmentFile]) throws {
        var decode: [Int64] = []
        var present: [Int64] = []
        var sync: [Bool] = []
        var sizes: [UInt32] = []
        for part in parts {
            for sample in part.samples {
                let dts = Int64(sample.decodeTime) + part.offset
                if let last = decode.last, dts <= last {
                    throw FlipbookError(
                        .invalidSettings,
                        "segment \(part.info.segment) decodes a frame at tick \(dts), not after the previous segment's "
                            + "last at \(last); the segments were not made with the same encoder settings",
                        path: part.url.path)
                }
                decode.append(dts)
                present.append(dts + sample.compositionOffset)
                sync.append(sample.isSync)
                sizes.append(sample.size)
            }
        }
        end = parts.last!.end
        let shift = -decode[0]
        var samples: [Sample] = []
        samples.reserveCapacity(decode.count)
        for index in decode.indices {
            let next = index + 1 < decode.count ? decode[index + 1] : end
            samples.append(
                Sample(
                    size: sizes[index], duration: UInt32(clamping: max(1, next - decode[index])),
                    compositionOffset: UInt32(clamping: present[index] - decode[index]), isSync: sync[index]))
        }
        self.samples = samples
        editList = shift == 0 ? nil : [EditListEntry(segmentDuration: UInt64(end), mediaTime: shift)]
    }
}

/// One segment file, read and placed on the whole movie's timeline.
private struct SegmentFile {
    let url: URL
    let info: SegmentInfo
    let sampleEntry: AVCSampleEntry
    let timescale: UInt32
    let sampleDescription: [UInt8]
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
        let problems = table.validate()
        guard problems.isEmpty else { throw refuse("the segment's sample tables are inconsistent: \(problems[0])") }
        self.info = info
        do {
            sampleEntry = try AVCSampleEntry(reading: trak, in: file.bytes)
            timescale = try MediaHeaderBox(reading: mdhd, in: file.bytes).timescale
        } catch {
            throw refuse("the segment's video track cannot be read: \(error)")
        }
        sampleDescription = Array(file.bytes[stsd.offset..<min(stsd.end, file.bytes.count)])
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

    /// Copies the segment's samples, in decode order, with their joined table entries taken from the
    /// front of `entries`; adjacent samples are read in runs of up to 4 MiB at once.
    func copySamples(into file: MovieFile, entries: inout ArraySlice<Sample>) throws {
        let source = try POSIXFile.openForReading(at: url.path)
        var run: [SampleTableReader.DecodedSample] = []
        var runLength = 0
        func flush() throws {
            guard let start = run.first?.offset else { return }
            let bytes = try source.read(at: start, count: runLength)
            var position = 0
            for sample in run {
                let entry = entries.removeFirst()
                let data = Array(bytes[position..<position + Int(sample.size)])
                position += Int(sample.size)
                try file.append(
                    MediaSample(
                        data: data, duration: entry.duration, compositionOffset: entry.compositionOffset,
                        isSync: entry.isSync), track: 0, tracks: { [] })
            }
            run.removeAll(keepingCapacity: true)
            runLength = 0
        }
        for sample in samples {
            if let last = run.last, sample.offset != last.offset + UInt64(last.size) || runLength >= 4 << 20 {
                try flush()
            }
            run.append(sample)
            runLength += Int(sample.size)
        }
        try flush()
        try source.close()
    }
}
