import Foundation

extension DecodedImage {
    /// The image with its light scaled by `stops` (twice as bright for 1), for a display-referred image
    /// whose own tone curve is the sRGB curve: each pixel made linear, scaled, and coded again; a pixel
    /// the scaling would take past white is scaled only as far as its brightest channel reaches white,
    /// so it keeps its hue. Alpha is kept. Stored planes are not scaled (they are not asked for when
    /// deflickering).
    func brightened(byStops stops: Double) throws -> DecodedImage {
        let gain = Float(exp2(stops))
        guard gain != 1 else { return self }
        switch self {
        case .frame(let frame):
            let (red, green, blue) = frame.format.channelOffsets
            let step = frame.format.bytesPerPixel
            var pixels = frame.pixels
            pixels.withUnsafeMutableBufferPointer { pixels in
                for row in 0..<frame.height {
                    var at = row * frame.bytesPerRow
                    for _ in 0..<frame.width {
                        let light = Self.scaled(
                            FlickerMeter.linear8[Int(pixels[at + red])], FlickerMeter.linear8[Int(pixels[at + green])],
                            FlickerMeter.linear8[Int(pixels[at + blue])], gain)
                        pixels[at + red] = UInt8(ViewTransform.encode(light.0) * 255 + 0.5)
                        pixels[at + green] = UInt8(ViewTransform.encode(light.1) * 255 + 0.5)
                        pixels[at + blue] = UInt8(ViewTransform.encode(light.2) * 255 + 0.5)
                        at += step
                    }
                }
            }
            var scaled = try Frame(
                width: frame.width, height: frame.height, format: frame.format, bytesPerRow: frame.bytesPerRow,
                pixels: pixels)
            scaled.sourceColour = frame.sourceColour
            return .frame(scaled)
        case .deep(let deep):
            let channels = deep.hasAlpha ? 4 : 3
            var samples = deep.samples
            samples.withUnsafeMutableBufferPointer { samples in
                for at in stride(from: 0, to: samples.count, by: channels) {
                    let light = Self.scaled(
                        FlickerMeter.linear16[Int(samples[at])], FlickerMeter.linear16[Int(samples[at + 1])],
                        FlickerMeter.linear16[Int(samples[at + 2])], gain)
                    samples[at] = UInt16(ViewTransform.encode(light.0) * 65535 + 0.5)
                    samples[at + 1] = UInt16(ViewTransform.encode(light.1) * 65535 + 0.5)
                    samples[at + 2] = UInt16(ViewTransform.encode(light.2) * 65535 + 0.5)
                }
            }
            var scaled = DeepImage(width: deep.width, height: deep.height, samples: samples, hasAlpha: deep.hasAlpha)
            scaled.sourceColour = deep.sourceColour
            return .deep(scaled)
        case .planes:
            return self
        }
    }

    /// A pixel's linear light times `gain`, or as far towards that as its brightest channel stays white.
    @inline(__always) private static func scaled(_ red: Float, _ green: Float, _ blue: Float, _ gain: Float)
        -> (Float, Float, Float)
    {
        let brightest = max(red, green, blue)
        let applied = brightest * gain > 1 ? 1 / brightest : gain
        return (min(red * applied, 1), min(green * applied, 1), min(blue * applied, 1))
    }
}
