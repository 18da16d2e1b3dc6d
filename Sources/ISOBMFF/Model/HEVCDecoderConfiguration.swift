import MediaModel

/// The HEVC decoder configuration record (ISO/IEC 14496-15 §8.3.3), written as the `hvcC` box.
///
/// Profile, tier, compatibility and constraint flags and level are copied from the first sequence
/// parameter set's `profile_tier_level`; NAL unit lengths in the samples are 4 bytes.
package struct HEVCDecoderConfiguration: Sendable, Equatable {
    /// Video parameter set NAL units, without length prefix.
    package var videoParameterSets: [[UInt8]]
    /// Sequence parameter set NAL units, without length prefix; the first gives profile and level.
    package var sequenceParameterSets: [[UInt8]]
    /// Picture parameter set NAL units, without length prefix.
    package var pictureParameterSets: [[UInt8]]
    /// `chroma_format_idc`: 1 for 4:2:0.
    package var chromaFormat: UInt8
    /// Luma and chroma bit depth: 8 or 10.
    package var bitDepth: UInt8

    /// Creates a configuration.
    package init(
        videoParameterSets: [[UInt8]], sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]],
        chromaFormat: UInt8 = 1, bitDepth: UInt8 = 8
    ) {
        self.videoParameterSets = videoParameterSets
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
        self.chromaFormat = chromaFormat
        self.bitDepth = bitDepth
    }

    /// The first SPS's payload with emulation prevention bytes removed, up to its `profile_tier_level`'s
    /// general part: the 2-byte NAL header, one byte of ids and sub-layer count, then 12 bytes.
    private var spsHead: [UInt8] {
        guard let sps = sequenceParameterSets.first else { return [] }
        var head: [UInt8] = []
        var zeros = 0
        for byte in sps where head.count < 15 {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            head.append(byte)
        }
        return head
    }

    /// `sps_max_sub_layers_minus1 + 1`.
    package var temporalLayers: UInt8 { spsHead.count > 2 ? (spsHead[2] >> 1 & 0x07) + 1 : 1 }
    /// `sps_temporal_id_nesting_flag`.
    package var temporalIdNested: Bool { spsHead.count > 2 && spsHead[2] & 1 == 1 }
    /// `general_profile_idc`: 1 Main, 2 Main 10.
    package var profile: UInt8 { spsHead.count > 3 ? spsHead[3] & 0x1F : 0 }
    /// `general_level_idc`: 30 times the level number.
    package var level: UInt8 { spsHead.count > 14 ? spsHead[14] : 0 }

    func validate() throws {
        guard spsHead.count == 15 else {
            throw MuxingError.invalidTrack("hvcC needs a sequence parameter set of at least 15 bytes")
        }
        guard !videoParameterSets.isEmpty, !pictureParameterSets.isEmpty,
            [videoParameterSets, sequenceParameterSets, pictureParameterSets].allSatisfy({ $0.count <= 0xFFFF })
        else {
            throw MuxingError.invalidTrack("hvcC needs at least one VPS, SPS and PPS")
        }
    }

    /// Writes the `hvcC` box.
    package func write(to writer: inout ByteWriter) {
        let head = spsHead
        writer.box("hvcC") { w in
            w.putUInt8(1)  // configurationVersion
            // general_profile_space, tier, profile_idc; compatibility flags (4 bytes); constraint
            // indicator flags (6 bytes); level_idc: 12 bytes as the SPS holds them.
            w.putBytes(Array(head[3..<15]))
            w.putUInt16(0xF000)  // reserved, min_spatial_segmentation_idc = 0
            w.putUInt8(0xFC)  // reserved, parallelismType = 0 (unknown)
            w.putUInt8(0xFC | chromaFormat)
            w.putUInt8(0xF8 | (bitDepth - 8))  // bitDepthLumaMinus8
            w.putUInt8(0xF8 | (bitDepth - 8))  // bitDepthChromaMinus8
            w.putUInt16(0)  // avgFrameRate: unspecified
            // constantFrameRate 0, numTemporalLayers, temporalIdNested, lengthSizeMinusOne = 3
            w.putUInt8((temporalLayers & 0x07) << 3 | (temporalIdNested ? 0x04 : 0) | 0x03)
            let arrays: [(UInt8, [[UInt8]])] = [
                (32, videoParameterSets), (33, sequenceParameterSets), (34, pictureParameterSets),
            ]
            w.putUInt8(UInt8(arrays.count))
            for (type, units) in arrays {
                w.putUInt8(0x80 | type)  // array_completeness = 1: no parameter sets in the samples
                w.putUInt16(UInt16(units.count))
                for unit in units {
                    w.putUInt16(UInt16(truncatingIfNeeded: unit.count))
                    w.putBytes(unit)
                }
            }
        }
    }
}
