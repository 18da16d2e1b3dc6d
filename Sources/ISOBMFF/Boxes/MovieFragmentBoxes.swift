/// The movie fragment header box (`mfhd`, ISO/IEC 14496-12 §8.8.5): the fragment's sequence number.
package struct MovieFragmentHeaderBox: Sendable, Equatable {
    /// The fragment's number, from 1, increasing in file order.
    package var sequenceNumber: UInt32

    /// Creates the box.
    package init(sequenceNumber: UInt32) {
        self.sequenceNumber = sequenceNumber
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("mfhd", version: 0, flags: 0) { w in w.putUInt32(sequenceNumber) }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        _ = try r.readVersionAndFlags()
        sequenceNumber = try r.readUInt32()
    }
}

/// The track fragment header box (`tfhd`, ISO/IEC 14496-12 §8.8.7).
///
/// Flipbook writes only the track ID with the `default-base-is-moof` flag (0x020000): data offsets
/// in the track run count from the start of the enclosing `moof`, so a fragment can be understood
/// without knowing where the file's earlier fragments are. The optional default fields are read
/// (to skip them) but not kept.
package struct TrackFragmentHeaderBox: Sendable, Equatable {
    /// `default-base-is-moof`: data offsets are relative to the first byte of the `moof`.
    package static let defaultBaseIsMoof: UInt32 = 0x02_0000

    /// The track the fragment belongs to.
    package var trackID: UInt32
    /// The box's flags.
    package var flags: UInt32
    /// The fragment's default sample duration over the track's `trex`, when its flag is set (other
    /// writers' files; Flipbook writes no defaults here).
    package var defaultSampleDuration: UInt32?
    /// The fragment's default sample size, when its flag is set.
    package var defaultSampleSize: UInt32?
    /// The fragment's default sample flags, when its flag is set.
    package var defaultSampleFlags: UInt32?

    /// Creates the box.
    ///
    /// - Parameters:
    ///   - trackID: The track the fragment belongs to.
    ///   - flags: `default-base-is-moof` by default.
    package init(trackID: UInt32 = 1, flags: UInt32 = TrackFragmentHeaderBox.defaultBaseIsMoof) {
        self.trackID = trackID
        self.flags = flags
    }

    /// Writes the box (flags other than `default-base-is-moof` carry no fields here, so must be 0).
    package func write(to writer: inout ByteWriter) {
        precondition(flags & ~Self.defaultBaseIsMoof == 0, "tfhd flags \(flags) need fields Flipbook does not write")
        writer.fullBox("tfhd", version: 0, flags: flags) { w in w.putUInt32(trackID) }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        (_, flags) = try r.readVersionAndFlags()
        trackID = try r.readUInt32()
        if flags & 0x01 != 0 { try r.skip(8) }  // base_data_offset
        if flags & 0x02 != 0 { try r.skip(4) }  // sample_description_index
        defaultSampleDuration = flags & 0x08 != 0 ? try r.readUInt32() : nil
        defaultSampleSize = flags & 0x10 != 0 ? try r.readUInt32() : nil
        defaultSampleFlags = flags & 0x20 != 0 ? try r.readUInt32() : nil
    }

    /// The sample defaults for this fragment's runs: its own where it sets them, else the track's.
    func defaults(over track: TrackExtendsBox) -> TrackExtendsBox {
        var merged = track
        merged.defaultSampleDuration = defaultSampleDuration ?? track.defaultSampleDuration
        merged.defaultSampleSize = defaultSampleSize ?? track.defaultSampleSize
        merged.defaultSampleFlags = defaultSampleFlags ?? track.defaultSampleFlags
        return merged
    }
}

/// The track fragment decode time box (`tfdt`, ISO/IEC 14496-12 §8.8.12): the decode time of the
/// fragment's first sample, in the media timescale.
///
/// Always written as version 1 (64 bits), as long recordings soon pass 32 bits at fine timescales.
package struct TrackFragmentDecodeTimeBox: Sendable, Equatable {
    /// The sum of the durations of every earlier sample of the track.
    package var baseMediaDecodeTime: UInt64

    /// Creates the box.
    package init(baseMediaDecodeTime: UInt64) {
        self.baseMediaDecodeTime = baseMediaDecodeTime
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("tfdt", version: 1, flags: 0) { w in w.putUInt64(baseMediaDecodeTime) }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        let (version, _) = try r.readVersionAndFlags()
        baseMediaDecodeTime = try r.readUInt32Or64(version: version)
    }
}

/// The track run box (`trun`, ISO/IEC 14496-12 §8.8.8): consecutive samples of a fragment, stored
/// one after another from ``dataOffset``.
///
/// Flipbook states every sample's duration, size, flags and composition offset (flags 0xF01), so
/// nothing depends on `trex` defaults. Version 0 (unsigned composition offsets) is written; the
/// reader also takes version 1 (signed).
package struct TrackRunBox: Sendable, Equatable {
    /// The sample flags of a sync sample: depends on no other sample.
    package static let syncSampleFlags: UInt32 = 0x0200_0000
    /// The sample flags of any other sample: depends on others, and is not a sync sample.
    package static let nonSyncSampleFlags: UInt32 = 0x0101_0000

    /// One sample of the run.
    package struct Entry: Sendable, Equatable {
        /// Decode delta to the next sample, in the media timescale.
        package var duration: UInt32
        /// Size in bytes.
        package var size: UInt32
        /// ``TrackRunBox/syncSampleFlags`` or ``TrackRunBox/nonSyncSampleFlags``.
        package var flags: UInt32
        /// Presentation time minus decode time, in the media timescale.
        package var compositionOffset: Int64

        /// Creates an entry.
        package init(duration: UInt32, size: UInt32, flags: UInt32, compositionOffset: Int64) {
            self.duration = duration
            self.size = size
            self.flags = flags
            self.compositionOffset = compositionOffset
        }

        /// Creates the entry of a sample.
        package init(_ sample: Sample) {
            self.init(
                duration: sample.duration, size: sample.size,
                flags: sample.isSync ? TrackRunBox.syncSampleFlags : TrackRunBox.nonSyncSampleFlags,
                compositionOffset: Int64(sample.compositionOffset))
        }

        /// Whether the flags mark a sync sample (`sample_is_non_sync_sample` clear).
        package var isSync: Bool { flags & 0x0001_0000 == 0 }
    }

    /// The flags Flipbook writes: data offset, and per-sample duration, size, flags and composition offset.
    package static let writtenFlags: UInt32 = 0x0001 | 0x0100 | 0x0200 | 0x0400 | 0x0800

    /// Where the first sample's bytes start, relative to the `moof` (see ``TrackFragmentHeaderBox``).
    package var dataOffset: Int32
    /// The samples, in decode order.
    package var entries: [Entry]

    /// Creates the box.
    package init(dataOffset: Int32, entries: [Entry]) {
        self.dataOffset = dataOffset
        self.entries = entries
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("trun", version: 0, flags: Self.writtenFlags) { w in
            w.putUInt32(UInt32(entries.count))
            w.putInt32(dataOffset)
            for entry in entries {
                w.putUInt32(entry.duration)
                w.putUInt32(entry.size)
                w.putUInt32(entry.flags)
                w.putUInt32(UInt32(truncatingIfNeeded: entry.compositionOffset))
            }
        }
    }

    /// Reads a run written with any combination of the optional fields.
    ///
    /// - Parameters:
    ///   - defaults: The duration, size and flags to use for fields the run leaves out.
    init(reading box: Box, in bytes: [UInt8], defaults: TrackExtendsBox = TrackExtendsBox()) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        let (version, flags) = try r.readVersionAndFlags()
        let count = try r.readUInt32()
        dataOffset = flags & 0x0001 != 0 ? try r.readInt32() : 0
        let firstSampleFlags = flags & 0x0004 != 0 ? try r.readUInt32() : nil
        let fields = [0x0100, 0x0200, 0x0400, 0x0800].filter { flags & UInt32($0) != 0 }.count
        try r.requireEntries(count, size: 4 * fields)
        // A run without per-sample fields costs no bytes per sample, but every sample still takes at
        // least a byte of media: a larger count is a lie that would cost gigabytes.
        guard Int(count) <= bytes.count else {
            throw r.error(.malformed, "declares \(count) samples but the file has only \(bytes.count) bytes")
        }
        entries = []
        entries.reserveCapacity(Int(count))
        for index in 0..<count {
            let duration = flags & 0x0100 != 0 ? try r.readUInt32() : defaults.defaultSampleDuration
            let size = flags & 0x0200 != 0 ? try r.readUInt32() : defaults.defaultSampleSize
            var sampleFlags = flags & 0x0400 != 0 ? try r.readUInt32() : defaults.defaultSampleFlags
            if index == 0, let firstSampleFlags { sampleFlags = firstSampleFlags }
            var offset: Int64 = 0
            if flags & 0x0800 != 0 {
                let raw = try r.readUInt32()
                offset = version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
            }
            entries.append(Entry(duration: duration, size: size, flags: sampleFlags, compositionOffset: offset))
        }
    }
}
