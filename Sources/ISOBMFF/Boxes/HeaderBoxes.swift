import MediaModel

/// The unity transformation matrix of `mvhd` and `tkhd`: 16.16 fixed point, with 2.30 in the last column.
private let unityMatrix: [UInt32] = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000]

/// The matrix of `tkhd` that turns a track's pictures clockwise by `degrees` (0, 90, 180 or 270)
/// for display and moves them back into view, as phones and ffmpeg write it: `a b u c d v x y w`,
/// with `a b c d x y` in 16.16 fixed point and `u v w` in 2.30. A portrait phone video's is 90
/// (ffprobe reports its display matrix as rotation -90).
///
/// - Parameters:
///   - width: The pictures' width in pixels.
///   - height: The pictures' height in pixels.
private func rotationMatrix(clockwise degrees: Int, width: UInt32, height: UInt32) -> [UInt32] {
    let one: UInt32 = 0x0001_0000
    let minusOne: UInt32 = 0xFFFF_0000
    let w: UInt32 = 0x4000_0000
    switch degrees {
    case 90: return [0, one, 0, minusOne, 0, 0, height << 16, 0, w]
    case 180: return [minusOne, 0, 0, 0, minusOne, 0, width << 16, height << 16, w]
    case 270: return [0, minusOne, 0, one, 0, 0, 0, width << 16, w]
    default: return unityMatrix
    }
}

/// Whether any of the values needs the 64-bit (version 1) form of a header box.
private func needsVersion1(_ values: UInt64...) -> Bool {
    values.contains { $0 > UInt64(UInt32.max) }
}

extension ByteWriter {
    /// Writes a 32- or 64-bit field depending on a full box's version.
    mutating func putUInt32Or64(_ value: UInt64, version: UInt8) {
        if version == 1 { putUInt64(value) } else { putUInt32(UInt32(truncatingIfNeeded: value)) }
    }
}

/// The movie header box (`mvhd`, ISO/IEC 14496-12 §8.2.2): the movie's timescale and duration.
///
/// Written as version 1 (64-bit times) only when a time or the duration passes `UInt32.max`.
package struct MovieHeaderBox: Sendable, Equatable {
    /// Seconds since midnight, 1 January 1904, UTC.
    package var creationTime: UInt64
    /// Seconds since midnight, 1 January 1904, UTC.
    package var modificationTime: UInt64
    /// Time units per second for the movie.
    package var timescale: UInt32
    /// The movie's duration in ``timescale`` units.
    package var duration: UInt64
    /// One more than the largest track ID in use.
    package var nextTrackID: UInt32

    /// Creates a movie header; rate and volume are 1.0 and the matrix is unity.
    package init(
        creationTime: UInt64 = 0, modificationTime: UInt64 = 0, timescale: UInt32, duration: UInt64,
        nextTrackID: UInt32 = 2
    ) {
        self.creationTime = creationTime
        self.modificationTime = modificationTime
        self.timescale = timescale
        self.duration = duration
        self.nextTrackID = nextTrackID
    }

    /// The version that will be written: 1 if a field needs 64 bits.
    package var version: UInt8 { needsVersion1(creationTime, modificationTime, duration) ? 1 : 0 }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        let version = version
        writer.fullBox("mvhd", version: version, flags: 0) { w in
            w.putUInt32Or64(creationTime, version: version)
            w.putUInt32Or64(modificationTime, version: version)
            w.putUInt32(timescale)
            w.putUInt32Or64(duration, version: version)
            w.putUInt32(0x0001_0000)  // rate 1.0
            w.putUInt16(0x0100)  // volume 1.0
            w.putZeros(2 + 8)  // reserved
            for value in unityMatrix { w.putUInt32(value) }
            w.putZeros(24)  // pre_defined
            w.putUInt32(nextTrackID)
        }
    }

    package init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        let (version, _) = try r.readVersionAndFlags()
        creationTime = try r.readUInt32Or64(version: version)
        modificationTime = try r.readUInt32Or64(version: version)
        timescale = try r.readUInt32()
        duration = try r.readUInt32Or64(version: version)
        try r.skip(4 + 2 + 10 + 36 + 24)
        nextTrackID = try r.readUInt32()
    }
}

/// The track header box (`tkhd`, ISO/IEC 14496-12 §8.3.2): track ID, duration and display size.
///
/// Written as version 1 (64-bit times) only when a time or the duration passes `UInt32.max`.
package struct TrackHeaderBox: Sendable, Equatable {
    /// Track flags: 1 enabled, 2 in movie, 4 in preview. Flipbook writes 3.
    package var flags: UInt32
    /// Seconds since midnight, 1 January 1904, UTC.
    package var creationTime: UInt64
    /// Seconds since midnight, 1 January 1904, UTC.
    package var modificationTime: UInt64
    /// The track's ID, from 1.
    package var trackID: UInt32
    /// The track's duration in the movie timescale.
    package var duration: UInt64
    /// Display width in pixels (written as 16.16 fixed point).
    package var width: UInt32
    /// Display height in pixels (written as 16.16 fixed point).
    package var height: UInt32
    /// Volume in 8.8 fixed point: 0 for a visual track, 0x0100 (full) for sound.
    package var volume: UInt16
    /// The display matrix, nine values as written (`a b u c d v x y w`).
    package var matrix: [UInt32]

    /// Creates a track header; a visual track by default, with volume 0.
    ///
    /// - Parameter rotation: Degrees the pictures are turned clockwise for display: 0 (the unity
    ///   matrix, the default), 90, 180 or 270. ``width`` and ``height`` stay the pictures' own.
    package init(
        flags: UInt32 = 3, creationTime: UInt64 = 0, modificationTime: UInt64 = 0, trackID: UInt32 = 1,
        duration: UInt64, width: UInt32, height: UInt32, volume: UInt16 = 0, rotation: Int = 0
    ) {
        self.volume = volume
        matrix = rotationMatrix(clockwise: rotation, width: width, height: height)
        self.flags = flags
        self.creationTime = creationTime
        self.modificationTime = modificationTime
        self.trackID = trackID
        self.duration = duration
        self.width = width
        self.height = height
    }

    /// The version that will be written: 1 if a field needs 64 bits.
    package var version: UInt8 { needsVersion1(creationTime, modificationTime, duration) ? 1 : 0 }

    /// Degrees the matrix turns the pictures clockwise (0, 90, 180 or 270), whatever it moves them
    /// by; `nil` when it does something else (mirrors, scales, other angles).
    package var rotation: Int? {
        guard matrix.count == 9 else { return nil }
        // The first six values (a b u c d v) turn; the next two (x y) only move.
        return [0, 90, 180, 270].first { rotationMatrix(clockwise: $0, width: 0, height: 0)[0..<6] == matrix[0..<6] }
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        let version = version
        writer.fullBox("tkhd", version: version, flags: flags) { w in
            w.putUInt32Or64(creationTime, version: version)
            w.putUInt32Or64(modificationTime, version: version)
            w.putUInt32(trackID)
            w.putZeros(4)  // reserved
            w.putUInt32Or64(duration, version: version)
            w.putZeros(8)  // reserved
            w.putUInt16(0)  // layer
            w.putUInt16(0)  // alternate_group
            w.putUInt16(volume)
            w.putZeros(2)  // reserved
            for value in matrix { w.putUInt32(value) }
            w.putUInt32(width << 16)
            w.putUInt32(height << 16)
        }
    }

    package init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        let (version, flags) = try r.readVersionAndFlags()
        self.flags = flags
        creationTime = try r.readUInt32Or64(version: version)
        modificationTime = try r.readUInt32Or64(version: version)
        trackID = try r.readUInt32()
        try r.skip(4)
        duration = try r.readUInt32Or64(version: version)
        try r.skip(8 + 4)
        volume = try r.readUInt16()
        try r.skip(2)
        matrix = try (0..<9).map { _ in try r.readUInt32() }
        width = try r.readUInt32() >> 16
        height = try r.readUInt32() >> 16
    }
}

/// The media header box (`mdhd`, ISO/IEC 14496-12 §8.4.2): the media's timescale, duration and language.
///
/// Written as version 1 (64-bit times) only when a time or the duration passes `UInt32.max`.
package struct MediaHeaderBox: Sendable, Equatable {
    /// Seconds since midnight, 1 January 1904, UTC.
    package var creationTime: UInt64
    /// Seconds since midnight, 1 January 1904, UTC.
    package var modificationTime: UInt64
    /// Time units per second for the media.
    package var timescale: UInt32
    /// The media's duration in ``timescale`` units: the sum of the sample durations.
    package var duration: UInt64
    /// ISO 639-2/T language code packed as three 5-bit letters; `und` is 0x55C4.
    package var language: UInt16

    /// The packed code of `und` (undetermined).
    package static let undeterminedLanguage: UInt16 = 0x55C4

    /// Creates a media header.
    package init(
        creationTime: UInt64 = 0, modificationTime: UInt64 = 0, timescale: UInt32, duration: UInt64,
        language: UInt16 = MediaHeaderBox.undeterminedLanguage
    ) {
        self.creationTime = creationTime
        self.modificationTime = modificationTime
        self.timescale = timescale
        self.duration = duration
        self.language = language
    }

    /// The version that will be written: 1 if a field needs 64 bits.
    package var version: UInt8 { needsVersion1(creationTime, modificationTime, duration) ? 1 : 0 }

    /// The language as three letters, e.g. `und`.
    package var languageCode: String {
        var code = ""
        for shift in [10, 5, 0] {
            code.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: (language >> shift) & 0x1F) &+ 0x60))
        }
        return code
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        let version = version
        writer.fullBox("mdhd", version: version, flags: 0) { w in
            w.putUInt32Or64(creationTime, version: version)
            w.putUInt32Or64(modificationTime, version: version)
            w.putUInt32(timescale)
            w.putUInt32Or64(duration, version: version)
            w.putUInt16(language)
            w.putUInt16(0)  // pre_defined
        }
    }

    package init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        let (version, _) = try r.readVersionAndFlags()
        creationTime = try r.readUInt32Or64(version: version)
        modificationTime = try r.readUInt32Or64(version: version)
        timescale = try r.readUInt32()
        duration = try r.readUInt32Or64(version: version)
        language = try r.readUInt16()
    }
}
