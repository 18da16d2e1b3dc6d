/// The AV1 visual sample entry `av01` (AV1-ISOBMFF §2.2): picture size, the codec configuration
/// (`av1C`) holding the sequence header, colour (`colr`) and pixel shape (`pasp`).
///
/// The samples are temporal units without temporal delimiters; every sync sample starts with a key
/// frame and carries the sequence header again, as AV1-ISOBMFF requires.
package struct AV1SampleEntry: SampleEntry, Equatable {
    /// The picture width in pixels.
    package var width: Int
    /// The picture height in pixels.
    package var height: Int
    /// The sequence header and the fields `av1C` repeats from it.
    package var configuration: AV1CodecConfiguration
    /// The colour tags, written as `colr`.
    package var colour: ColourDescription
    /// The shape of a pixel, written as `pasp`.
    package var pixelAspectRatio: PixelAspectRatio
    /// The encoder's name, written in the compressorname field.
    package var compressorName: String

    /// Creates the sample entry.
    ///
    /// - Parameters:
    ///   - width: Picture width in pixels, 1 through 65535.
    ///   - height: Picture height in pixels, 1 through 65535.
    ///   - configuration: The sequence header, parsed.
    ///   - colour: The colour tags; BT.709 limited range by default.
    ///   - pixelAspectRatio: The pixel shape; square by default.
    ///   - compressorName: The encoder's name.
    package init(
        width: Int, height: Int, configuration: AV1CodecConfiguration, colour: ColourDescription = .bt709,
        pixelAspectRatio: PixelAspectRatio = .square, compressorName: String = "Flipbook AV1"
    ) {
        self.width = width
        self.height = height
        self.configuration = configuration
        self.colour = colour
        self.pixelAspectRatio = pixelAspectRatio
        self.compressorName = compressorName
    }

    package var media: MediaKind { .video(width: width, height: height) }

    package var compatibleBrand: FourCC? { "av01" }

    /// Writes `av01` with its `av1C`, `colr` and `pasp`.
    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box("av01") { w in
            w.putVisualSampleEntryFields(width: width, height: height, compressorName: compressorName)
            configuration.write(to: &w)
            ColourInformationBox(colour: colour, isQuickTime: isQuickTime).write(to: &w)
            PixelAspectRatioBox(pixelAspectRatio).write(to: &w)
        }
    }

    package func validate() throws {
        try validateVisualSampleEntry(width: width, height: height, pixelAspectRatio: pixelAspectRatio)
        let header = configuration.sequenceHeader
        guard header.maximumWidth >= width, header.maximumHeight >= height else {
            throw ISOBMFFError(
                .invalidTrack,
                "the AV1 sequence header allows at most \(header.maximumWidth)x\(header.maximumHeight), "
                    + "smaller than the track's \(width)x\(height)")
        }
    }
}

/// The AV1 codec configuration record (AV1-ISOBMFF §2.3), written as the `av1C` box: the sequence
/// header's profile, level, tier, bit depth and chroma format, then the sequence header OBU itself.
package struct AV1CodecConfiguration: Sendable, Equatable {
    /// The sequence header OBU as the encoder wrote it (with its size field), without a temporal delimiter.
    package var sequenceHeaderOBU: [UInt8]
    /// The fields parsed from it.
    package var sequenceHeader: AV1SequenceHeader

    /// Creates a configuration from a sequence header OBU.
    ///
    /// - Parameter sequenceHeaderOBU: One sequence header OBU, header and all.
    /// - Throws: ``ISOBMFFError`` when the bytes are not a whole sequence header OBU.
    package init(sequenceHeaderOBU: [UInt8]) throws {
        self.sequenceHeaderOBU = sequenceHeaderOBU
        sequenceHeader = try AV1SequenceHeader(obu: sequenceHeaderOBU)
    }

    /// Writes the `av1C` box.
    package func write(to writer: inout ByteWriter) {
        let header = sequenceHeader
        func bit(_ flag: Bool, _ shift: UInt8) -> UInt8 { flag ? 1 << shift : 0 }
        writer.box("av1C") { w in
            w.putUInt8(0x81)  // marker = 1, version = 1
            w.putUInt8(header.profile << 5 | header.levelIndex & 0x1F)
            w.putUInt8(
                header.tier << 7 | bit(header.highBitDepth, 6) | bit(header.twelveBit, 5) | bit(header.monochrome, 4)
                    | bit(header.chromaSubsamplingX, 3) | bit(header.chromaSubsamplingY, 2)
                    | header.chromaSamplePosition & 0x03)
            w.putUInt8(0)  // reserved, initial_presentation_delay_present = 0, reserved
            w.putBytes(sequenceHeaderOBU)  // configOBUs
        }
    }
}
