import MediaModel

/// The sample description box (`stsd`, ISO/IEC 14496-12 §8.5.2) with one sample entry, written by
/// the entry itself (`avc1`, and later `hvc1`, `av01`, `mp4a`, `Opus`).
package struct SampleDescriptionBox: Sendable {
    /// The entry that describes every sample of the track.
    package var entry: any SampleEntry
    /// Whether the file is a QuickTime movie.
    package var isQuickTime: Bool

    /// Creates a sample description.
    ///
    /// - Parameters:
    ///   - entry: The sample entry.
    ///   - isQuickTime: Whether the file is a QuickTime movie.
    package init(entry: any SampleEntry, isQuickTime: Bool) {
        self.entry = entry
        self.isQuickTime = isQuickTime
    }

    /// Writes `stsd` and its one entry.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("stsd", version: entry.descriptionVersion(isQuickTime: isQuickTime), flags: 0) { w in
            w.putUInt32(1)  // entry_count
            entry.write(to: &w, isQuickTime: isQuickTime)
        }
    }

    /// The 32-byte compressorname field: a length byte, at most 31 UTF-8 bytes (cut at a
    /// character boundary), zero padding.
    static func compressorNameField(_ name: String) -> [UInt8] {
        var utf8: [UInt8] = []
        for scalar in name.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard utf8.count + encoded.count <= 31 else { break }
            utf8 += encoded
        }
        return [UInt8(utf8.count)] + utf8 + Array(repeating: 0, count: 31 - utf8.count)
    }
}

/// Reads the `avc1` visual sample entry fields that matter for display.
struct VisualSampleEntry: Equatable {
    var width: UInt16
    var height: UInt16
    var compressorName: String
    /// QuickTime's vendor code (ISO's first `pre_defined` word), zero for ISO entries.
    var vendor: UInt32
    /// QuickTime's spatial quality (ISO's third `pre_defined` word).
    var spatialQuality: UInt32
    /// 24 for colour, 32 for colour with alpha.
    var depth: UInt16

    /// The bytes of a visual sample entry before its child boxes.
    static let fieldsSize = 78

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        try r.skip(12)
        vendor = try r.readUInt32()
        try r.skip(4)
        spatialQuality = try r.readUInt32()
        width = try r.readUInt16()
        height = try r.readUInt16()
        try r.skip(14)
        let name = try r.readBytes(32)
        compressorName = String(decoding: name.dropFirst().prefix(min(Int(name[0]), 31)), as: UTF8.self)
        depth = try r.readUInt16()
    }
}

/// The AVC configuration box (`avcC`, ISO/IEC 14496-15 §5.3.3.1).
///
/// Profile, compatibility and level come from the first SPS; NAL lengths are 4 bytes. For the
/// High profiles (100, 110, 122, 144) the chroma format and bit depth extension follows, as ffmpeg writes it.
package struct AVCConfigurationBox: Sendable, Equatable {
    /// The decoder configuration record.
    package var configuration: AVCDecoderConfiguration

    /// Creates the box.
    ///
    /// - Parameter configuration: The parameter sets and format.
    package init(configuration: AVCDecoderConfiguration) {
        self.configuration = configuration
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        let c = configuration
        writer.box("avcC") { w in
            w.putUInt8(1)  // configurationVersion
            w.putUInt8(c.profileIndication)
            w.putUInt8(c.profileCompatibility)
            w.putUInt8(c.levelIndication)
            w.putUInt8(0xFC | 3)  // reserved bits, lengthSizeMinusOne = 3
            w.putUInt8(0xE0 | UInt8(truncatingIfNeeded: c.sequenceParameterSets.count))
            for sps in c.sequenceParameterSets {
                w.putUInt16(UInt16(truncatingIfNeeded: sps.count))
                w.putBytes(sps)
            }
            w.putUInt8(UInt8(truncatingIfNeeded: c.pictureParameterSets.count))
            for pps in c.pictureParameterSets {
                w.putUInt16(UInt16(truncatingIfNeeded: pps.count))
                w.putBytes(pps)
            }
            if c.hasHighProfileExtension {
                w.putUInt8(0xFC | (c.chromaFormat & 0x03))
                w.putUInt8(0xF8 | ((c.bitDepthLuma &- 8) & 0x07))
                w.putUInt8(0xF8 | ((c.bitDepthChroma &- 8) & 0x07))
                w.putUInt8(0)  // numOfSequenceParameterSetExt
            }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        guard try r.readUInt8() == 1 else { throw r.error(.malformed, "configurationVersion is not 1") }
        try r.skip(4)  // profile, compatibility, level, lengthSizeMinusOne
        let spsCount = try r.readUInt8() & 0x1F
        var sps: [[UInt8]] = []
        for _ in 0..<spsCount { sps.append(try r.readBytes(Int(try r.readUInt16()))) }
        let ppsCount = try r.readUInt8()
        var pps: [[UInt8]] = []
        for _ in 0..<ppsCount { pps.append(try r.readBytes(Int(try r.readUInt16()))) }
        configuration = AVCDecoderConfiguration(sequenceParameterSets: sps, pictureParameterSets: pps)
        if configuration.hasHighProfileExtension, r.remaining >= 3 {
            configuration.chromaFormat = try r.readUInt8() & 0x03
            configuration.bitDepthLuma = (try r.readUInt8() & 0x07) + 8
            configuration.bitDepthChroma = (try r.readUInt8() & 0x07) + 8
        }
    }
}

/// The colour information box (`colr`, ISO/IEC 14496-12 §12.1.5).
///
/// MP4 gets `nclx` (three 16-bit codes and a full-range flag); QuickTime gets `nclc` (the codes only).
package struct ColourInformationBox: Sendable, Equatable {
    /// `nclx`, `nclc`, or another colour type when read from a file.
    package var colourType: FourCC
    /// The colour codes; `nil` for ICC profile colour types.
    package var colour: ColourDescription?

    /// Creates a colour box for the given tags.
    ///
    /// - Parameters:
    ///   - colour: The colour tags.
    ///   - isQuickTime: Whether to write `nclc` rather than `nclx`.
    package init(colour: ColourDescription, isQuickTime: Bool) {
        colourType = isQuickTime ? "nclc" : "nclx"
        self.colour = colour
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.box("colr") { w in
            w.putFourCC(colourType)
            guard let colour else { return }
            w.putUInt16(colour.colourPrimaries)
            w.putUInt16(colour.transferCharacteristics)
            w.putUInt16(colour.matrixCoefficients)
            if colourType == "nclx" { w.putUInt8(colour.fullRange ? 0x80 : 0) }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        colourType = try r.readFourCC()
        guard colourType == "nclx" || colourType == "nclc" else { return }
        let primaries = try r.readUInt16()
        let transfer = try r.readUInt16()
        let matrix = try r.readUInt16()
        let fullRange = colourType == "nclx" ? try r.readUInt8() & 0x80 != 0 : false
        colour = ColourDescription(primaries, transfer, matrix, fullRange: fullRange)
    }
}

/// The pixel aspect ratio box (`pasp`, ISO/IEC 14496-12 §12.1.4).
package struct PixelAspectRatioBox: Sendable, Equatable {
    /// The pixel shape.
    package var ratio: PixelAspectRatio

    /// Creates the box.
    ///
    /// - Parameter ratio: The pixel shape.
    package init(_ ratio: PixelAspectRatio) {
        self.ratio = ratio
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.box("pasp") { w in
            w.putUInt32(ratio.hSpacing)
            w.putUInt32(ratio.vSpacing)
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        ratio = PixelAspectRatio(hSpacing: try r.readUInt32(), vSpacing: try r.readUInt32())
    }
}

/// How a picture's lines are scanned, as QuickTime's `fiel` box states it.
package struct FieldHandling: Sendable, Equatable {
    /// 1 for progressive frames, 2 for two interlaced fields.
    package var fieldCount: UInt8
    /// For two fields, their order (QuickTime's codes 1, 6, 9 or 14); 0 for progressive frames.
    package var fieldOrdering: UInt8

    /// Progressive frames: one field, no ordering.
    package static let progressive = FieldHandling(fieldCount: 1, fieldOrdering: 0)

    package init(fieldCount: UInt8, fieldOrdering: UInt8) {
        self.fieldCount = fieldCount
        self.fieldOrdering = fieldOrdering
    }
}

/// The field handling box (`fiel`, QuickTime File Format, "Video sample description extensions").
package struct FieldHandlingBox: Sendable, Equatable {
    /// The field order.
    package var fields: FieldHandling

    /// Creates the box.
    ///
    /// - Parameter fields: The field order.
    package init(_ fields: FieldHandling) {
        self.fields = fields
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.box("fiel") { w in
            w.putUInt8(fields.fieldCount)
            w.putUInt8(fields.fieldOrdering)
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        fields = FieldHandling(fieldCount: try r.readUInt8(), fieldOrdering: try r.readUInt8())
    }
}
