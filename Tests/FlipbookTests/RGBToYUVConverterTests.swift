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
