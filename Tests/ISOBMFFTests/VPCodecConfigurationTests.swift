import MediaModel
import Testing

@testable import ISOBMFF

/// The `vpcC` box of the VP9 binding, byte for byte as ffmpeg's MP4 muxer writes it, and the level
/// each picture size and rate is marked with.
@Suite struct VPCodecConfigurationTests {
    /// What ffmpeg writes for 320x240 8-bit 4:2:0 at 30 fps, BT.709 limited range: level 2.0.
    static let ffmpegs320x240 = VPCodecConfiguration(
        profile: 0, level: 20, bitDepth: 8, chromaSubsampling: .yuv420ColocatedWithLuma, colour: .bt709)

    @Test func theBoxIsVersionOneWithTheFieldsPackedAsFFmpegWritesThem() {
        let box = written { Self.ffmpegs320x240.write(to: &$0) }
        #expect(
            box == [0, 0, 0, 20] + Array("vpcC".utf8) + [1, 0, 0, 0, 0, 20, 0x82, 1, 1, 1, 0, 0],
            "\(box.map { String($0, radix: 16) })")
        #expect(Self.ffmpegs320x240.codecConfiguration.payload == Array(box.dropFirst(8)))
    }

    @Test func tenBitFullRangeIsProfileTwoWithItsDepthAndFlag() {
        let record = VPCodecConfiguration(
            profile: 2, level: 41, bitDepth: 10, chromaSubsampling: .yuv420ColocatedWithLuma,
            colour: ColourDescription(1, 1, 1, fullRange: true))
        let payload = record.codecConfiguration.payload
        #expect(Array(payload[4...8]) == [2, 41, 0xA3, 1, 1])
    }

    @Test(arguments: [
        (320, 240, 30, 1, 20), (640, 360, 30, 1, 21), (1280, 720, 30, 1, 31), (1280, 720, 60, 1, 40),
        (1920, 1080, 30, 1, 40), (1920, 1080, 60, 1, 41), (3840, 2160, 30, 1, 50), (3840, 2160, 60, 1, 51),
        (30000, 30000, 1, 1, 62), (176, 144, 15, 1, 10), (600, 50, 24000, 1001, 11),
    ])
    func theLevelIsTheLowestThatHoldsTheSizeAndRate(
        width: Int, height: Int, numerator: Int, denominator: Int, level: Int
    ) {
        #expect(
            VPCodecConfiguration.level(
                width: width, height: height, frameRateNumerator: numerator, frameRateDenominator: denominator)
                == UInt8(level))
    }
}
