import MediaModel

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
    /// - Throws: ``MediaReadingError`` when the bytes are not a whole sequence header OBU.
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
