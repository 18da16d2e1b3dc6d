/// Accumulates the sample tables of one track: one size per sample, run-length durations and
/// composition offsets, sync sample numbers, and one offset and sample count per chunk.
///
/// Samples are appended in decode order; chunks are recorded as their bytes are placed in the
/// `mdat` payload (``MediaDataInterleaver`` decides where), with offsets relative to the start of
/// that payload, which ``MovieLayout`` makes absolute.
///
/// ```swift
/// var table = SampleTable(timescale: 30)
/// table.append(Sample(size: 4_000, duration: 1, isSync: true))
/// table.appendChunk(offset: 0, sampleCount: 1)
/// ```
package struct SampleTable: Sendable {
    /// Time units per second of the sample durations.
    package let timescale: UInt32

    /// The number of samples appended.
    package var sampleCount: Int { sizes.count }
    /// The sum of the sample durations, in ``timescale`` units.
    package private(set) var mediaDuration: UInt64 = 0
    /// The sum of the sample sizes.
    package private(set) var payloadSize: UInt64 = 0
    /// Each sample's size, in decode order.
    package private(set) var sizes: [UInt32] = []
    /// Each chunk's offset relative to the start of the `mdat` payload.
    package private(set) var chunkOffsets: [UInt64] = []

    private var samplesPerChunk: [UInt32] = []
    private var timeToSample: [TimeToSampleBox.Entry] = []
    private var compositionOffsets: [CompositionOffsetBox.Entry] = []
    private var hasCompositionOffsets = false
    private var syncSampleNumbers: [UInt32] = []
    private var chunkedSamples = 0

    /// Creates an empty table.
    ///
    /// - Parameter timescale: Time units per second of the durations.
    package init(timescale: UInt32) {
        precondition(timescale > 0, "SampleTable timescale must not be 0")
        self.timescale = timescale
    }

    /// Appends the next sample in decode order.
    ///
    /// - Parameter sample: The sample's size, duration, composition offset and sync flag.
    /// - Important: Traps past `UInt32.max` samples, which no file can describe.
    package mutating func append(_ sample: Sample) {
        precondition(sizes.count < Int(UInt32.max), "a track holds at most \(UInt32.max) samples")
        sizes.append(sample.size)
        if sample.isSync { syncSampleNumbers.append(UInt32(sizes.count)) }
        payloadSize += UInt64(sample.size)
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

    /// Records that the next `sampleCount` samples, in decode order, lie back to back at `offset`
    /// bytes into the `mdat` payload.
    ///
    /// - Important: Traps when the chunks would hold more samples than were appended.
    package mutating func appendChunk(offset: UInt64, sampleCount: Int) {
        precondition(
            sampleCount > 0 && chunkedSamples + sampleCount <= sizes.count,
            "a chunk of \(sampleCount) samples after \(chunkedSamples) chunked of \(sizes.count) appended")
        chunkedSamples += sampleCount
        chunkOffsets.append(offset)
        samplesPerChunk.append(UInt32(sampleCount))
    }

    /// The number of chunks.
    package var chunkCount: Int { chunkOffsets.count }

    /// The decode durations, run-length encoded.
    package var timeToSampleBox: TimeToSampleBox { TimeToSampleBox(entries: timeToSample) }

    /// The composition offsets, or `nil` when every offset is 0 (no `ctts` is written).
    package var compositionOffsetBox: CompositionOffsetBox? {
        hasCompositionOffsets ? CompositionOffsetBox(entries: compositionOffsets) : nil
    }

    /// The sync samples, or `nil` when every sample is a sync sample (no `stss` is written).
    package var syncSampleBox: SyncSampleBox? {
        syncSampleNumbers.count == sizes.count ? nil : SyncSampleBox(sampleNumbers: syncSampleNumbers)
    }

    /// Samples per chunk, run-length encoded.
    package var sampleToChunkBox: SampleToChunkBox {
        var entries: [SampleToChunkBox.Entry] = []
        for (index, count) in samplesPerChunk.enumerated() where entries.last?.samplesPerChunk != count {
            entries.append(.init(firstChunk: UInt32(index + 1), samplesPerChunk: count))
        }
        return SampleToChunkBox(entries: entries)
    }

    /// The sample sizes, in constant form when they are all equal.
    package var sampleSizeBox: SampleSizeBox { SampleSizeBox(sizes: sizes) }

    /// The chunk offsets made absolute by adding `base`, the file offset of the `mdat` payload.
    ///
    /// - Parameters:
    ///   - base: The file offset of the first payload byte.
    ///   - usesLargeOffsets: Whether to write `co64`.
    package func chunkOffsetBox(base: UInt64, usesLargeOffsets: Bool) -> ChunkOffsetBox {
        ChunkOffsetBox(chunkOffsets: chunkOffsets.map { base + $0 }, usesLargeOffsets: usesLargeOffsets)
    }

    /// Writes `stts`, `ctts` (if needed), `stss` (if needed), `stsc`, `stsz` and `stco`/`co64`.
    ///
    /// - Parameters:
    ///   - writer: The writer, positioned inside `stbl` after `stsd`.
    ///   - base: The file offset of the first payload byte.
    ///   - usesLargeOffsets: Whether to write `co64`.
    package func write(to writer: inout ByteWriter, base: UInt64, usesLargeOffsets: Bool) {
        timeToSampleBox.write(to: &writer)
        compositionOffsetBox?.write(to: &writer)
        syncSampleBox?.write(to: &writer)
        sampleToChunkBox.write(to: &writer)
        sampleSizeBox.write(to: &writer)
        chunkOffsetBox(base: base, usesLargeOffsets: usesLargeOffsets).write(to: &writer)
    }
}
