import MediaModel

/// The H.264 decoder configuration record (ISO/IEC 14496-15 §5.3.3), written as the `avcC` box.
///
/// Profile, profile compatibility and level are not stored: they are bytes 1, 2 and 3 of the
/// first sequence parameter set. NAL unit lengths in the samples are 4 bytes
/// (`lengthSizeMinusOne` = 3).
package struct AVCDecoderConfiguration: Sendable, Equatable {
    /// Sequence parameter set NAL units, without start code or length prefix; at least one, at most 31.
    package var sequenceParameterSets: [[UInt8]]
    /// Picture parameter set NAL units, without start code or length prefix; at most 255.
    package var pictureParameterSets: [[UInt8]]
    /// `chroma_format_idc`: 1 for 4:2:0. Written only for the High profiles.
    package var chromaFormat: UInt8
    /// Luma bit depth, 8 through 14. Written only for the High profiles.
    package var bitDepthLuma: UInt8
    /// Chroma bit depth, 8 through 14. Written only for the High profiles.
    package var bitDepthChroma: UInt8

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - sequenceParameterSets: SPS NAL units; the first one gives profile and level.
    ///   - pictureParameterSets: PPS NAL units.
    ///   - chromaFormat: `chroma_format_idc`, 1 (4:2:0) by default.
    ///   - bitDepthLuma: Luma bit depth, 8 by default.
    ///   - bitDepthChroma: Chroma bit depth, 8 by default.
    package init(
        sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]], chromaFormat: UInt8 = 1,
        bitDepthLuma: UInt8 = 8, bitDepthChroma: UInt8 = 8
    ) {
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
        self.chromaFormat = chromaFormat
        self.bitDepthLuma = bitDepthLuma
        self.bitDepthChroma = bitDepthChroma
    }

    /// `profile_idc`, byte 1 of the first SPS (0 if there is none).
    package var profileIndication: UInt8 { parameter(at: 1) }
    /// The constraint flags byte, byte 2 of the first SPS.
    package var profileCompatibility: UInt8 { parameter(at: 2) }
    /// `level_idc`, byte 3 of the first SPS.
    package var levelIndication: UInt8 { parameter(at: 3) }

    /// Whether the record carries the High-profile extension (chroma format and bit depths).
    package var hasHighProfileExtension: Bool {
        [100, 110, 122, 144].contains(profileIndication)
    }

    private func parameter(at index: Int) -> UInt8 {
        guard let sps = sequenceParameterSets.first, sps.count > index else { return 0 }
        return sps[index]
    }

    func validate() throws {
        guard let first = sequenceParameterSets.first, first.count >= 4 else {
            throw MuxingError.invalidTrack("avcC needs a sequence parameter set of at least 4 bytes")
        }
        guard sequenceParameterSets.count <= 31, pictureParameterSets.count <= 255 else {
            throw MuxingError.invalidTrack(
                "avcC holds at most 31 SPS and 255 PPS, got \(sequenceParameterSets.count) and \(pictureParameterSets.count)"
            )
        }
        for nal in sequenceParameterSets + pictureParameterSets where nal.count > Int(UInt16.max) {
            throw MuxingError.invalidTrack("a parameter set of \(nal.count) bytes does not fit avcC's 16-bit length")
        }
        guard chromaFormat <= 3, (8...14).contains(bitDepthLuma), (8...14).contains(bitDepthChroma) else {
            throw MuxingError.invalidTrack(
                "chroma format \(chromaFormat), bit depths \(bitDepthLuma)/\(bitDepthChroma) are out of range")
        }
    }
}
