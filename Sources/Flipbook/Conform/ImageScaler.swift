/// Resamples 8-bit interleaved images: an area (box) filter when shrinking, Catmull-Rom when enlarging.
///
/// Separable, in C (`flipbook_resample`): each output row sums the source rows it covers, then the
/// columns, with 8 extra bits in between. Each output sample's weights are integers summing to
/// exactly 2^14, so a flat colour stays exactly that colour and the filters never darken or brighten
/// an image (see ``ResamplingTaps``). (libyuv's `ARGBScale` was measured to turn a flat 200 into 198 and 255 into 253 in every
/// filter mode in Debian 12's build, so Flipbook scales itself.)
enum ImageScaler {
    /// Scales `image`, `width` x `height` pixels of `channels` bytes (1, 3 or 4) tightly packed, to
    /// `newWidth` x `newHeight` pixels of the same layout.
    static func scale(
        _ image: [UInt8], width: Int, height: Int, channels: Int, toWidth newWidth: Int, height newHeight: Int
    ) -> [UInt8] {
        precondition(image.count >= width * height * channels, "\(image.count) bytes for \(width)x\(height)")
        let layout: ResamplingLayout =
            switch channels {
            case 1: .gray
            case 3: .rgb
            default: .rgba
            }
        return PixelKernels.resample(
            image, region: PixelRect(x: 0, y: 0, width: width, height: height), bytesPerRow: width * channels,
            layout: layout, columns: ResamplingTaps(from: width, to: newWidth),
            rows: ResamplingTaps(from: height, to: newHeight))
    }

    /// Scales `region` of `frame` to `newWidth` x `newHeight` tightly packed RGB pixels, reading the
    /// region where it lies. Alpha is ignored: for RGB frames and opaque RGBA or BGRA frames.
    static func scaleToRGB(_ frame: Frame, region: PixelRect, toWidth newWidth: Int, height newHeight: Int) -> [UInt8] {
        let layout: ResamplingLayout =
            switch frame.format {
            case .rgb: .rgb
            case .rgba: .rgbaToRGB
            case .bgra: .bgraToRGB
            }
        return PixelKernels.resample(
            frame.pixels, region: region, bytesPerRow: frame.bytesPerRow, layout: layout,
            columns: ResamplingTaps(from: region.width, to: newWidth),
            rows: ResamplingTaps(from: region.height, to: newHeight))
    }
}

/// The bytes of the pixels a resampling reads, and of those it writes.
enum ResamplingLayout: Sendable {
    /// 1 byte a pixel in and out.
    case gray
    /// 3 bytes a pixel in and out.
    case rgb
    /// 4 bytes a pixel in and out, the fourth filtered like a colour.
    case rgba
    /// RGBA in, RGB out (alpha dropped).
    case rgbaToRGB
    /// BGRA in, RGB out (alpha dropped).
    case bgraToRGB

    /// Bytes a source pixel takes.
    var sourceChannels: Int {
        switch self {
        case .gray: 1
        case .rgb: 3
        case .rgba, .rgbaToRGB, .bgraToRGB: 4
        }
    }

    /// Bytes an output pixel takes.
    var outputChannels: Int {
        switch self {
        case .gray: 1
        case .rgba: 4
        case .rgb, .rgbaToRGB, .bgraToRGB: 3
        }
    }
}
