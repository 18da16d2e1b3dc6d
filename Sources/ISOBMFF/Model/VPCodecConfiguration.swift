import MediaModel

/// The VP codec configuration record (VP Codec ISO Media File Format Binding §2.3), version 1, written
/// as the `vpcC` full box of a `vp09` sample entry: the stream's profile, level, bit depth, chroma
/// subsampling and colour, and no codec initialization data (VP9 has none).
///
/// The colour fields repeat the `colr` box's and the full-range flag the stream's own `color_range`,
/// so a player can decide before it decodes a frame.
package struct VPCodecConfiguration: Sendable, Equatable {
    /// How the chroma planes are sampled and sited, as the binding numbers them.
    package enum ChromaSubsampling: UInt8, Sendable {
        /// 4:2:0 with chroma between the luma rows, beside the left luma column.
        case yuv420Vertical = 0
        /// 4:2:0 with chroma on the top-left luma sample.
        case yuv420ColocatedWithLuma = 1
        case yuv422 = 2
        case yuv444 = 3
    }

    /// VP9's profile: 0 (8-bit 4:2:0), 1 (8-bit 4:2:2 or 4:4:4), 2 (10- or 12-bit 4:2:0), 3.
    package var profile: UInt8
    /// Ten times the VP9 level (level 3.1 is 31; see
    /// ``level(width:height:frameRateNumerator:frameRateDenominator:)``).
    package var level: UInt8
    /// Bits a sample: 8, 10 or 12.
    package var bitDepth: UInt8
    package var chromaSubsampling: ChromaSubsampling
    /// The colour tags; its full-range flag is `videoFullRangeFlag`.
    package var colour: ColourDescription

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - profile: The VP9 profile, 0 to 3.
    ///   - level: Ten times the level, such as 41 for level 4.1.
    ///   - bitDepth: 8, 10 or 12.
    ///   - chromaSubsampling: The chroma sampling and siting.
    ///   - colour: The colour tags and range.
    package init(
        profile: UInt8, level: UInt8, bitDepth: UInt8, chromaSubsampling: ChromaSubsampling, colour: ColourDescription
    ) {
        self.profile = profile
        self.level = level
        self.bitDepth = bitDepth
        self.chromaSubsampling = chromaSubsampling
        self.colour = colour
    }

    /// Writes the `vpcC` box.
    package func write(to writer: inout ByteWriter) {
        writer.box("vpcC") { w in
            w.putUInt32(1 << 24)  // version 1, flags 0
            w.putUInt8(profile)
            w.putUInt8(level)
            w.putUInt8(bitDepth << 4 | chromaSubsampling.rawValue << 1 | (colour.fullRange ? 1 : 0))
            w.putUInt8(UInt8(truncatingIfNeeded: colour.colourPrimaries))
            w.putUInt8(UInt8(truncatingIfNeeded: colour.transferCharacteristics))
            w.putUInt8(UInt8(truncatingIfNeeded: colour.matrixCoefficients))
            w.putUInt16(0)  // codecInitializationDataSize
        }
    }

    /// The record as a `vpcC` box's payload.
    package var codecConfiguration: CodecConfiguration {
        CodecConfiguration(boxType: "vpcC") { write(to: &$0) }
    }

    /// The lowest VP9 level (ten times it) whose luma sample rate, picture size and longest side hold a
    /// `width` by `height` stream at the frame rate (the level table of the VP9 bitstream
    /// specification, Annex A); 62 for anything larger.
    package static func level(width: Int, height: Int, frameRateNumerator: Int, frameRateDenominator: Int) -> UInt8 {
        let pictureSize = Int64(width) * Int64(height)
        let sampleRate = pictureSize * Int64(frameRateNumerator) / Int64(max(1, frameRateDenominator))
        let side = Int64(max(width, height))
        let fitting = levels.first { level in
            sampleRate <= level.sampleRate && pictureSize <= level.pictureSize && side <= level.side
        }
        return fitting?.level ?? 62
    }

    /// VP9's levels: ten times the level, the most luma samples a second and a picture, and the longest side.
    private static let levels: [(level: UInt8, sampleRate: Int64, pictureSize: Int64, side: Int64)] = [
        (10, 829_440, 36_864, 512), (11, 2_764_800, 73_728, 768), (20, 4_608_000, 122_880, 960),
        (21, 9_216_000, 245_760, 1344), (30, 20_736_000, 552_960, 2048), (31, 36_864_000, 983_040, 2752),
        (40, 83_558_400, 2_228_224, 4160), (41, 160_432_128, 2_228_224, 4160), (50, 311_951_360, 8_912_896, 8384),
        (51, 588_251_136, 8_912_896, 8384), (52, 1_176_502_272, 8_912_896, 8384),
        (60, 1_176_502_272, 35_651_584, 16832), (61, 2_353_004_544, 35_651_584, 16832),
        (62, 4_706_009_088, 35_651_584, 16832),
    ]
}
