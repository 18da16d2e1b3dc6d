import Testing

@testable import Flipbook

@Suite struct FitPlacementTests {
    @Test(arguments: [
        // Wider than the picture: full width, centred vertically.
        (1024, 200, 640, 360, PixelRect(x: 0, y: 117, width: 640, height: 125)),
        // Square in a wide picture: full height, pillarbox bands of 140 pixels.
        (400, 400, 640, 360, PixelRect(x: 140, y: 0, width: 360, height: 360)),
        // Same aspect, smaller: scaled up to fill.
        (320, 180, 640, 360, PixelRect(x: 0, y: 0, width: 640, height: 360)),
        // One pixel smaller on each side (a size rounded up to even): placed 1:1.
        (641, 361, 642, 362, PixelRect(x: 0, y: 0, width: 641, height: 361)),
        (640, 359, 640, 360, PixelRect(x: 0, y: 0, width: 640, height: 359)),
    ])
    func containLetterboxesOrPillarboxesCentred(
        sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, expected: PixelRect
    ) {
        let placement = FitPlacement(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height, fit: .contain)
        #expect(placement.destination == expected)
        #expect(placement.source == PixelRect(x: 0, y: 0, width: sourceWidth, height: sourceHeight))
    }

    @Test func coverCropsTheOverflowCentredAndFillsThePicture() {
        let wide = FitPlacement(sourceWidth: 1024, sourceHeight: 200, width: 640, height: 360, fit: .cover)
        // 640/360 of 200 rows is 355.6 columns, rounded to 356, centred in 1024.
        #expect(wide.source == PixelRect(x: 334, y: 0, width: 356, height: 200))
        #expect(wide.destination == PixelRect(x: 0, y: 0, width: 640, height: 360))
        let square = FitPlacement(sourceWidth: 400, sourceHeight: 400, width: 640, height: 360, fit: .cover)
        #expect(square.source == PixelRect(x: 0, y: 87, width: 400, height: 225))
    }

    @Test func stretchUsesTheWholeImageForTheWholePicture() {
        let placement = FitPlacement(sourceWidth: 400, sourceHeight: 400, width: 640, height: 360, fit: .stretch)
        #expect(placement.source == PixelRect(x: 0, y: 0, width: 400, height: 400))
        #expect(placement.destination == PixelRect(x: 0, y: 0, width: 640, height: 360))
    }
}

@Suite struct FrameConformerTests {
    static func flat(_ rgba: [UInt8], width: Int, height: Int, format: PixelFormat = .rgba) throws -> Frame {
        let pixel: [UInt8] =
            switch format {
            case .rgba: rgba
            case .bgra: [rgba[2], rgba[1], rgba[0], rgba[3]]
            case .rgb: Array(rgba.prefix(3))
            }
        return try Frame(
            width: width, height: height, format: format,
            pixels: Array([[UInt8]](repeating: pixel, count: width * height).joined()))
    }

    static func pixel(_ frame: Frame, _ x: Int, _ y: Int) -> [UInt8] {
        let offset = y * frame.bytesPerRow + x * frame.format.bytesPerPixel
        return Array(frame.pixels[offset..<offset + 3])
    }

    @Test(arguments: [PixelFormat.rgb, .rgba, .bgra])
    func anOpaqueFrameOfTheMovieSizeIsPassedThroughWithoutACopy(format: PixelFormat) throws {
        let frame = try Self.flat([10, 20, 30, 255], width: 8, height: 4, format: format)
        let conformed = try FrameConformer(width: 8, height: 4, fit: .contain, background: .white).conform(frame)
        #expect(conformed.format == format)
        let same = frame.pixels.withUnsafeBufferPointer { a in
            conformed.pixels.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
        #expect(same, "the same storage, not a copy")
    }

    /// The opacity check looks at every alpha byte, the last included, and at nothing in row padding.
    @Test(arguments: [PixelFormat.rgba, .bgra])
    func opacityCheckSeesEveryAlphaAndSkipsPadding(format: PixelFormat) throws {
        let width = 67
        let height = 3
        let bytesPerRow = width * 4 + 5
        var pixels = [UInt8](repeating: 255, count: height * bytesPerRow)
        for row in 0..<height { for pad in 0..<5 { pixels[row * bytesPerRow + width * 4 + pad] = 0 } }
        #expect(
            try Frame(width: width, height: height, format: format, bytesPerRow: bytesPerRow, pixels: pixels).isOpaque)
        for (x, y) in [(0, 0), (33, 1), (width - 1, height - 1)] {
            var translucent = pixels
            translucent[y * bytesPerRow + x * 4 + 3] = 254
            let frame = try Frame(
                width: width, height: height, format: format, bytesPerRow: bytesPerRow, pixels: translucent)
            #expect(!frame.isOpaque, "alpha 254 at \(x),\(y)")
        }
    }

    /// A frame of the movie's size goes straight to the converter unless some pixel is translucent:
    /// then the picture is the composited one, not the colour under the alpha.
    @Test func preparedTranslucentFrameOfTheMovieSizeIsComposited() throws {
        var settings = VideoSettings(width: 4, height: 2)
        settings.background = RGBColour(red: 0, green: 0, blue: 0)
        let preparer = FramePreparer(settings: settings, matrix: .bt709)
        let white = try Self.flat([255, 255, 255, 255], width: 4, height: 2)
        #expect(try preparer.prepare(white).luma == [UInt8](repeating: 235, count: 8))
        // Half-transparent white over black is mid grey: luma 16 + 219 * 128/255, rounded.
        let halfWhite = try Self.flat([255, 255, 255, 128], width: 4, height: 2)
        #expect(try preparer.prepare(halfWhite).luma == [UInt8](repeating: 126, count: 8))
    }

    @Test func straightAlphaIsCompositedOverTheBackgroundWithRounding() throws {
        let background = RGBColour(red: 0, green: 100, blue: 255)
        let conformer = FrameConformer(width: 4, height: 2, fit: .contain, background: background)
        for alpha: UInt8 in [0, 1, 64, 128, 254, 255] {
            let frame = try Self.flat([255, 200, 0, alpha], width: 4, height: 2)
            let out = try conformer.conform(frame)
            let a = Double(alpha) / 255
            let expected = [255.0, 200, 0].enumerated().map { index, colour in
                let behind = [0.0, 100, 255][index]
                return UInt8((a * colour + (1 - a) * behind).rounded())
            }
            #expect(Self.pixel(out, 3, 1) == expected, "alpha \(alpha)")
        }
    }

    @Test func bandsAreTheBackgroundAndTheImageKeepsItsColour() throws {
        let frame = try Self.flat([200, 50, 25, 255], width: 40, height: 40, format: .rgb)
        let out = try FrameConformer(width: 64, height: 32, fit: .contain, background: RGBColour(parsing: "#336699")!)
            .conform(frame)
        #expect(out.width == 64 && out.height == 32)
        // 40x40 shrinks to 32x32 at x 16.
        for x in [0, 15, 48, 63] { #expect(Self.pixel(out, x, 10) == [0x33, 0x66, 0x99], "band at \(x)") }
        for x in [16, 32, 47] { #expect(Self.pixel(out, x, 10) == [200, 50, 25], "image at \(x)") }
    }

    @Test func coverAndStretchFillThePicture() throws {
        let frame = try Self.flat([1, 2, 3, 255], width: 30, height: 10, format: .bgra)
        for fit in [FitPolicy.cover, .stretch] {
            let out = try FrameConformer(width: 16, height: 16, fit: fit, background: .white).conform(frame)
            for (x, y) in [(0, 0), (15, 15), (8, 0), (0, 8)] {
                #expect(Self.pixel(out, x, y) == [1, 2, 3], "\(fit) at \(x),\(y)")
            }
        }
    }
}

@Suite struct RGBColourTests {
    @Test func namesAndHexParse() {
        #expect(RGBColour(parsing: "black") == .black)
        #expect(RGBColour(parsing: "Grey") == RGBColour(red: 128, green: 128, blue: 128))
        #expect(RGBColour(parsing: "orange") == RGBColour(red: 255, green: 165, blue: 0))
        #expect(RGBColour(parsing: "#FF8000") == RGBColour(red: 255, green: 128, blue: 0))
        #expect(RGBColour(parsing: "#0f0") == RGBColour(red: 0, green: 255, blue: 0))
        #expect(RGBColour(parsing: "#12345") == nil)
        #expect(RGBColour(parsing: "#GG0000") == nil)
        #expect(RGBColour(parsing: "chartreuse-ish") == nil)
        #expect(RGBColour(red: 255, green: 8, blue: 0).description == "#FF0800")
    }
}

@Suite struct ImageScalerTests {
    @Test(arguments: [(40, 40, 32, 32), (30, 10, 16, 16), (1024, 200, 640, 125), (100, 100, 30, 30), (7, 5, 640, 360)])
    func flatColoursStayExactlyTheSameWhenScaled(width: Int, height: Int, newWidth: Int, newHeight: Int) {
        for value: UInt8 in [0, 1, 17, 128, 200, 254, 255] {
            let image = [UInt8](repeating: value, count: width * height * 3)
            let out = ImageScaler.scale(
                image, width: width, height: height, channels: 3, toWidth: newWidth, height: newHeight)
            #expect(out.count == newWidth * newHeight * 3)
            #expect(out.allSatisfy { $0 == value }, "\(value) \(width)x\(height) to \(newWidth)x\(newHeight)")
        }
    }

    @Test func halvingAveragesEachTwoByTwoBlock() {
        // One channel, 4x2: blocks [0 10 / 20 30] and [100 100 / 200 201].
        let image: [UInt8] = [0, 10, 100, 100, 20, 30, 200, 201]
        #expect(ImageScaler.scale(image, width: 4, height: 2, channels: 1, toWidth: 2, height: 1) == [15, 150])
    }

    @Test func doublingFollowsTheCatmullRomCubicBetweenPixelCentres() {
        let image: [UInt8] = [0, 100]
        // Centres of the new pixels fall at -0.25 (clamped), 0.25, 0.75 and 1.25 (clamped) source pixels.
        // At 0.25 the four taps (-1, 0, 1, 2, the outer two folded onto the edges) weigh 0 by
        // -0.0703 + 0.8672 and 100 by 0.2266 - 0.0234: 20.3. Bilinear would give 25.
        #expect(ImageScaler.scale(image, width: 2, height: 1, channels: 1, toWidth: 4, height: 1) == [0, 20, 80, 100])
    }
}
