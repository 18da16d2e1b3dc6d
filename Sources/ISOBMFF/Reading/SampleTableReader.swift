import MediaModel

/// Decodes the sample tables of a file's first video track (or first track of another handler
/// type, such as `soun`) into one record per sample.
///
/// The tables (`stts`, `ctts`, `stss`, `stsc`, `stsz`, `stco`/`co64`) are decoded leniently:
/// disagreements between them do not throw but are reported by ``validate()``. Malformed boxes
/// throw ``MediaReadingError``; nothing traps, whatever the input.
///
/// ```swift
/// let reader = try SampleTableReader(bytes: fileBytes)
/// #expect(reader.validate().isEmpty)
/// let firstKeyframe = reader.samples.first { $0.isSync }
/// ```
package struct SampleTableReader: Sendable {
    /// One sample as the tables describe it.
    package struct DecodedSample: Sendable, Equatable {
        /// Decode time in the media timescale: the sum of the previous samples' `stts` deltas.
        package var decodeTime: UInt64
        /// Presentation time minus decode time, from `ctts` (0 without one).
        package var compositionOffset: Int64
        /// Size in bytes, from `stsz`.
        package var size: UInt32
        /// The file offset of the first byte, from `stsc` and `stco`/`co64` (0 if no chunk covers it).
        package var offset: UInt64
        /// Whether the sample is a sync sample (`stss`, or every sample without one).
        package var isSync: Bool

        /// Creates a sample's entry, for samples whose times come from elsewhere (a Matroska file's blocks).
        package init(decodeTime: UInt64, compositionOffset: Int64, size: UInt32, offset: UInt64, isSync: Bool) {
            self.decodeTime = decodeTime
            self.compositionOffset = compositionOffset
            self.size = size
            self.offset = offset
            self.isSync = isSync
        }
    }

    /// Time units per second of the media, from `mdhd`.
    package let timescale: UInt32
    /// The media duration from `mdhd`.
    package let mediaDuration: UInt64
    /// Every sample, in decode order; as many as `stsz` declares.
    package let samples: [DecodedSample]
    /// The decoded `stts` box.
    package let timeToSample: TimeToSampleBox
    /// The decoded `ctts` box, if present.
    package let compositionOffsets: CompositionOffsetBox?
    /// The decoded `stss` box, if present.
    package let syncSamples: SyncSampleBox?
    /// The decoded `stsc` box.
    package let sampleToChunk: SampleToChunkBox
    /// The decoded `stsz` box.
    package let sampleSizes: SampleSizeBox
    /// The decoded `stco` or `co64` box.
    package let chunkOffsets: ChunkOffsetBox
    /// The size of the file the tables point into.
    package let fileSize: Int
    /// The payload ranges of the file's top-level `mdat` boxes.
    package let mediaDataRanges: [Range<Int>]

    private let samplesCoveredByChunks: UInt64

    /// Reads the first video track's sample tables from a file, or from the start of one.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes, or its first bytes (at least through `moov`).
    ///   - handlerType: The handler of the track to read: `vide` (the default) or `soun`.
    ///   - fileSize: The full file's size when `bytes` is only its start.
    ///   - maximumSampleCount: The most samples to accept, a guard against hostile counts.
    /// - Throws: ``MediaReadingError`` when the box tree is malformed, a table is missing or
    ///   unreadable, or the sample count exceeds `maximumSampleCount`.
    package init(
        bytes: [UInt8], fileSize: Int? = nil, handlerType: FourCC = "vide", maximumSampleCount: Int = 1 << 22
    ) throws {
        let boxes = try BoxReader.parse(bytes, fileSize: fileSize)
        self.fileSize = max(fileSize ?? bytes.count, bytes.count)
        mediaDataRanges = boxes.filter { $0.type == "mdat" }.map(\.payloadRange)

        guard let moov = boxes.first("moov") else {
            throw MediaReadingError.isoBMFF(.missing, "the file has no 'moov' box")
        }
        let kind = handlerType == "soun" ? "sound" : handlerType == "vide" ? "video" : "'\(handlerType)'"
        let found = try moov.children("trak").first {
            guard let hdlr = $0.descendant(["mdia", "hdlr"]) else { return false }
            return try HandlerBox(reading: hdlr, in: bytes).handlerType == handlerType
        }
        guard let trak = found else { throw MediaReadingError.isoBMFF(.missing, "the movie has no \(kind) track") }
        func required(_ path: [String]) throws -> Box {
            guard let box = trak.descendant(path) else {
                throw MediaReadingError.isoBMFF(
                    .missing, "the \(kind) track has no '\(path.joined(separator: "/"))' box", offset: trak.offset,
                    boxType: "trak")
            }
            return box
        }
        let mdhd = try MediaHeaderBox(reading: try required(["mdia", "mdhd"]), in: bytes)
        timescale = mdhd.timescale
        mediaDuration = mdhd.duration
        let stbl = try required(["mdia", "minf", "stbl"])
        timeToSample = try TimeToSampleBox(reading: try required(["mdia", "minf", "stbl", "stts"]), in: bytes)
        sampleToChunk = try SampleToChunkBox(reading: try required(["mdia", "minf", "stbl", "stsc"]), in: bytes)
        sampleSizes = try SampleSizeBox(reading: try required(["mdia", "minf", "stbl", "stsz"]), in: bytes)
        guard let offsetBox = stbl.child("stco") ?? stbl.child("co64") else {
            throw MediaReadingError.isoBMFF(
                .missing, "the \(kind) track has no 'stco' or 'co64' box", offset: stbl.offset)
        }
        chunkOffsets = try ChunkOffsetBox(reading: offsetBox, in: bytes)
        let ctts = try stbl.child("ctts").map { try CompositionOffsetBox(reading: $0, in: bytes) }
        let stss = try stbl.child("stss").map { try SyncSampleBox(reading: $0, in: bytes) }
        let stsz = sampleSizes
        compositionOffsets = ctts
        syncSamples = stss

        let count = Int(sampleSizes.sampleCount)
        // Every sample takes at least a byte of the file; a larger count is a lie that would cost memory.
        guard count <= self.fileSize else {
            throw MediaReadingError.isoBMFF(
                .malformed, "declares \(count) samples but the file has only \(self.fileSize) bytes",
                offset: stbl.offset, boxType: "stsz")
        }
        guard count <= maximumSampleCount else {
            throw MediaReadingError.isoBMFF(
                .malformed, "declares \(count) samples, more than the limit of \(maximumSampleCount)",
                offset: stbl.offset, boxType: "stsz")
        }
        var samples = (0..<count).map {
            DecodedSample(
                decodeTime: 0, compositionOffset: 0, size: stsz.size(at: $0), offset: 0, isSync: stss == nil)
        }
        Self.assignTimes(&samples, timeToSample, ctts)
        for number in stss?.sampleNumbers ?? [] where number >= 1 && Int(number) <= count {
            samples[Int(number) - 1].isSync = true
        }
        samplesCoveredByChunks = Self.assignOffsets(&samples, sampleToChunk, chunkOffsets.chunkOffsets)
        self.samples = samples
    }

    private static func assignTimes(
        _ samples: inout [DecodedSample], _ stts: TimeToSampleBox, _ ctts: CompositionOffsetBox?
    ) {
        var index = 0
        var time: UInt64 = 0
        for entry in stts.entries {
            for _ in 0..<min(Int(entry.sampleCount), samples.count - index) {
                samples[index].decodeTime = time
                time = saturatingAdd(time, UInt64(entry.sampleDelta))
                index += 1
            }
        }
        index = 0
        for entry in ctts?.entries ?? [] {
            for _ in 0..<min(Int(entry.sampleCount), samples.count - index) {
                samples[index].compositionOffset = entry.sampleOffset
                index += 1
            }
        }
    }

    /// Gives each sample its file offset; returns how many samples the chunks hold in all.
    private static func assignOffsets(
        _ samples: inout [DecodedSample], _ stsc: SampleToChunkBox, _ offsets: [UInt64]
    ) -> UInt64 {
        var covered: UInt64 = 0
        var index = 0
        var entry = 0
        for (chunk, chunkOffset) in offsets.enumerated() {
            while entry + 1 < stsc.entries.count && Int(stsc.entries[entry + 1].firstChunk) <= chunk + 1 { entry += 1 }
            let perChunk = stsc.entries.isEmpty ? 0 : stsc.entries[entry].samplesPerChunk
            covered = saturatingAdd(covered, UInt64(perChunk))
            var offset = chunkOffset
            for _ in 0..<min(Int(perChunk), samples.count - index) {
                samples[index].offset = offset
                offset = saturatingAdd(offset, UInt64(samples[index].size))
                index += 1
            }
        }
        return covered
    }

    /// Checks that the tables agree with each other and with the file.
    ///
    /// Checks: `stts`, `ctts` and `stsz` count the same samples; `stss` numbers are increasing
    /// and in range; `stsc` starts at chunk 1, increases, and its chunks hold exactly the samples;
    /// every sample lies inside the file and inside an `mdat` payload; the timescale is not 0.
    ///
    /// - Returns: One sentence per problem; empty when the tables are consistent.
    package func validate() -> [String] {
        var problems: [String] = []
        let count = UInt64(samples.count)
        if timescale == 0 { problems.append("mdhd timescale is 0") }
        let sttsTotal = timeToSample.entries.reduce(0) { saturatingAdd($0, UInt64($1.sampleCount)) }
        if sttsTotal != count { problems.append("stts counts \(sttsTotal) samples but stsz has \(count)") }
        if let ctts = compositionOffsets {
            let total = ctts.entries.reduce(0) { saturatingAdd($0, UInt64($1.sampleCount)) }
            if total != count { problems.append("ctts counts \(total) samples but stsz has \(count)") }
        }
        if let numbers = syncSamples?.sampleNumbers {
            if let bad = numbers.first(where: { $0 == 0 || UInt64($0) > count }) {
                problems.append("stss lists sample \(bad), outside 1...\(count)")
            }
            if zip(numbers, numbers.dropFirst()).contains(where: { $0 >= $1 }) {
                problems.append("stss sample numbers are not strictly increasing")
            }
        }
        problems += validateChunks(sampleCount: count)
        problems += validateOffsets()
        return problems
    }

    private func validateChunks(sampleCount: UInt64) -> [String] {
        var problems: [String] = []
        let entries = sampleToChunk.entries
        let chunkCount = chunkOffsets.chunkOffsets.count
        if let first = entries.first, first.firstChunk != 1 {
            problems.append("stsc starts at chunk \(first.firstChunk), not 1")
        }
        if zip(entries, entries.dropFirst()).contains(where: { $0.firstChunk >= $1.firstChunk }) {
            problems.append("stsc first_chunk values are not strictly increasing")
        }
        if let beyond = entries.first(where: { Int($0.firstChunk) > chunkCount }) {
            problems.append("stsc names chunk \(beyond.firstChunk) but there are \(chunkCount) chunks")
        }
        if samplesCoveredByChunks != sampleCount {
            problems.append(
                "the \(chunkCount) chunks hold \(samplesCoveredByChunks) samples but stsz has \(sampleCount)")
        }
        return problems
    }

    private func validateOffsets() -> [String] {
        var problems: [String] = []
        var reported = 0
        for (index, sample) in samples.enumerated() {
            let end = saturatingAdd(sample.offset, UInt64(sample.size))
            let problem: String?
            if end > UInt64(fileSize) {
                problem =
                    "sample \(index + 1) at \(sample.offset) (+\(sample.size)) ends past the file's \(fileSize) bytes"
            } else if !mediaDataRanges.contains(where: {
                UInt64($0.lowerBound) <= sample.offset && end <= UInt64($0.upperBound)
            }) {
                problem = "sample \(index + 1) at \(sample.offset) (+\(sample.size)) is not inside an mdat payload"
            } else {
                problem = nil
            }
            guard let problem else { continue }
            reported += 1
            if reported <= 5 { problems.append(problem) }
        }
        if reported > 5 { problems.append("\(reported - 5) more samples lie outside the media data") }
        return problems
    }
}

/// Adds without overflow, stopping at `UInt64.max`.
func saturatingAdd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
}
