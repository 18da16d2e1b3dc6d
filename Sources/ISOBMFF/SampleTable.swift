/// Accumulates the samples of one track and produces its sample table boxes.
///
/// Samples are appended in decode order as the encoder produces them; their bytes go to the
/// `mdat` payload in the same order, elsewhere. The table keeps only what the boxes need: one
/// size per sample, run-length durations and composition offsets, sync sample numbers, and one
/// offset and count per chunk.
///
/// Chunking rule: consecutive samples share a chunk until adding the next one would make the
/// chunk larger than ``maximumChunkSize`` bytes, or the chunk already spans at least one second
/// (``timescale`` units) of media time. Chunk offsets are kept relative to the start of the `mdat`
/// payload; ``MovieLayout`` makes them absolute.
///
/// ```swift
/// var table = SampleTable(timescale: 30)
/// table.append(Sample(size: 4_000, duration: 1, isSync: true))
/// let layout = try MovieLayout(brand: .mp4, track: track, sampleTable: table)
/// ```
public struct SampleTable: Sendable {
    /// Time units per second of the sample durations.
    public let timescale: UInt32
    /// The largest chunk, in bytes, that the table builds from more than one sample.
    public let maximumChunkSize: UInt64

    /// The number of samples appended.
    public var sampleCount: Int { sizes.count }
    /// The sum of the sample durations, in ``timescale`` units.
    public private(set) var mediaDuration: UInt64 = 0
    /// The sum of the sample sizes: the exact `mdat` payload size.
    public private(set) var payloadSize: UInt64 = 0
    /// Each sample's size, in decode order.
    public private(set) var sizes: [UInt32] = []
    /// Each chunk's offset relative to the start of the `mdat` payload.
    public private(set) var chunkOffsets: [UInt64] = []

    private var samplesPerChunk: [UInt32] = []
    private var timeToSample: [TimeToSampleBox.Entry] = []
    private var compositionOffsets: [CompositionOffsetBox.Entry] = []
    private var hasCompositionOffsets = false
    private var syncSampleNumbers: [UInt32] = []
    private var chunkSize: UInt64 = 0
    private var chunkDuration: UInt64 = 0

    /// Creates an empty table.
    ///
    /// - Parameters:
    ///   - timescale: Time units per second of the durations; a chunk spans at most about one second.
    ///   - maximumChunkSize: The byte limit of a chunk of several samples, 1 MiB by default.
    public init(timescale: UInt32, maximumChunkSize: UInt64 = 1 << 20) {
        precondition(timescale > 0, "SampleTable timescale must not be 0")
        self.timescale = timescale
        self.maximumChunkSize = maximumChunkSize
    }

    /// Appends the next sample in decode order.
    ///
    /// - Parameter sample: The sample's size, duration, composition offset and sync flag.
    /// - Important: Traps past `UInt32.max` samples, which no file can describe.
    public mutating func append(_ sample: Sample) {
        precondition(sizes.count < Int(UInt32.max), "a track holds at most \(UInt32.max) samples")
        let size = UInt64(sample.size)
        let startsChunk =
            samplesPerChunk.isEmpty || chunkSize + size > maximumChunkSize || chunkDuration >= UInt64(timescale)
        if startsChunk {
            chunkOffsets.append(payloadSize)
            samplesPerChunk.append(0)
            chunkSize = 0
            chunkDuration = 0
        }
        samplesPerChunk[samplesPerChunk.count - 1] += 1
        chunkSize += size
        chunkDuration += UInt64(sample.duration)

        sizes.append(sample.size)
        if sample.isSync { syncSampleNumbers.append(UInt32(sizes.count)) }
        payloadSize += size
        mediaDuration += UInt64(sample.duration)

        if let last = timeToSample.last, last.sampleDelta == sample.duration {
            timeToSample[timeToSample.count - 1].sampleCount += 1
        } else {
            timeToSample.append(.init(sampleCount: 1, sampleDelta: sample.duration))
        }
        let offset = Int64(sample.compositionOffset)
        hasCompositionOffsets = hasCompositionOffsets || offset != 0
        if let last = compositionOffsets.last, last.sampleOffset == offset {
            compositionOffsets[compositionOffsets.count - 1].sampleCount += 1
        } else {
            compositionOffsets.append(.init(sampleCount: 1, sampleOffset: offset))
        }
    }

    /// The number of chunks.
    public var chunkCount: Int { chunkOffsets.count }

    /// The decode durations, run-length encoded.
    public var timeToSampleBox: TimeToSampleBox { TimeToSampleBox(entries: timeToSample) }

    /// The composition offsets, or `nil` when every offset is 0 (no `ctts` is written).
    public var compositionOffsetBox: CompositionOffsetBox? {
        hasCompositionOffsets ? CompositionOffsetBox(entries: compositionOffsets) : nil
    }

    /// The sync samples, or `nil` when every sample is a sync sample (no `stss` is written).
    public var syncSampleBox: SyncSampleBox? {
        syncSampleNumbers.count == sizes.count ? nil : SyncSampleBox(sampleNumbers: syncSampleNumbers)
    }

    /// Samples per chunk, run-length encoded.
    public var sampleToChunkBox: SampleToChunkBox {
        var entries: [SampleToChunkBox.Entry] = []
        for (index, count) in samplesPerChunk.enumerated() where entries.last?.samplesPerChunk != count {
            entries.append(.init(firstChunk: UInt32(index + 1), samplesPerChunk: count))
        }
        return SampleToChunkBox(entries: entries)
    }

    /// The sample sizes, in constant form when they are all equal.
    public var sampleSizeBox: SampleSizeBox { SampleSizeBox(sizes: sizes) }

    /// The chunk offsets made absolute by adding `base`, the file offset of the `mdat` payload.
    ///
    /// - Parameters:
    ///   - base: The file offset of the first payload byte.
    ///   - usesLargeOffsets: Whether to write `co64`.
    public func chunkOffsetBox(base: UInt64, usesLargeOffsets: Bool) -> ChunkOffsetBox {
        ChunkOffsetBox(chunkOffsets: chunkOffsets.map { base + $0 }, usesLargeOffsets: usesLargeOffsets)
    }

    /// Writes `stts`, `ctts` (if needed), `stss` (if needed), `stsc`, `stsz` and `stco`/`co64`.
    ///
    /// - Parameters:
    ///   - writer: The writer, positioned inside `stbl` after `stsd`.
    ///   - base: The file offset of the first payload byte.
    ///   - usesLargeOffsets: Whether to write `co64`.
    public func write(to writer: inout ByteWriter, base: UInt64, usesLargeOffsets: Bool) {
        timeToSampleBox.write(to: &writer)
        compositionOffsetBox?.write(to: &writer)
        syncSampleBox?.write(to: &writer)
        sampleToChunkBox.write(to: &writer)
        sampleSizeBox.write(to: &writer)
        chunkOffsetBox(base: base, usesLargeOffsets: usesLargeOffsets).write(to: &writer)
    }
}
