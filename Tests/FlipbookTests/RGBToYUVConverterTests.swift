import Testing

@testable import Flipbook

@Suite struct RGBToYUVConverterTests {
    /// BT.709 limited-range codes for flat colours, from the matrix in ITU-R BT.709 section 3.
    @Test(arguments: [
        ([255, 255, 255], [235, 128, 128]),
        ([0, 0, 0], [16, 128, 128]),
        ([255, 0, 0], [63, 102, 240]),
        ([0, 255, 0], [173, 42, 26]),
        ([0, 0, 255], [32, 240, 118]),
        ([128, 128, 128], [126, 128, 128]),
    ])
    func flatColoursBecomeBT709LimitedRangeCodes(rgb: [Int], yuv: [Int]) throws {
        for format in PixelFormat.allCases {
            let frame = try flatFrame(rgb, format: format, width: 4, height: 2)
            var picture = YUVPicture(width: 4, height: 2)
            RGBToYUVConverter(matrix: .bt709).convert(frame, into: &picture)
            #expect(picture.luma.allSatisfy { Int($0) == yuv[0] }, "\(format) Y \(picture.luma)")
            #expect(picture.cb.allSatisfy { Int($0) == yuv[1] }, "\(format) Cb \(picture.cb)")
            #expect(picture.cr.allSatisfy { Int($0) == yuv[2] }, "\(format) Cr \(picture.cr)")
        }
    }

    /// BT.601 limited and full-range codes (ITU-R BT.601 section 2.5; full range as in JPEG/JFIF).
    @Test(arguments: [
        (ColourStandard.bt601, ColourRange.limited, [255, 0, 0], [81, 90, 240]),
        (.bt601, .limited, [255, 255, 255], [235, 128, 128]),
        (.bt601, .full, [255, 0, 0], [76, 85, 255]),
        (.bt601, .full, [255, 255, 255], [255, 128, 128]),
        (.bt709, .full, [0, 0, 0], [0, 128, 128]),
        (.bt709, .full, [255, 255, 255], [255, 128, 128]),
        (.bt709, .full, [0, 0, 255], [18, 255, 116]),
    ])
    func otherStandardsAndRangesGiveTheirCodes(
        standard: ColourStandard, range: ColourRange, rgb: [Int], yuv: [Int]
    ) throws {
        let frame = try flatFrame(rgb, format: .rgb, width: 2, height: 2)
        var picture = YUVPicture(width: 2, height: 2)
        RGBToYUVConverter(matrix: ColourMatrix(standard, range)).convert(frame, into: &picture)
        #expect(picture.luma.allSatisfy { Int($0) == yuv[0] }, "Y \(picture.luma)")
        #expect(picture.cb == [UInt8(yuv[1])] && picture.cr == [UInt8(yuv[2])], "Cb \(picture.cb) Cr \(picture.cr)")
    }

    @Test func chromaIsTheMeanOfEachTwoByTwoBlockAndRowPaddingIsSkipped() throws {
        // Left block: black and white columns, mean grey; right block: all red. Rows padded by 5 bytes.
        let row: [UInt8] = [0, 0, 0, 255, 255, 255, 255, 0, 0, 255, 0, 0] + [9, 9, 9, 9, 9]
        let frame = try Frame(width: 4, height: 2, format: .rgb, bytesPerRow: 17, pixels: row + row)
        var picture = YUVPicture(width: 4, height: 2)
        RGBToYUVConverter(matrix: .bt709).convert(frame, into: &picture)
        #expect(picture.luma == [16, 235, 63, 63, 16, 235, 63, 63])
        #expect(picture.cb == [128, 102])
        #expect(picture.cr == [128, 240])
    }

    /// The vectorised loop against a plain scalar one on noise: every layout, standard and range,
    /// widths that leave vector tails or end inside a 128-pixel prefetch step, several pairs of rows,
    /// and padded rows.
    @Test(arguments: [(2, 2), (34, 4), (70, 6), (130, 6), (258, 4), (1922, 2)])
    func vectorisedLoopMatchesScalarArithmeticOnNoise(width: Int, height: Int) throws {
        var random = SystemRandomNumberGenerator()
        for format in PixelFormat.allCases {
            let padding = 7
            let bytesPerRow = width * format.bytesPerPixel + padding
            let pixels = (0..<(height * bytesPerRow)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let frame = try Frame(
                width: width, height: height, format: format, bytesPerRow: bytesPerRow, pixels: pixels)
            for matrix in [ColourStandard.bt709, .bt601].flatMap({ s in
                [ColourRange.limited, .full].map { ColourMatrix(s, $0) }
            }) {
                var picture = YUVPicture(width: width, height: height)
                let opaque = RGBToYUVConverter(matrix: matrix).convert(frame, into: &picture)
                // Random alphas are not all 255: only RGB is opaque.
                #expect(opaque == (format == .rgb), "\(format) reported opaque \(opaque)")
                let expected = scalarConversion(frame, matrix.fixedPoint)
                #expect(picture.luma == expected.luma, "\(format) \(matrix) luma")
                #expect(picture.cb == expected.cb, "\(format) \(matrix) Cb")
                #expect(picture.cr == expected.cr, "\(format) \(matrix) Cr")
            }
        }
    }

    /// The conversion also reports opacity: one alpha below 255 anywhere, the last pixel included,
    /// makes the frame translucent.
    @Test(arguments: [PixelFormat.rgba, .bgra], [70, 202])
    func conversionReportsWhetherEveryAlphaIs255(format: PixelFormat, width: Int) throws {
        let height = 6
        let opaque = [UInt8](repeating: 255, count: width * height * 4)
        var picture = YUVPicture(width: width, height: height)
        let converter = RGBToYUVConverter(matrix: .bt709)
        #expect(
            converter.convert(try Frame(width: width, height: height, format: format, pixels: opaque), into: &picture))
        for pixel in [0, width * height / 2 + 3, width * height - 1] {
            var translucent = opaque
            translucent[pixel * 4 + 3] = 254
            let frame = try Frame(width: width, height: height, format: format, pixels: translucent)
            #expect(!converter.convert(frame, into: &picture), "alpha 254 at pixel \(pixel)")
        }
    }

    /// The conversion written out pixel by pixel: 16.16 fixed point, rounded, chroma from 2x2 sums.
    private func scalarConversion(_ frame: Frame, _ c: FixedPointCoefficients) -> (
        luma: [UInt8], cb: [UInt8], cr: [UInt8]
    ) {
        let (ro, go, bo) = frame.format.channelOffsets
        func rgb(_ x: Int, _ y: Int) -> (Int32, Int32, Int32) {
            let at = y * frame.bytesPerRow + x * frame.format.bytesPerPixel
            return (Int32(frame.pixels[at + ro]), Int32(frame.pixels[at + go]), Int32(frame.pixels[at + bo]))
        }
        var luma: [UInt8] = []
        var cb: [UInt8] = []
        var cr: [UInt8] = []
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let (r, g, b) = rgb(x, y)
                luma.append(UInt8((c.yR * r + c.yG * g + c.yB * b + (c.lumaOffset << 16) + (1 << 15)) >> 16))
            }
        }
        for y in stride(from: 0, to: frame.height, by: 2) {
            for x in stride(from: 0, to: frame.width, by: 2) {
                let block = [rgb(x, y), rgb(x + 1, y), rgb(x, y + 1), rgb(x + 1, y + 1)]
                let r = block.map(\.0).reduce(0, +)
                let g = block.map(\.1).reduce(0, +)
                let b = block.map(\.2).reduce(0, +)
                let round: Int32 = (128 << 18) + (1 << 17)
                cb.append(UInt8(clamping: (c.cbR * r + c.cbG * g + c.cbB * b + round) >> 18))
                cr.append(UInt8(clamping: (c.crR * r + c.crG * g + c.crB * b + round) >> 18))
            }
        }
        return (luma, cb, cr)
    }

    private func flatFrame(_ rgb: [Int], format: PixelFormat, width: Int, height: Int) throws -> Frame {
        let pixel: [UInt8] =
            switch format {
            case .rgba: [UInt8(rgb[0]), UInt8(rgb[1]), UInt8(rgb[2]), 255]
            case .bgra: [UInt8(rgb[2]), UInt8(rgb[1]), UInt8(rgb[0]), 255]
            case .rgb: [UInt8(rgb[0]), UInt8(rgb[1]), UInt8(rgb[2])]
            }
        return try Frame(
            width: width, height: height, format: format,
            pixels: Array([[UInt8]](repeating: pixel, count: width * height).joined()))
    }
}
