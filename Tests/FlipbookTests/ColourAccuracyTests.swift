import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// Flat colour patches encoded losslessly come back from ffmpeg, which decodes by the movie's tags,
/// within 2 code values per channel of the source, for every colour standard and range.
@Suite struct ColourAccuracyTests {
    /// Primaries, secondaries, greys and skin tones.
    static let patches: [[UInt8]] = [
        [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0],
        [0, 255, 255], [255, 0, 255], [0, 0, 0], [255, 255, 255],
        [64, 64, 64], [128, 128, 128], [192, 192, 192], [255, 205, 148],
        [224, 172, 105], [198, 134, 66], [141, 85, 36], [200, 100, 50],
    ]
    static let patchSide = 16

    /// A 64x64 frame of sixteen 16x16 patches (aligned to the 2x2 chroma blocks).
    static func patchFrame(format: PixelFormat) throws -> Frame {
        let side = 4 * patchSide
        var pixels: [UInt8] = []
        for y in 0..<side {
            for x in 0..<side {
                let rgb = patches[(y / patchSide) * 4 + x / patchSide]
                switch format {
                case .rgb: pixels += rgb
                case .rgba: pixels += rgb + [255]
                case .bgra: pixels += [rgb[2], rgb[1], rgb[0], 255]
                }
            }
        }
        return try Frame(width: side, height: side, format: format, pixels: pixels)
    }

    @Test(arguments: [
        (ColourStandard.bt709, ColourRange.limited, "bt709", "tv"),
        (.bt601, .limited, "smpte170m", "tv"),
        (.bt709, .full, "bt709", "pc"),
        (.bt601, .full, "smpte170m", "pc"),
    ])
    func flatPatchesComeBackWithinTwoLevels(
        standard: ColourStandard, range: ColourRange, tag: String, rangeTag: String
    ) async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("patches.mp4")
        var settings = VideoSettings(width: 64, height: 64, preset: .ultrafast)
        settings.colourStandard = standard
        settings.colourRange = range
        settings.lossless = true
        let writer = try MovieWriter(url: url, settings: settings)
        for format in PixelFormat.allCases { try await writer.append(Self.patchFrame(format: format)) }
        _ = try await writer.finish()

        let stream = try Judge.stream(of: url.path)
        #expect(stream.colorSpace == tag && stream.colorPrimaries == tag && stream.colorTransfer == tag)
        #expect(stream.colorRange == rangeTag)
        let decoded = try Judge.decodedRGB(of: url.path)
        #expect(decoded.frames.count == 3)
        for (frameIndex, frame) in decoded.frames.enumerated() {
            var worst = 0
            // Patch interiors: ffmpeg's bicubic chroma upsampling reaches 4 pixels across patch edges.
            for y in 0..<64 where (4..<Self.patchSide - 4).contains(y % Self.patchSide) {
                for x in 0..<64 where (4..<Self.patchSide - 4).contains(x % Self.patchSide) {
                    let expected = Self.patches[(y / Self.patchSide) * 4 + x / Self.patchSide]
                    for channel in 0..<3 {
                        let error = abs(Int(frame[(y * 64 + x) * 3 + channel]) - Int(expected[channel]))
                        worst = max(worst, error)
                    }
                }
            }
            #expect(worst <= 2, "\(standard) \(range) frame \(frameIndex): worst error \(worst) levels")
        }
    }
}
