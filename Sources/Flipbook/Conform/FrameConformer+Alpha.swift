extension FrameConformer {
    /// The frame at the movie's size as RGBA, its transparency kept: for a movie that keeps alpha.
    ///
    /// The region the fit policy takes is premultiplied by its alpha, scaled, and divided again, so
    /// the colour hidden under transparent pixels never bleeds into their neighbours (the same reason
    /// ``conform(_:)`` composites before scaling); the area outside the image is transparent.
    func conformKeepingAlpha(_ frame: Frame) throws -> Frame {
        let placement = FitPlacement(
            sourceWidth: frame.width, sourceHeight: frame.height, width: width, height: height, fit: fit)
        let (source, destination) = (placement.source, placement.destination)
        let scales = source.width != destination.width || source.height != destination.height
        // Only scaling needs the premultiplied form; a region placed as it is keeps its straight colour exactly.
        var pixels = frame.rgba(region: source, premultiplied: scales)
        if scales {
            pixels = ImageScaler.scale(
                pixels, width: source.width, height: source.height, channels: 4, toWidth: destination.width,
                height: destination.height)
            Self.unpremultiply(&pixels)
        }
        if destination.width != width || destination.height != height {
            pixels = place(pixels, at: destination, fill: [0, 0, 0, 0])
        }
        return try Frame(width: width, height: height, format: .rgba, pixels: pixels)
    }

    /// Divides premultiplied RGBA by its alpha, rounded to the nearest code and kept within 255
    /// (scaling can ring a colour past its alpha); a fully transparent pixel becomes transparent black.
    static func unpremultiply(_ pixels: inout [UInt8]) {
        var span = pixels.mutableSpan
        for index in stride(from: 0, to: span.count, by: 4) {
            let alpha = Int(span[index + 3])
            for channel in 0..<3 {
                let colour = Int(span[index + channel])
                span[index + channel] = alpha == 0 ? 0 : UInt8(min(255, (colour * 255 + alpha / 2) / alpha))
            }
        }
    }
}

extension Frame {
    /// The pixels of `region` as tightly packed RGBA (RGB is opaque), with each colour multiplied by
    /// its alpha when `premultiplied`, `colour * alpha / 255` rounded to the nearest code.
    func rgba(region: PixelRect, premultiplied: Bool) -> [UInt8] {
        let (rOff, gOff, bOff) = format.channelOffsets
        let bpp = format.bytesPerPixel
        let hasAlpha = format != .rgb
        var output = [UInt8](repeating: 0, count: region.width * region.height * 4)
        var out = output.mutableSpan
        let source = pixels.span
        @inline(__always) func times(_ colour: UInt8, _ alpha: Int) -> UInt8 {
            // Exact rounding of x / 255 for x in 0...65025.
            let x = Int(colour) * alpha + 128
            return UInt8(truncatingIfNeeded: (x + (x >> 8)) >> 8)
        }
        var target = 0
        for row in region.y..<(region.y + region.height) {
            var offset = row * bytesPerRow + region.x * bpp
            for _ in 0..<region.width {
                let alpha = hasAlpha ? Int(source[offset + 3]) : 255
                let scale = premultiplied ? alpha : 255
                out[target] = times(source[offset + rOff], scale)
                out[target + 1] = times(source[offset + gOff], scale)
                out[target + 2] = times(source[offset + bOff], scale)
                out[target + 3] = UInt8(alpha)
                offset += bpp
                target += 4
            }
        }
        return output
    }
}
