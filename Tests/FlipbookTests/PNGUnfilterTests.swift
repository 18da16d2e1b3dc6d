import FlipbookTestSupport
import Testing

@testable import Flipbook

/// The C unfilter kernel (vectorised, and the portable loops other architectures use) gives exactly
/// what the PNG specification defines, for every filter type, pixel size and row width.
@Suite struct PNGUnfilterTests {
    static let widths = [1, 2, 3, 15, 16, 17, 1921]
    static let pixelSizes = [1, 2, 3, 4, 6, 8]

    /// ISO/IEC 15948 §9.2-9.4 as written, byte by byte: `data` is rows of a filter type byte and
    /// `rowBytes` filtered bytes; the result is the unfiltered rows, packed.
    static func specification(_ data: [UInt8], rows: Int, rowBytes: Int, bytesPerPixel bpp: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rows * rowBytes)
        for row in 0..<rows {
            let type = data[row * (rowBytes + 1)]
            for i in 0..<rowBytes {
                let a = i >= bpp ? Int(out[row * rowBytes + i - bpp]) : 0
                let b = row > 0 ? Int(out[(row - 1) * rowBytes + i]) : 0
                let c = row > 0 && i >= bpp ? Int(out[(row - 1) * rowBytes + i - bpp]) : 0
                let predictor: Int
                switch type {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                default:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                }
                out[row * rowBytes + i] = UInt8((Int(data[row * (rowBytes + 1) + 1 + i]) + predictor) % 256)
            }
        }
        return out
    }

    /// `rows` rows of random filtered bytes under the given filter types. With `narrow`, bytes are
    /// drawn from {0, 1, 255} so neighbours stay close and Paeth's ties (a over b over c) are common.
    static func filteredRows(
        types: [UInt8], rows: Int, rowBytes: Int, narrow: Bool, random: inout SplitMix64
    ) -> [UInt8] {
        var data: [UInt8] = []
        for row in 0..<rows {
            data.append(types[row % types.count])
            for _ in 0..<rowBytes {
                let value = random.next()
                data.append(narrow ? [0, 1, 255][Int(value % 3)] : UInt8(truncatingIfNeeded: value))
            }
        }
        return data
    }

    /// Runs the kernel in place and returns the packed rows, or the row it stopped at.
    static func kernel(
        _ data: [UInt8], rows: Int, rowBytes: Int, bytesPerPixel: Int, portable: Bool
    ) -> (pixels: [UInt8], failedRow: Int?) {
        var buffer = data
        let failedRow = buffer.withUnsafeMutableBufferPointer {
            PixelKernels.unfilterPNG(
                $0, rows: rows, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel, portable: portable)
        }
        return (Array(buffer.prefix(rows * rowBytes)), failedRow)
    }

    @Test(arguments: [UInt8(0), 1, 2, 3, 4], pixelSizes)
    func everyFilterMatchesTheSpecification(filter: UInt8, bytesPerPixel: Int) {
        var random = SplitMix64(state: UInt64(filter) << 8 | UInt64(bytesPerPixel))
        for width in Self.widths {
            for narrow in [false, true] {
                let rowBytes = width * bytesPerPixel
                let rows = 5
                let data = Self.filteredRows(
                    types: [filter], rows: rows, rowBytes: rowBytes, narrow: narrow, random: &random)
                let expected = Self.specification(data, rows: rows, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel)
                for portable in [false, true] {
                    let result = Self.kernel(
                        data, rows: rows, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel, portable: portable)
                    #expect(result.failedRow == nil)
                    #expect(
                        firstDifference(result.pixels, expected) == nil,
                        "filter \(filter), \(bytesPerPixel) bytes a pixel, \(width) wide, narrow \(narrow), portable \(portable)"
                    )
                }
            }
        }
    }

    @Test(arguments: pixelSizes)
    func rowsWithMixedFiltersMatchTheSpecification(bytesPerPixel: Int) {
        var random = SplitMix64(state: 0x5EED + UInt64(bytesPerPixel))
        for width in Self.widths {
            let rowBytes = width * bytesPerPixel
            let types = (0..<24).map { _ in UInt8(random.next() % 5) }
            let data = Self.filteredRows(types: types, rows: 24, rowBytes: rowBytes, narrow: false, random: &random)
            let expected = Self.specification(data, rows: 24, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel)
            for portable in [false, true] {
                let result = Self.kernel(
                    data, rows: 24, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel, portable: portable)
                #expect(result.failedRow == nil)
                #expect(
                    firstDifference(result.pixels, expected) == nil,
                    "types \(types), \(width) wide, portable \(portable)")
            }
        }
    }

    /// Rows of `types` filtered at random, unfiltered by the kernel: the same pixels as the
    /// specification's row-by-row unfiltering, and no row refused.
    static func expectKernelMatchesSpecification(
        types: [UInt8], width: Int, bytesPerPixel: Int, narrow: Bool, random: inout SplitMix64, _ what: String
    ) {
        let rowBytes = width * bytesPerPixel
        let data = filteredRows(types: types, rows: types.count, rowBytes: rowBytes, narrow: narrow, random: &random)
        let expected = specification(data, rows: types.count, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel)
        let result = kernel(data, rows: types.count, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel, portable: false)
        #expect(result.failedRow == nil)
        #expect(
            firstDifference(result.pixels, expected) == nil,
            "\(what), \(bytesPerPixel) bytes a pixel, \(width) wide, narrow \(narrow)")
    }
    /// Two filter types in every order, after a first row (which has no row above, so is taken alone):
    /// rows of Paeth and Average that follow each other go through the kernel in pairs, any mix of the
    /// two, and each pair must give what the rows give one at a time.
    @Test(arguments: [UInt8(0), 1, 2, 3, 4], [UInt8(0), 1, 2, 3, 4])
    func everyOrderOfTwoFiltersMatchesTheSpecification(first: UInt8, second: UInt8) {
        var random = SplitMix64(state: 0xFA1 + UInt64(first) << 4 | UInt64(second))
        let types = [0, first, second, second, first, first, second]
        for bytesPerPixel in Self.pixelSizes {
            for width in Self.widths {
                for narrow in [false, true] {
                    Self.expectKernelMatchesSpecification(
                        types: types, width: width, bytesPerPixel: bytesPerPixel, narrow: narrow, random: &random,
                        "types \(types)")
                }
            }
        }
    }

    /// Runs of 1 to 9 Paeth rows between other filters: four Paeth rows in a row go through the kernel
    /// together (pixels of 3 and 4 bytes), starting one to three pixels apart, so narrow rows, where
    /// the four overlap at both ends, and the rows left over after a run of four are all checked.
    @Test(arguments: [3, 4, 6, 8])
    func runsOfPaethRowsMatchTheSpecification(bytesPerPixel: Int) {
        var random = SplitMix64(state: 0x9A37 + UInt64(bytesPerPixel))
        for run in 1...9 {
            let types: [UInt8] = [1] + Array(repeating: 4, count: run) + [3] + Array(repeating: 4, count: run) + [2, 4]
            for width in [1, 2, 3, 4, 5, 6, 7, 33, 1921] {
                for narrow in [false, true] {
                    Self.expectKernelMatchesSpecification(
                        types: types, width: width, bytesPerPixel: bytesPerPixel, narrow: narrow, random: &random,
                        "runs of \(run)")
                }
            }
        }
    }

    /// Row 3 is damaged, after rows the kernel takes one at a time, after a pair of Paeth rows (which
    /// it takes together), and after a Paeth row it would have paired with row 3.
    @Test(arguments: [[UInt8(4), 3, 1], [1, 4, 4], [1, 2, 4]])
    func anUnknownFilterTypeStopsAtItsRow(typesBefore: [UInt8]) {
        var random = SplitMix64(state: 7)
        let rowBytes = 17 * 3
        for portable in [false, true] {
            for badType: UInt8 in [5, 128, 255] {
                let data = Self.filteredRows(
                    types: typesBefore + [badType, 4], rows: 5, rowBytes: rowBytes, narrow: false, random: &random)
                let result = Self.kernel(data, rows: 5, rowBytes: rowBytes, bytesPerPixel: 3, portable: portable)
                #expect(result.failedRow == 3, "type \(badType), portable \(portable)")
                let expected = Self.specification(
                    Array(data.prefix(3 * (rowBytes + 1))), rows: 3, rowBytes: rowBytes, bytesPerPixel: 3)
                #expect(
                    firstDifference(Array(result.pixels.prefix(3 * rowBytes)), expected) == nil,
                    "the rows before it are unfiltered")
            }
        }
    }
}

/// The first index where `a` and `b` differ (`nil` when equal): a short failure message for large
/// arrays, where `#expect(a == b)` would print (and diff) all of them.
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
    zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? (a.count == b.count ? nil : min(a.count, b.count))
}
