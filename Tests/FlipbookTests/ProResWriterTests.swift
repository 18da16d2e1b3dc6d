import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// `VideoSettings.codec = .prores` through the library: RGBA frames in memory keep their alpha when
/// `keepsAlpha` is set, the profile follows the settings, the container is checked, and the picture
/// conversion to 10 bits is exact.
@Suite struct ProResWriterTests {
    /// A 96x64 RGBA frame: a colour ramp whose alpha is `alpha(x)`.
    static func frame(_ alpha: (Int) -> UInt8) throws -> Frame {
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<96 { pixels += [UInt8(x * 2), UInt8(y * 3), 128, alpha(x)] }
        }
        return try Frame(width: 96, height: 64, format: .rgba, pixels: pixels)
    }

    @Test func rgbaFramesKeepTheirAlphaInProRes4444() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("alpha.mov")
        var settings = VideoSettings(width: 96, height: 64, frameRate: FrameRate(25), codec: .prores)
        settings.keepsAlpha = true
        #expect(settings.bitDepth == 10, "ProRes is 10-bit by default")
        let writer = try MovieWriter(url: url, settings: settings)
        for step in 0..<3 {
            try await writer.append(try Self.frame { x in UInt8(min(255, x * (step + 1) * 2)) })
        }
        let movie = try await writer.finish()
        #expect(movie.codec == "prores" && movie.frames == 3)
        let stream = try Judge.stream(of: url.path)
        #expect(stream.profile == "4444" && stream.pixelFormat.hasPrefix("yuva444p"))
        let alpha = try Judge.decodedAlpha(of: url.path)
        try #require(alpha.count == 3 && alpha.allSatisfy { $0.count == 96 * 64 })
        for step in 0..<3 {
            for x in 0..<96 {
                let expected = min(255, x * (step + 1) * 2)
                let got = Int(alpha[step][32 * 96 + x])
                #expect(abs(got - expected) <= 1, "frame \(step), column \(x): \(got) for \(expected)")
            }
        }
    }

    @Test func theProfileAndContainerAreChecked() throws {
        var settings = VideoSettings(width: 96, height: 64, codec: .prores)
        settings.proResProfile = .proRes422LT
        try settings.validate()
        #expect(settings.pictureFormat == PictureFormat(chroma: .yuv422, bitDepth: 10))
        settings.keepsAlpha = true
        #expect(throws: FlipbookError.self) { try settings.validate() }
        settings.proResProfile = .proRes4444XQ
        try settings.validate()
        #expect(settings.pictureFormat == PictureFormat(chroma: .yuv444, bitDepth: 10, hasAlpha: true))
        settings.codec = .hevc
        #expect(throws: FlipbookError.self) { try settings.validate() }

        // Settings made for another codec and then given ProRes are valid: ProRes has no CRF and one depth.
        var later = VideoSettings(width: 96, height: 64, crf: 18)
        later.codec = .prores
        try later.validate()
        #expect(later.pictureFormat.bitDepth == 10)

        let dir = try TemporaryDirectory()
        let mp4 = dir.url.appendingPathComponent("prores.mp4")
        #expect {
            try MovieWriter(url: mp4, settings: VideoSettings(width: 96, height: 64, codec: .prores))
        } throws: { error in
            (error as? FlipbookError)?.code == .unsupportedOutput
                && (error as? FlipbookError)?.message.contains(".mov, .qt or .mkv") == true
        }
        #expect(dir.entries().isEmpty)
    }

    /// The 10-bit conversion of 8-bit pixels is 4 times the 8-bit formula's exact value, rounded once:
    /// BT.709 limited range white is 940, black 64, and a grey's chroma 512; alpha 255 is 1023.
    @Test func eightBitPixelsConvertExactlyToTenBits() throws {
        var picture = YUVPicture(
            width: 4, height: 2, format: PictureFormat(chroma: .yuv422, bitDepth: 10, hasAlpha: true))
        let pixels: [UInt8] = [
            255, 255, 255, 255, 0, 0, 0, 0, 128, 128, 128, 128, 255, 0, 0, 255,
            255, 255, 255, 255, 0, 0, 0, 0, 128, 128, 128, 128, 255, 0, 0, 255,
        ]
        let frame = try Frame(width: 4, height: 2, format: .rgba, pixels: pixels)
        PixelKernels.rgbToYUV(frame, coefficients: ColourMatrix.bt709.fixedPoint, into: &picture)
        let deep = try #require(picture.deep)
        #expect(
            Array(deep.luma[0..<3]) == [940, 64, 4 * 16 + Int(((128.0 * 219 / 255) * 4).rounded())].map(UInt16.init))
        #expect(deep.alpha.map { Array($0[0..<4]) } == [1023, 0, 514, 1023])
        // Red's luma: 4 * (16 + 0.2126 * 219) = 250.25, so 250.
        #expect(deep.luma[3] == 250)
        // The first chroma sample is the mean of white and black: grey, 512.
        #expect(deep.cb[0] == 512 && deep.cr[0] == 512)
        #expect(picture.eightBitPlanes == nil, "no 8-bit planes")
    }
}
