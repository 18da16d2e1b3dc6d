/// Makes every frame the movie's size: fits it by a ``FitPolicy``, composites transparent pixels over
/// the background colour, and fills the area outside the image with the background.
///
/// A frame that already has the movie's size and no transparency is passed through untouched (no
/// copy, no scaling). Otherwise the work is, in order: crop (for `.cover`) and composite over the
/// background at the source's resolution into RGB, scale with ``ImageScaler`` if the size changes,
/// and place the result on a background-filled picture if it does not cover it. Compositing before
/// scaling means transparent pixels never bleed their hidden colour into their neighbours. An opaque
/// frame that is scaled has nothing to composite: its region is scaled where it lies, into RGB.
struct FrameConformer: Sendable {
    let width: Int
    let height: Int
    let fit: FitPolicy
    let background: RGBColour

    init(width: Int, height: Int, fit: FitPolicy, background: RGBColour) {
        self.width = width
        self.height = height
        self.fit = fit
        self.background = background
    }

    init(settings: VideoSettings) {
        self.init(width: settings.width, height: settings.height, fit: settings.fit, background: settings.background)
    }

    /// The frame at the movie's size, fully opaque.
    func conform(_ frame: Frame) throws -> Frame {
        if frame.width == width && frame.height == height && frame.isOpaque { return frame }
        let placement = FitPlacement(
            sourceWidth: frame.width, sourceHeight: frame.height, width: width, height: height, fit: fit)
        let source = placement.source
        let destination = placement.destination
        let scales = source.width != destination.width || source.height != destination.height
        var pixels: [UInt8]
        if scales && frame.isOpaque {
            // Nothing to composite: the region is scaled where it lies, without a cropped copy first.
            pixels = ImageScaler.scaleToRGB(
                frame, region: source, toWidth: destination.width, height: destination.height)
        } else {
            pixels = frame.compositedRGB(region: source, over: background)
            if scales {
                pixels = ImageScaler.scale(
                    pixels, width: source.width, height: source.height, channels: 3, toWidth: destination.width,
                    height: destination.height)
            }
        }
        if destination.width != width || destination.height != height {
            pixels = place(pixels, at: destination, fill: [background.red, background.green, background.blue])
        }
        return try Frame(width: width, height: height, format: .rgb, pixels: pixels)
    }

    /// A picture of the movie's size filled with `fill` (one pixel's bytes: RGB, or RGBA) with
    /// `image` (tightly packed pixels of the same layout) copied into `rect`.
    func place(_ image: [UInt8], at rect: PixelRect, fill: [UInt8]) -> [UInt8] {
        let channels = fill.count
        var canvas = [UInt8](repeating: 0, count: width * height * channels)
        if fill.contains(where: { $0 != 0 }) {
            var span = canvas.mutableSpan
            for index in stride(from: 0, to: span.count, by: channels) {
                for channel in 0..<channels { span[index + channel] = fill[channel] }
            }
        }
        let rowBytes = rect.width * channels
        for row in 0..<rect.height {
            let target = ((rect.y + row) * width + rect.x) * channels
            canvas.replaceSubrange(target..<target + rowBytes, with: image[row * rowBytes..<(row + 1) * rowBytes])
        }
        return canvas
    }
}

extension Frame {
    /// Whether every pixel is fully opaque: always for RGB, and for RGBA or BGRA when every alpha is 255.
    var isOpaque: Bool {
        format == .rgb || PixelKernels.alphaIsOpaque(self)
    }

    /// The pixels of `region` as tightly packed RGB, each composited over `background`:
    /// `out = (a * colour + (255 - a) * background) / 255`, rounded to the nearest code.
    func compositedRGB(region: PixelRect, over background: RGBColour) -> [UInt8] {
        let (rOff, gOff, bOff) = format.channelOffsets
        let bpp = format.bytesPerPixel
        let hasAlpha = format != .rgb
        let bg = (Int(background.red), Int(background.green), Int(background.blue))
        var output = [UInt8](repeating: 0, count: region.width * region.height * 3)
        var out = output.mutableSpan
        let source = pixels.span
        @inline(__always) func blend(_ colour: UInt8, _ alpha: Int, _ behind: Int) -> UInt8 {
            // Exact rounding of x / 255 for x in 0...65025.
            let x = Int(colour) * alpha + behind * (255 - alpha) + 128
            return UInt8(truncatingIfNeeded: (x + (x >> 8)) >> 8)
        }
        var target = 0
        for row in region.y..<(region.y + region.height) {
            var offset = row * bytesPerRow + region.x * bpp
            for _ in 0..<region.width {
                let alpha = hasAlpha ? Int(source[offset + 3]) : 255
                if alpha == 255 {
                    out[target] = source[offset + rOff]
                    out[target + 1] = source[offset + gOff]
                    out[target + 2] = source[offset + bOff]
                } else {
                    out[target] = blend(source[offset + rOff], alpha, bg.0)
                    out[target + 1] = blend(source[offset + gOff], alpha, bg.1)
                    out[target + 2] = blend(source[offset + bOff], alpha, bg.2)
                }
                offset += bpp
                target += 3
            }
        }
        return output
    }
}
