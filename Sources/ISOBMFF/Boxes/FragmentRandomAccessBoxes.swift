/// The track fragment random access box (`tfra`, ISO/IEC 14496-12 §8.8.10): for each fragment
/// that starts with a sync sample, its presentation time and where its `moof` is.
///
/// Always written as version 1 (64-bit times and offsets, so files past 4 GiB need nothing special),
/// with 1-byte traf, trun and sample numbers.
package struct TrackFragmentRandomAccessBox: Sendable, Equatable {
    /// One random access point.
    package struct Entry: Sendable, Equatable {
        /// The sync sample's time, in the media timescale.
        package var time: UInt64
        /// The file offset of the `moof` that holds the sample.
        package var moofOffset: UInt64
        /// The 1-based `traf` within the `moof`.
        package var trafNumber: UInt32
        /// The 1-based `trun` within the `traf`.
        package var trunNumber: UInt32
        /// The 1-based sample within the `trun`.
        package var sampleNumber: UInt32

        /// Creates an entry; by default the first sample of the first run of the first `traf`.
        package init(
            time: UInt64, moofOffset: UInt64, trafNumber: UInt32 = 1, trunNumber: UInt32 = 1, sampleNumber: UInt32 = 1
        ) {
            self.time = time
            self.moofOffset = moofOffset
            self.trafNumber = trafNumber
            self.trunNumber = trunNumber
            self.sampleNumber = sampleNumber
        }
    }

    /// The track the entries belong to.
    package var trackID: UInt32
    /// The random access points, in time order.
    package var entries: [Entry]

    /// Creates the box.
    package init(trackID: UInt32 = 1, entries: [Entry]) {
        self.trackID = trackID
        self.entries = entries
    }

    /// Writes the box.
    ///
    /// - Important: Traps if a traf, trun or sample number does not fit its 1-byte field.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("tfra", version: 1, flags: 0) { w in
            w.putUInt32(trackID)
            w.putUInt32(0)  // reserved, and 2-bit length_size_of_traf_num, trun_num, sample_num: 1 byte each
            w.putUInt32(UInt32(entries.count))
            for entry in entries {
                w.putUInt64(entry.time)
                w.putUInt64(entry.moofOffset)
                for number in [entry.trafNumber, entry.trunNumber, entry.sampleNumber] {
                    guard let byte = UInt8(exactly: number) else {
                        preconditionFailure("tfra number \(number) does not fit one byte")
                    }
                    w.putUInt8(byte)
                }
            }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        let (version, _) = try r.readVersionAndFlags()
        trackID = try r.readUInt32()
        let sizes = try r.readUInt32()
        let lengths = [(sizes >> 4) & 3, (sizes >> 2) & 3, sizes & 3].map { Int($0) + 1 }
        let count = try r.readUInt32()
        try r.requireEntries(count, size: (version == 1 ? 16 : 8) + lengths.reduce(0, +))
        entries = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let time = try r.readUInt32Or64(version: version)
            let moofOffset = try r.readUInt32Or64(version: version)
            var numbers: [UInt32] = []
            for length in lengths {
                numbers.append(try r.readBytes(length).reduce(0) { $0 << 8 | UInt32($1) })
            }
            entries.append(
                Entry(
                    time: time, moofOffset: moofOffset, trafNumber: numbers[0], trunNumber: numbers[1],
                    sampleNumber: numbers[2]))
        }
    }
}

/// The movie fragment random access box (`mfra`, ISO/IEC 14496-12 §8.8.9), the last box of a
/// finished fragmented movie: one `tfra` per track, then `mfro`, whose size field lets a reader find
/// `mfra` from the end of the file.
package struct MovieFragmentRandomAccessBox: Sendable, Equatable {
    /// One `tfra` per track.
    package var tracks: [TrackFragmentRandomAccessBox]

    /// Creates the box.
    package init(tracks: [TrackFragmentRandomAccessBox]) {
        self.tracks = tracks
    }

    /// Writes `mfra`, its `tfra` boxes and the closing `mfro` (version 0, flags 0, the size of `mfra`).
    ///
    /// The `mfra` is written once to measure it, then again with its size in `mfro`.
    package func write(to writer: inout ByteWriter) {
        func body(size: UInt32) -> [UInt8] {
            var w = ByteWriter()
            w.box("mfra") { w in
                for tfra in tracks { tfra.write(to: &w) }
                w.fullBox("mfro", version: 0, flags: 0) { w in w.putUInt32(size) }
            }
            return w.bytes
        }
        let measured = body(size: 0)
        writer.putBytes(body(size: UInt32(measured.count)))
    }
}

/// Reads the size field of an `mfro` box.
func movieFragmentRandomAccessSize(reading box: Box, in bytes: [UInt8]) throws -> UInt32 {
    var r = ByteReader(payloadOf: box, in: bytes)
    _ = try r.readVersionAndFlags()
    return try r.readUInt32()
}
