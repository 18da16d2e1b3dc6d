/// The movie extends header box (`mehd`, ISO/IEC 14496-12 §8.8.2): the whole fragmented movie's
/// duration, fragments included.
///
/// Always written as version 1 (a 64-bit duration), so the box keeps its size when a duration of
/// 0 written at the start is replaced by the final one at the end.
package struct MovieExtendsHeaderBox: Sendable, Equatable {
    /// The duration of the longest track, fragments included, in the movie timescale; 0 while unknown.
    package var fragmentDuration: UInt64

    /// Creates the box.
    ///
    /// - Parameter fragmentDuration: The movie's duration in the movie timescale; 0 while unknown.
    package init(fragmentDuration: UInt64) {
        self.fragmentDuration = fragmentDuration
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("mehd", version: 1, flags: 0) { w in
            w.putUInt64(fragmentDuration)
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        let (version, _) = try r.readVersionAndFlags()
        fragmentDuration = try r.readUInt32Or64(version: version)
    }
}

/// The track extends box (`trex`, ISO/IEC 14496-12 §8.8.3): the defaults that track fragments
/// inherit.
///
/// Flipbook's track fragments state every sample's duration, size, flags and composition offset,
/// so the defaults here are only the sample description index and zeros.
package struct TrackExtendsBox: Sendable, Equatable {
    /// The track the defaults belong to.
    package var trackID: UInt32
    /// The 1-based index of the sample description fragments use.
    package var defaultSampleDescriptionIndex: UInt32
    /// The sample duration fragments use when they do not state one.
    package var defaultSampleDuration: UInt32
    /// The sample size fragments use when they do not state one.
    package var defaultSampleSize: UInt32
    /// The sample flags fragments use when they do not state them (see ``TrackRunBox/syncSampleFlags``).
    package var defaultSampleFlags: UInt32

    /// Creates the box.
    package init(
        trackID: UInt32 = 1, defaultSampleDescriptionIndex: UInt32 = 1, defaultSampleDuration: UInt32 = 0,
        defaultSampleSize: UInt32 = 0, defaultSampleFlags: UInt32 = 0
    ) {
        self.trackID = trackID
        self.defaultSampleDescriptionIndex = defaultSampleDescriptionIndex
        self.defaultSampleDuration = defaultSampleDuration
        self.defaultSampleSize = defaultSampleSize
        self.defaultSampleFlags = defaultSampleFlags
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("trex", version: 0, flags: 0) { w in
            w.putUInt32(trackID)
            w.putUInt32(defaultSampleDescriptionIndex)
            w.putUInt32(defaultSampleDuration)
            w.putUInt32(defaultSampleSize)
            w.putUInt32(defaultSampleFlags)
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        _ = try r.readVersionAndFlags()
        trackID = try r.readUInt32()
        defaultSampleDescriptionIndex = try r.readUInt32()
        defaultSampleDuration = try r.readUInt32()
        defaultSampleSize = try r.readUInt32()
        defaultSampleFlags = try r.readUInt32()
    }
}

/// The movie extends box (`mvex`, ISO/IEC 14496-12 §8.8.1): announces that movie fragments follow
/// `moov`, with the movie's total duration (`mehd`) and each track's defaults (`trex`).
package struct MovieExtendsBox: Sendable, Equatable {
    /// The `mehd` box; `nil` writes none.
    package var header: MovieExtendsHeaderBox?
    /// One `trex` per track.
    package var trackExtends: [TrackExtendsBox]

    /// Creates the box.
    ///
    /// - Parameters:
    ///   - header: The `mehd` box, or `nil` for none.
    ///   - trackExtends: One `trex` per track.
    package init(header: MovieExtendsHeaderBox?, trackExtends: [TrackExtendsBox]) {
        self.header = header
        self.trackExtends = trackExtends
    }

    /// Writes `mvex` with its `mehd` and `trex` boxes.
    package func write(to writer: inout ByteWriter) {
        writer.box("mvex") { w in
            header?.write(to: &w)
            for trex in trackExtends { trex.write(to: &w) }
        }
    }
}
