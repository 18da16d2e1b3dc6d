/// The movie extends header box (`mehd`, ISO/IEC 14496-12 §8.8.2): the whole fragmented movie's
/// duration, fragments included.
///
/// Always written as version 1 (a 64-bit duration), so the box keeps its size when a duration of
/// 0 written at the start is replaced by the final one at the end.
public struct MovieExtendsHeaderBox: Sendable, Equatable {
    /// The duration of the longest track, fragments included, in the movie timescale; 0 while unknown.
    public var fragmentDuration: UInt64

    /// Creates the box.
    ///
    /// - Parameter fragmentDuration: The movie's duration in the movie timescale; 0 while unknown.
    public init(fragmentDuration: UInt64) {
        self.fragmentDuration = fragmentDuration
    }

    /// Writes the box.
    public func write(to writer: inout ByteWriter) {
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
public struct TrackExtendsBox: Sendable, Equatable {
    /// The track the defaults belong to.
    public var trackID: UInt32
    /// The 1-based index of the sample description fragments use.
    public var defaultSampleDescriptionIndex: UInt32
    /// The sample duration fragments use when they do not state one.
    public var defaultSampleDuration: UInt32
    /// The sample size fragments use when they do not state one.
    public var defaultSampleSize: UInt32
    /// The sample flags fragments use when they do not state them (see ``TrackRunBox/syncSampleFlags``).
    public var defaultSampleFlags: UInt32

    /// Creates the box.
    public init(
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
    public func write(to writer: inout ByteWriter) {
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
public struct MovieExtendsBox: Sendable, Equatable {
    /// The `mehd` box; `nil` writes none.
    public var header: MovieExtendsHeaderBox?
    /// One `trex` per track.
    public var trackExtends: [TrackExtendsBox]

    /// Creates the box.
    ///
    /// - Parameters:
    ///   - header: The `mehd` box, or `nil` for none.
    ///   - trackExtends: One `trex` per track.
    public init(header: MovieExtendsHeaderBox?, trackExtends: [TrackExtendsBox]) {
        self.header = header
        self.trackExtends = trackExtends
    }

    /// Writes `mvex` with its `mehd` and `trex` boxes.
    public func write(to writer: inout ByteWriter) {
        writer.box("mvex") { w in
            header?.write(to: &w)
            for trex in trackExtends { trex.write(to: &w) }
        }
    }
}
