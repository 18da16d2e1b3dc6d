import Foundation

/// An image's brightness in linear light, for ``Deflicker``: each pixel's luminance (BT.709's weights
/// on its sRGB-decoded values), the darkest and brightest 2% of the pixels left out (black borders,
/// clipped sky), and the mean of the rest, in stops (log2).
enum FlickerMeter {
    /// Linear light of each 8-bit sRGB code.
    static let linear8: [Float] = (0..<256).map { Float(ViewTransform.linear(Double($0) / 255)) }
    /// Linear light of each 16-bit sRGB code.
    static let linear16: [Float] = (0..<65536).map { Float(ViewTransform.linear(Double($0) / 65535)) }

    /// The brightness of `image` in stops, measured in `region` (in the image's pixels) or everywhere.
    ///
    /// - Throws: `.invalidSettings` when the region is not inside the image.
    static func stops(of image: DecodedImage, region: PixelRegion?) throws -> Double {
        let area = region ?? PixelRegion(x: 0, y: 0, width: image.width, height: image.height)
        guard area.x + area.width <= image.width && area.y + area.height <= image.height else {
            throw FlipbookError.deflickerRegionOutside(area, width: image.width, height: image.height)
        }
        var histogram = [Int](repeating: 0, count: 4096)
        func count(_ red: Float, _ green: Float, _ blue: Float) {
            let luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
            histogram[min(4095, max(0, Int(luminance * 4095 + 0.5)))] += 1
        }
        switch image {
        case .frame(let frame):
            let (red, green, blue) = frame.format.channelOffsets
            let step = frame.format.bytesPerPixel
            frame.pixels.withUnsafeBufferPointer { pixels in
                for row in area.y..<area.y + area.height {
                    var at = row * frame.bytesPerRow + area.x * step
                    for _ in 0..<area.width {
                        count(
                            linear8[Int(pixels[at + red])], linear8[Int(pixels[at + green])],
                            linear8[Int(pixels[at + blue])])
                        at += step
                    }
                }
            }
        case .deep(let deep):
            let channels = deep.hasAlpha ? 4 : 3
            deep.samples.withUnsafeBufferPointer { samples in
                for row in area.y..<area.y + area.height {
                    var at = (row * deep.width + area.x) * channels
                    for _ in 0..<area.width {
                        count(
                            linear16[Int(samples[at])], linear16[Int(samples[at + 1])], linear16[Int(samples[at + 2])])
                        at += channels
                    }
                }
            }
        case .planes:
            preconditionFailure("planes decoded although none were asked for")
        }
        return trimmedMeanStops(histogram)
    }

    /// The mean of the histogram's values (bins of 1/4095) without its darkest and brightest 2%, in stops;
    /// a picture black throughout is -24 stops.
    static func trimmedMeanStops(_ histogram: [Int]) -> Double {
        let total = histogram.reduce(0, +)
        let cut = total / 50
        var (skippedLow, remainingHigh) = (cut, cut)
        var kept = histogram
        for index in kept.indices where skippedLow > 0 {
            let taken = min(kept[index], skippedLow)
            kept[index] -= taken
            skippedLow -= taken
        }
        for index in kept.indices.reversed() where remainingHigh > 0 {
            let taken = min(kept[index], remainingHigh)
            kept[index] -= taken
            remainingHigh -= taken
        }
        let count = kept.reduce(0, +)
        let sum = kept.enumerated().reduce(0.0) { $0 + Double($1.offset) * Double($1.element) }
        guard count > 0, sum > 0 else { return -24 }
        return log2(sum / Double(count) / 4095)
    }
}
