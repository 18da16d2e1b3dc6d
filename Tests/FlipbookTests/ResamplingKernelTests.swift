import Testing

@testable import Flipbook

/// The C resampler (`flipbook_resample`) against the Swift scaler it replaced.
@Suite struct ResamplingKernelTests {
    /// Deterministic noise: every byte from a 64-bit linear congruential generator.
    static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// The largest difference between two equally long byte arrays.
    static func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test(arguments: [
        (64, 48, 32, 24),  // 2:1
        (100, 50, 32, 16),  // 3.125:1
        (2250, 9, 1920, 7),  // 1.17:1, a scaled 24 MP JPEG to 1080p
        (37, 23, 11, 7),  // non-integer both ways
        (1, 40, 1, 13),  // one pixel wide
        (40, 1, 13, 1),  // one pixel tall
        (9, 5, 9, 5),  // same size
        (7, 5, 64, 36),  // enlarging
        (30, 20, 45, 8),  // wider and shorter
    ])
    func matchesTheSwiftScalerWithinOneLevel(width: Int, height: Int, newWidth: Int, newHeight: Int) {
        for channels in [1, 3, 4] {
            let image = Self.noise(count: width * height * channels, seed: UInt64(width * 1000 + height + channels))
            let kernel = ImageScaler.scale(
                image, width: width, height: height, channels: channels, toWidth: newWidth, height: newHeight)
            let reference = ReferenceImageScaler.scale(
                image, width: width, height: height, channels: channels, toWidth: newWidth, height: newHeight)
            #expect(kernel.count == newWidth * newHeight * channels)
            #expect(
                Self.largestDifference(kernel, reference) <= 1,
                "\(channels) channels \(width)x\(height) to \(newWidth)x\(newHeight)")
        }
    }

    @Test(arguments: [3, 4])
    func flatColoursStayExactWithEveryChannelCount(channels: Int) {
        for (width, height, newWidth, newHeight) in [(6000, 3, 1920, 1), (100, 50, 32, 16), (3, 2, 1920, 5)] {
            for value: UInt8 in [0, 1, 128, 200, 254, 255] {
                let out = ImageScaler.scale(
                    [UInt8](repeating: value, count: width * height * channels), width: width, height: height,
                    channels: channels, toWidth: newWidth, height: newHeight)
                #expect(out.allSatisfy { $0 == value }, "\(value) \(width)x\(height) to \(newWidth)x\(newHeight)")
            }
        }
    }

    /// A region of a padded frame is read where it lies: the same result as a tight copy of it.
    @Test func aRegionIsScaledInPlaceAsItsCopyWouldBe() throws {
        let (width, height, bytesPerRow) = (50, 30, 50 * 3 + 7)
        let frame = try Frame(
            width: width, height: height, format: .rgb, bytesPerRow: bytesPerRow,
            pixels: Self.noise(count: height * bytesPerRow, seed: 7))
        let region = PixelRect(x: 9, y: 4, width: 33, height: 21)
        var copy: [UInt8] = []
        for row in region.y..<region.y + region.height {
            let start = row * bytesPerRow + region.x * 3
            copy += frame.pixels[start..<start + region.width * 3]
        }
        let inPlace = ImageScaler.scaleToRGB(frame, region: region, toWidth: 16, height: 9)
        #expect(inPlace == ImageScaler.scale(copy, width: 33, height: 21, channels: 3, toWidth: 16, height: 9))
    }

    /// Opaque RGBA and BGRA frames scale straight to RGB: the same bytes as the RGB frame scaled.
    @Test(arguments: [PixelFormat.rgba, .bgra])
    func opaqueFourByteFramesScaleToTheSameRGB(format: PixelFormat) throws {
        let (width, height) = (61, 37)
        let rgb = Self.noise(count: width * height * 3, seed: 11)
        var fourBytes: [UInt8] = []
        for pixel in stride(from: 0, to: rgb.count, by: 3) {
            let (r, g, b) = (rgb[pixel], rgb[pixel + 1], rgb[pixel + 2])
            fourBytes += format == .rgba ? [r, g, b, 255] : [b, g, r, 255]
        }
        let frame = try Frame(width: width, height: height, format: format, pixels: fourBytes)
        let region = PixelRect(x: 3, y: 2, width: 50, height: 30)
        for (newWidth, newHeight) in [(25, 15), (16, 9), (120, 70)] {
            let scaled = ImageScaler.scaleToRGB(frame, region: region, toWidth: newWidth, height: newHeight)
            let expected = ImageScaler.scaleToRGB(
                try Frame(width: width, height: height, format: .rgb, pixels: rgb), region: region,
                toWidth: newWidth, height: newHeight)
            #expect(scaled == expected, "\(format) to \(newWidth)x\(newHeight)")
        }
    }

    /// Every position's taps stay inside the source and sum to one, near both edges included.
    @Test(arguments: [(6000, 1920), (4000, 1080), (2250, 1920), (7, 640), (1, 5), (5, 1), (13, 13)])
    func tapsStayInsideTheSourceAndSumToOne(sourceCount: Int, outputCount: Int) {
        let taps = ResamplingTaps(from: sourceCount, to: outputCount)
        #expect(taps.outputCount == outputCount)
        for position in 0..<outputCount {
            let (first, weights) = taps.taps(position)
            #expect(first >= 0 && first + taps.count <= sourceCount, "position \(position): first \(first)")
            #expect(weights.reduce(0) { $0 + Int($1) } == ResamplingTaps.one, "position \(position)")
        }
    }
}
