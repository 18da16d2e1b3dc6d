import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// Every PNG colour type and bit depth, plain and interlaced, decodes to the 8-bit colours it means.
@Suite struct PNGDecodingTests {
    static let width = 11  // odd, so interlace passes and bit packing have partial bytes
    static let height = 9

    /// What a test image holds, per pixel: its RGBA meaning in 8 bits, and its samples as stored.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var colourType: UInt8
        var bitDepth: UInt8
        var palette: [[UInt8]] = []
        var transparency: [UInt8]? = nil
        /// (samples, expected RGBA) for the pixel at index i.
        var pixel: @Sendable (Int) -> ([Int], [Int])
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "gray 1-bit", colourType: 0, bitDepth: 1) { i in
            ([i % 2], [255 * (i % 2), 255 * (i % 2), 255 * (i % 2), 255])
        },
        Case(name: "gray 2-bit", colourType: 0, bitDepth: 2) { i in
            ([i % 4], Array(repeating: 85 * (i % 4), count: 3) + [255])
        },
        Case(name: "gray 4-bit", colourType: 0, bitDepth: 4) { i in
            ([i % 16], Array(repeating: 17 * (i % 16), count: 3) + [255])
        },
        Case(name: "gray 8-bit", colourType: 0, bitDepth: 8) { i in
            ([i % 256], Array(repeating: i % 256, count: 3) + [255])
        },
        Case(name: "gray 16-bit", colourType: 0, bitDepth: 16) { i in ([i * 257], Array(repeating: i, count: 3) + [255])
        },
        Case(name: "gray 8-bit, tRNS", colourType: 0, bitDepth: 8, transparency: [0, 7]) { i in
            ([i % 8], Array(repeating: i % 8, count: 3) + [i % 8 == 7 ? 0 : 255])
        },
        Case(name: "gray+alpha 8-bit", colourType: 4, bitDepth: 8) { i in ([200, i * 2], [200, 200, 200, i * 2]) },
        Case(name: "gray+alpha 16-bit", colourType: 4, bitDepth: 16) { i in
            ([100 * 257, i * 2 * 257], [100, 100, 100, i * 2])
        },
        Case(name: "RGB 8-bit", colourType: 2, bitDepth: 8) { i in ([i, 255 - i, 7], [i, 255 - i, 7, 255]) },
        Case(name: "RGB 16-bit", colourType: 2, bitDepth: 16) { i in ([i * 257, 65535, 0], [i, 255, 0, 255]) },
        Case(name: "RGB 8-bit, tRNS", colourType: 2, bitDepth: 8, transparency: [0, 5, 0, 6, 0, 7]) { i in
            i % 3 == 0 ? ([5, 6, 7], [5, 6, 7, 0]) : ([50, 60, 70], [50, 60, 70, 255])
        },
        Case(name: "RGBA 8-bit", colourType: 6, bitDepth: 8) { i in ([10, 20, i, 255 - i], [10, 20, i, 255 - i]) },
        Case(name: "RGBA 16-bit", colourType: 6, bitDepth: 16) { i in ([65535, 0, i * 257, i * 257], [255, 0, i, i]) },
        Case(
            name: "palette 8-bit, tRNS", colourType: 3, bitDepth: 8,
            palette: [[255, 0, 0], [0, 255, 0], [0, 0, 255]],
            transparency: [255, 128]
        ) { i in ([i % 3], [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 255]][i % 3]) },
        Case(
            name: "palette 2-bit", colourType: 3, bitDepth: 2,
            palette: [[1, 2, 3], [40, 50, 60], [70, 80, 90], [9, 9, 9]]
        ) { i in ([i % 4], [[1, 2, 3], [40, 50, 60], [70, 80, 90], [9, 9, 9]][i % 4] + [255]) },
    ]

    @Test(arguments: cases, [false, true])
    func decodesToTheColoursItMeans(testCase: Case, interlaced: Bool) throws {
        let count = Self.width * Self.height
        let pixels = (0..<count).map(testCase.pixel)
        let png = TestPNG.encode(
            width: Self.width, height: Self.height, colourType: testCase.colourType, bitDepth: testCase.bitDepth,
            samples: pixels.flatMap(\.0), palette: testCase.palette, transparency: testCase.transparency,
            interlaced: interlaced)
        let frame = try ImageDecoder.decode(png, limits: ImageLimits())
        #expect(frame.width == Self.width && frame.height == Self.height)
        let hasAlpha = pixels.contains { $0.1[3] != 255 }
        #expect(frame.format == (hasAlpha ? .rgba : .rgb), "\(testCase.name): \(frame.format)")
        for index in 0..<count {
            let expected = pixels[index].1
            let offset = (index / Self.width) * frame.bytesPerRow + (index % Self.width) * frame.format.bytesPerPixel
            let seen = frame.pixels[offset..<offset + frame.format.bytesPerPixel].map(Int.init)
            let wanted = frame.format == .rgba ? expected : Array(expected.prefix(3))
            #expect(seen == wanted, "\(testCase.name) pixel \(index): \(seen), expected \(wanted)")
            if seen != wanted { break }
        }
    }
}
