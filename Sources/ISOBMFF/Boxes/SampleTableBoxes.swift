/// The decoding time to sample box (`stts`, ISO/IEC 14496-12 §8.6.1.2): run-length sample durations.
package struct TimeToSampleBox: Sendable, Equatable {
    /// A run of consecutive samples with the same decode delta.
    package struct Entry: Sendable, Equatable {
        /// The number of samples in the run.
        package var sampleCount: UInt32
        /// The decode delta of each, in the media timescale.
        package var sampleDelta: UInt32

        /// Creates a run.
        package init(sampleCount: UInt32, sampleDelta: UInt32) {
            self.sampleCount = sampleCount
            self.sampleDelta = sampleDelta
        }
    }

    /// The runs, in decode order.
    package var entries: [Entry]

    /// Creates the box.
    package init(entries: [Entry]) {
        self.entries = entries
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("stts", version: 0, flags: 0) { w in
            w.putUInt32(UInt32(entries.count))
            for entry in entries {
                w.putUInt32(entry.sampleCount)
                w.putUInt32(entry.sampleDelta)
            }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        _ = try r.readVersionAndFlags()
        let count = try r.readUInt32()
        try r.requireEntries(count, size: 8)
        entries = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count { entries.append(Entry(sampleCount: try r.readUInt32(), sampleDelta: try r.readUInt32())) }
    }
}

/// The composition time to sample box (`ctts`, ISO/IEC 14496-12 §8.6.1.3): run-length offsets
/// from decode time to presentation time.
///
/// Flipbook writes version 0 (unsigned offsets); the reader also accepts version 1 (signed).
package struct CompositionOffsetBox: Sendable, Equatable {
    /// A run of consecutive samples with the same composition offset.
    package struct Entry: Sendable, Equatable {
        /// The number of samples in the run.
        package var sampleCount: UInt32
        /// Presentation time minus decode time, in the media timescale.
        package var sampleOffset: Int64

        /// Creates a run.
        package init(sampleCount: UInt32, sampleOffset: Int64) {
            self.sampleCount = sampleCount
            self.sampleOffset = sampleOffset
        }
    }

    /// The runs, in decode order.
    package var entries: [Entry]

    /// Creates the box.
    package init(entries: [Entry]) {
        self.entries = entries
    }

    /// The version that will be written: 1 only if an offset is negative.
    package var version: UInt8 { entries.contains { $0.sampleOffset < 0 } ? 1 : 0 }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("ctts", version: version, flags: 0) { w in
            w.putUInt32(UInt32(entries.count))
            for entry in entries {
                w.putUInt32(entry.sampleCount)
                w.putUInt32(UInt32(truncatingIfNeeded: entry.sampleOffset))
            }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        let (version, _) = try r.readVersionAndFlags()
        let count = try r.readUInt32()
        try r.requireEntries(count, size: 8)
        entries = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let sampleCount = try r.readUInt32()
            let raw = try r.readUInt32()
            let offset = version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
            entries.append(Entry(sampleCount: sampleCount, sampleOffset: offset))
        }
    }
}

/// The sync sample box (`stss`, ISO/IEC 14496-12 §8.6.2): 1-based numbers of the sync samples.
///
/// Absent when every sample is a sync sample.
package struct SyncSampleBox: Sendable, Equatable {
    /// 1-based sample numbers, increasing.
    package var sampleNumbers: [UInt32]

    /// Creates the box.
    package init(sampleNumbers: [UInt32]) {
        self.sampleNumbers = sampleNumbers
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("stss", version: 0, flags: 0) { w in
            w.putUInt32(UInt32(sampleNumbers.count))
            for number in sampleNumbers { w.putUInt32(number) }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        _ = try r.readVersionAndFlags()
        let count = try r.readUInt32()
        try r.requireEntries(count, size: 4)
        sampleNumbers = []
        sampleNumbers.reserveCapacity(Int(count))
        for _ in 0..<count { sampleNumbers.append(try r.readUInt32()) }
    }
}

/// The sample to chunk box (`stsc`, ISO/IEC 14496-12 §8.7.4): run-length samples per chunk.
package struct SampleToChunkBox: Sendable, Equatable {
    /// A run of chunks, from `firstChunk` to the next entry's, with the same sample count.
    package struct Entry: Sendable, Equatable {
        /// The 1-based index of the run's first chunk.
        package var firstChunk: UInt32
        /// The number of samples in each chunk of the run.
        package var samplesPerChunk: UInt32
        /// The 1-based sample description index.
        package var sampleDescriptionIndex: UInt32

        /// Creates a run.
        package init(firstChunk: UInt32, samplesPerChunk: UInt32, sampleDescriptionIndex: UInt32 = 1) {
            self.firstChunk = firstChunk
            self.samplesPerChunk = samplesPerChunk
            self.sampleDescriptionIndex = sampleDescriptionIndex
        }
    }

    /// The runs, in chunk order.
    package var entries: [Entry]

    /// Creates the box.
    package init(entries: [Entry]) {
        self.entries = entries
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("stsc", version: 0, flags: 0) { w in
            w.putUInt32(UInt32(entries.count))
            for entry in entries {
                w.putUInt32(entry.firstChunk)
                w.putUInt32(entry.samplesPerChunk)
                w.putUInt32(entry.sampleDescriptionIndex)
            }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        _ = try r.readVersionAndFlags()
        let count = try r.readUInt32()
        try r.requireEntries(count, size: 12)
        entries = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            entries.append(
                Entry(
                    firstChunk: try r.readUInt32(), samplesPerChunk: try r.readUInt32(),
                    sampleDescriptionIndex: try r.readUInt32()))
        }
    }
}

/// The sample size box (`stsz`, ISO/IEC 14496-12 §8.7.3.2): one constant size, or a size per sample.
package struct SampleSizeBox: Sendable, Equatable {
    /// The size of every sample, or 0 when ``entrySizes`` lists them.
    package var sampleSize: UInt32
    /// The number of samples.
    package var sampleCount: UInt32
    /// Per-sample sizes when ``sampleSize`` is 0; otherwise empty.
    package var entrySizes: [UInt32]

    /// Creates the box from the sample sizes, choosing the constant form when they are all equal.
    ///
    /// - Parameter sizes: Every sample's size, in decode order.
    package init(sizes: [UInt32]) {
        sampleCount = UInt32(sizes.count)
        if let first = sizes.first, first != 0, sizes.allSatisfy({ $0 == first }) {
            sampleSize = first
            entrySizes = []
        } else {
            sampleSize = 0
            entrySizes = sizes
        }
    }

    /// The size of the sample at a 0-based index.
    package func size(at index: Int) -> UInt32 {
        sampleSize != 0 ? sampleSize : entrySizes[index]
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("stsz", version: 0, flags: 0) { w in
            w.putUInt32(sampleSize)
            w.putUInt32(sampleCount)
            if sampleSize == 0 {
                for size in entrySizes { w.putUInt32(size) }
            }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        _ = try r.readVersionAndFlags()
        sampleSize = try r.readUInt32()
        sampleCount = try r.readUInt32()
        entrySizes = []
        if sampleSize == 0 {
            try r.requireEntries(sampleCount, size: 4)
            entrySizes.reserveCapacity(Int(sampleCount))
            for _ in 0..<sampleCount { entrySizes.append(try r.readUInt32()) }
        }
    }
}

/// The chunk offset box (`stco`, ISO/IEC 14496-12 §8.7.5), or its 64-bit form (`co64`).
package struct ChunkOffsetBox: Sendable, Equatable {
    /// Each chunk's absolute file offset.
    package var chunkOffsets: [UInt64]
    /// Whether to write `co64` (64-bit offsets) rather than `stco`.
    package var usesLargeOffsets: Bool

    /// Creates the box.
    ///
    /// - Parameters:
    ///   - chunkOffsets: Each chunk's absolute file offset.
    ///   - usesLargeOffsets: Whether to write `co64`; `stco` needs every offset to fit 32 bits.
    package init(chunkOffsets: [UInt64], usesLargeOffsets: Bool) {
        self.chunkOffsets = chunkOffsets
        self.usesLargeOffsets = usesLargeOffsets
    }

    /// Writes `stco` or `co64`.
    ///
    /// - Important: Traps if ``usesLargeOffsets`` is false and an offset does not fit 32 bits.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox(usesLargeOffsets ? "co64" : "stco", version: 0, flags: 0) { w in
            w.putUInt32(UInt32(chunkOffsets.count))
            for offset in chunkOffsets {
                if usesLargeOffsets {
                    w.putUInt64(offset)
                } else {
                    guard let narrow = UInt32(exactly: offset) else {
                        preconditionFailure("chunk offset \(offset) does not fit stco; use co64")
                    }
                    w.putUInt32(narrow)
                }
            }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        _ = try r.readVersionAndFlags()
        usesLargeOffsets = box.type == "co64"
        let count = try r.readUInt32()
        try r.requireEntries(count, size: usesLargeOffsets ? 8 : 4)
        chunkOffsets = []
        chunkOffsets.reserveCapacity(Int(count))
        for _ in 0..<count {
            chunkOffsets.append(usesLargeOffsets ? try r.readUInt64() : UInt64(try r.readUInt32()))
        }
    }
}
