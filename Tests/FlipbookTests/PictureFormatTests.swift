import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// Pictures of any chroma format, with or without alpha: the plane sizes each format gives, the
/// plain conversion loop against the vectorised 4:2:0 one (exactly) and against ffmpeg's 4:4:4 and
/// 4:2:2 (within a code), the alpha plane, and encoders refusing a format they do not take.
@Suite struct PictureFormatTests {
    /// Noise RGBA with every alpha, padded rows.
    static func noise(width: Int, height: Int, format: PixelFormat = .rgba, seed: UInt64 = 7) throws -> Frame {
        var state = seed
        let rowBytes = width * format.bytesPerPixel + 3
        let pixels = (0..<(rowBytes * height)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        return try Frame(width: width, height: height, format: format, bytesPerRow: rowBytes, pixels: pixels)
    }

    @Test func eachFormatGivesItsPlaneSizes() {
        let sizes: [(ChromaFormat, Int)] = [(.yuv420, 12 * 8 / 4), (.yuv422, 12 * 8 / 2), (.yuv444, 12 * 8)]
        for (chroma, count) in sizes {
            let picture = YUVPicture(width: 12, height: 8, format: PictureFormat(chroma: chroma, hasAlpha: true))
            #expect(picture.luma.count == 96 && picture.cb.count == count && picture.cr.count == count, "\(chroma)")
            #expect(picture.alpha?.count == 96 && picture.alpha?.allSatisfy { $0 == 255 } == true)
        }
        #expect(YUVPicture(width: 12, height: 8).alpha == nil)
        #expect(
            ChromaFormat.yuv422.fitsWhole(width: 6, height: 5) && !ChromaFormat.yuv422.fitsWhole(width: 5, height: 6))
        #expect(ChromaFormat.yuv444.fitsWhole(width: 5, height: 3))
    }

    /// The plain loop at 4:2:0 (asked for through an alpha plane, which only it writes) makes the
    /// vectorised loop's planes exactly, and the frame's alpha.
    @Test(arguments: [PixelFormat.rgb, .rgba, .bgra])
    func thePlainLoopAt420IsTheFastLoopExactly(format: PixelFormat) throws {
        let frame = try Self.noise(width: 70, height: 6, format: format)
        for matrix in [ColourMatrix.bt709, ColourMatrix(.bt601, .full)] {
            var fast = YUVPicture(width: 70, height: 6)
            var plain = YUVPicture(width: 70, height: 6, format: PictureFormat(chroma: .yuv420, hasAlpha: true))
            let converter = RGBToYUVConverter(matrix: matrix)
            let fastOpaque = converter.convert(frame, into: &fast)
            let plainOpaque = converter.convert(frame, into: &plain)
            #expect(fast.luma == plain.luma && fast.cb == plain.cb && fast.cr == plain.cr, "\(format)")
            #expect(fastOpaque == plainOpaque)
            let alphas = (0..<6).flatMap { row in
                (0..<70).map { column in
                    format == .rgb ? 255 : frame.pixels[row * frame.bytesPerRow + column * 4 + 3]
                }
            }
            #expect(plain.alpha == alphas)
        }
    }

    /// ffmpeg's conversion of the same pixels to BT.709 limited range 4:4:4, planes Y, Cb, Cr.
    static func ffmpeg444(_ rgb: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        [UInt8](
            try ExternalTool.runForData(
                "ffmpeg",
                [
                    "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", "-i", "-",
                    "-vf", "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int",
                    "-pix_fmt", "yuv444p", "-f", "rawvideo", "-",
                ], stdin: Data(rgb)))
    }

    @Test func fourFourFourAndFourTwoTwoAreFFmpegsWithinACode() throws {
        let (width, height) = (64, 16)
        let frame = try Self.noise(width: width, height: height, format: .rgb)
        let rgb = (0..<height).flatMap { frame.pixels[($0 * frame.bytesPerRow)..<($0 * frame.bytesPerRow + width * 3)] }
        let judged = try Self.ffmpeg444(rgb, width: width, height: height)
        try #require(judged.count == 3 * width * height)
        let plane = width * height
        func worst(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Int {
            zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 999
        }
        var full = YUVPicture(width: width, height: height, format: PictureFormat(chroma: .yuv444))
        RGBToYUVConverter(matrix: .bt709).convert(frame, into: &full)
        #expect(worst(full.luma, judged[0..<plane]) <= 1)
        #expect(worst(full.cb, judged[plane..<2 * plane]) <= 1)
        #expect(worst(full.cr, judged[2 * plane..<3 * plane]) <= 1)
        // 4:2:2: each chroma sample the mean of two side by side, against the mean of ffmpeg's two.
        var half = YUVPicture(width: width, height: height, format: PictureFormat(chroma: .yuv422))
        RGBToYUVConverter(matrix: .bt709).convert(frame, into: &half)
        #expect(half.luma == full.luma)
        let pairs = stride(from: 0, to: plane, by: 2).map { index in
            UInt8((Int(judged[plane + index]) + Int(judged[plane + index + 1]) + 1) / 2)
        }
        #expect(half.cb.count == plane / 2)
        #expect(worst(half.cb, pairs[...]) <= 1)
    }

    /// 16-bit RGB to 10-bit planes: the block loop at 4:2:0 is the 4:2:0 loop exactly, and at 4:4:4
    /// every sample is BT.709's formula within a code. (ffmpeg's swscale is no judge here: its
    /// rgb48 to yuv444p10 path lands up to 4 codes from these samples, which are within one of the formula.)
    @Test func deepPicturesOfEveryChromaFormat() throws {
        let (width, height) = (32, 8)
        var state: UInt64 = 3
        let samples = (0..<(width * height * 3)).map { _ -> UInt16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt16(truncatingIfNeeded: state >> 40)
        }
        let image = DeepImage(width: width, height: height, samples: samples)
        let coefficients = ColourMatrix.bt709.fixedPoint
        let fast = PixelKernels.rgb16ToYUV420p10(image, coefficients: coefficients)
        let blocks = PixelKernels.rgb16ToYUVp10(image, chroma: .yuv420, coefficients: coefficients)
        #expect(fast.luma == blocks.luma && fast.cb == blocks.cb && fast.cr == blocks.cr)
        let full = PixelKernels.rgb16ToYUVp10(image, chroma: .yuv444, coefficients: coefficients)
        #expect(full.luma == fast.luma && full.cb.count == width * height)
        let half = PixelKernels.rgb16ToYUVp10(image, chroma: .yuv422, coefficients: coefficients)
        #expect(half.cb.count == width * height / 2)
        // BT.709 limited range at 10 bits from its definition (ITU-R BT.709 §3, BT.2100 Table 9 for
        // the 10-bit ranges), each sample read as v / 65535.
        let (kr, kb) = (0.2126, 0.0722)
        var worst = (luma: 0, chroma: 0)
        for index in 0..<(width * height) {
            let (r, g, b) = (
                Double(samples[3 * index]) / 65535, Double(samples[3 * index + 1]) / 65535,
                Double(samples[3 * index + 2]) / 65535
            )
            let y = kr * r + (1 - kr - kb) * g + kb * b
            let expected = (
                64 + 876 * y, 512 + 896 * (b - y) / (2 * (1 - kb)), 512 + 896 * (r - y) / (2 * (1 - kr))
            )
            worst.luma = max(worst.luma, abs(Int(full.luma[index]) - Int(expected.0.rounded())))
            worst.chroma = max(
                worst.chroma, abs(Int(full.cb[index]) - Int(expected.1.rounded())),
                abs(Int(full.cr[index]) - Int(expected.2.rounded())))
        }
        #expect(worst.luma <= 1 && worst.chroma <= 1, "\(worst) codes from BT.709's formula")
    }

    /// Without an alpha plane a translucent frame is flattened over the background, as at 4:2:0.
    @Test func aTranslucentFrameIsFlattenedForAFormatWithoutAlpha() throws {
        let frame = try Self.noise(width: 8, height: 4)
        let background = RGBColour(red: 0, green: 0, blue: 255)
        var fast = YUVPicture(width: 8, height: 4)
        var full = YUVPicture(width: 8, height: 4, format: PictureFormat(chroma: .yuv444))
        let converter = RGBToYUVConverter(matrix: .bt709)
        converter.convert(frame, over: background, into: &fast)
        converter.convert(frame, over: background, into: &full)
        #expect(fast.luma == full.luma, "the same luma after the same compositing")
    }

    @Test func anEncoderRefusesAPictureOfAnotherFormat() throws {
        for codec in VideoCodec.allCases {
            let settings = VideoSettings(width: 128, height: 96, codec: codec)
            let encoder = try VideoEncoders.make(settings: settings, colour: .bt709)
            // ProRes takes 10-bit 4:2:2 (HQ, its default); the others 8-bit 4:2:0.
            // GIF, WebP and FFV1 (at 8 bits) take packed RGBA, opaque unless alpha is kept.
            let takesRGBA = codec.isAnimatedImage || codec == .ffv1
            let takes = codec == .prores ? "10-bit 4:2:2" : takesRGBA ? "RGBA (opaque)" : "8-bit 4:2:0"
            #expect(encoder.pictureFormat.description == takes)
            let picture = YUVPicture(width: 128, height: 96, format: PictureFormat(chroma: .yuv444, hasAlpha: true))
            #expect {
                try encoder.encode(picture, presentationTime: 0)
            } throws: { error in
                (error as? FlipbookError)?.message
                    == "the \(codec.name) encoder takes \(takes) pictures, not 8-bit 4:4:4 with alpha"
            }
        }
    }
}
