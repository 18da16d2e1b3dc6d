import Testing

@testable import Flipbook

/// A translucent frame of the movie's size is composited over the background inside the conversion
/// pass; the result must be what compositing into RGB first and converting that gives, bit for bit.
@Suite struct CompositingConversionTests {
    @Test(arguments: [PixelFormat.rgba, .bgra], [RGBColour.black, .white, RGBColour(red: 18, green: 200, blue: 77)])
    func oneCompositingPassEqualsCompositingThenConverting(format: PixelFormat, background: RGBColour) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for (width, height) in [(2, 2), (34, 6), (66, 4)] {
            let bytesPerRow = width * 4 + 8  // padded rows
            var pixels = (0..<(bytesPerRow * height)).map { _ in next() }
            // Every kind of alpha: opaque, clear, and in between.
            for index in stride(from: 3, to: pixels.count, by: 4) where index % 12 == 3 { pixels[index] = 255 }
            for index in stride(from: 3, to: pixels.count, by: 4) where index % 20 == 7 { pixels[index] = 0 }
            let frame = try Frame(
                width: width, height: height, format: format, bytesPerRow: bytesPerRow, pixels: pixels)
            for matrix in [ColourMatrix.bt709, ColourMatrix(.bt601, .full)] {
                let converter = RGBToYUVConverter(matrix: matrix)
                var onePass = YUVPicture(width: width, height: height)
                converter.convert(frame, over: background, into: &onePass)

                let rgb = frame.compositedRGB(
                    region: PixelRect(x: 0, y: 0, width: width, height: height), over: background)
                let composited = try Frame(width: width, height: height, format: .rgb, pixels: rgb)
                var twoPasses = YUVPicture(width: width, height: height)
                converter.convert(composited, into: &twoPasses)

                #expect(onePass.luma == twoPasses.luma, "\(format) \(width)x\(height) over \(background)")
                #expect(onePass.cb == twoPasses.cb)
                #expect(onePass.cr == twoPasses.cr)
            }
        }
    }

    @Test func aTranslucentFrameOfTheMoviesSizeIsCompositedByThePreparer() throws {
        var settings = VideoSettings(width: 2, height: 2)
        settings.background = .white
        let preparer = FramePreparer(settings: settings, matrix: .bt709)
        // Clear red over white is white; black at alpha 128 over white is grey 127 (255 * 127 / 255),
        // luma 16 + 219 * 127 / 255 = 125.
        let frame = try Frame(
            width: 2, height: 2, format: .rgba, pixels: [255, 0, 0, 0, 0, 0, 0, 128, 255, 0, 0, 0, 0, 0, 0, 128])
        let picture = try preparer.prepare(frame)
        #expect(picture.luma == [235, 125, 235, 125])
    }
}
