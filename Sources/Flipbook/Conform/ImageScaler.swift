/// Resamples 8-bit interleaved images: an area (box) filter when shrinking, bilinear when enlarging.
///
/// Separable, in C (`flipbook_resample`): each output row sums the source rows it covers, then the
/// columns, with 8 extra bits in between. Each output sample's weights are integers summing to
/// exactly 2^14, so a flat colour stays exactly that colour and the filters never darken or brighten
/// an image. (libyuv's `ARGBScale` was measured to turn a flat 200 into 198 and 255 into 253 in every
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

/// For each output position along one axis: the first source position it reads and ``count``
/// integer weights (summing to 2^14) of the consecutive source positions from there.
///
/// Every position has the same number of taps (the most any needs, unused ones zero), and the taps
/// never reach past the source: near the far edge the first position moves back and the weights
/// start with zeros.
struct ResamplingTaps: Sendable {
    /// Source positions.
    let sourceCount: Int
    /// Taps per output position.
    private(set) var count = 0
    /// Per output position, the first source position read.
    private(set) var firsts: [Int32] = []
    /// Per output position, ``count`` weights.
    private(set) var weights: [Int16] = []

    static let one = 1 << 14

    init(from sourceCount: Int, to outputCount: Int) {
        precondition(sourceCount > 0 && outputCount > 0, "resampling \(sourceCount) to \(outputCount)")
        self.sourceCount = sourceCount
        let ratio = Double(sourceCount) / Double(outputCount)
        // Area weights reach over at most ceil(ratio) + 1 source positions, bilinear over 2.
        let most = min(sourceCount, ratio >= 1 ? Int(ratio.rounded(.up)) + 1 : 2)
        var firsts: [Int32] = []
        var quantised: [[Int]] = []
        firsts.reserveCapacity(outputCount)
        quantised.reserveCapacity(outputCount)
        var real: [Double] = []
        for position in 0..<outputCount {
            real.removeAll(keepingCapacity: true)
            var first = 0
            if ratio >= 1 {
                // Area: the overlap of this output sample's footprint with each source sample.
                let low = Double(position) * ratio
                let high = low + ratio
                first = Int(low.rounded(.down))
                for source in first..<min(sourceCount, Int(high.rounded(.up))) {
                    let overlap = min(high, Double(source + 1)) - max(low, Double(source))
                    if overlap > 1e-9 {
                        if real.isEmpty { first = source }
                        real.append(overlap)
                    }
                }
            } else {
                // Bilinear, pixel centres aligned, edges clamped.
                let centre = min(max((Double(position) + 0.5) * ratio - 0.5, 0), Double(sourceCount - 1))
                first = Int(centre.rounded(.down))
                let fraction = centre - Double(first)
                real.append(1 - fraction)
                if first + 1 < sourceCount && fraction > 1e-9 { real.append(fraction) }
            }
            firsts.append(Int32(first))
            quantised.append(Self.quantise(real))
        }
        count = quantised.map(\.count).max()!
        precondition(count <= most, "\(count) taps resampling \(sourceCount) to \(outputCount)")
        weights = [Int16](repeating: 0, count: outputCount * count)
        for position in 0..<outputCount {
            let taps = quantised[position]
            // Moved back where the taps would reach past the last source position.
            let first = min(Int(firsts[position]), sourceCount - count)
            let skip = Int(firsts[position]) - first
            for (index, weight) in taps.enumerated() { weights[position * count + skip + index] = Int16(weight) }
            firsts[position] = Int32(first)
        }
        self.firsts = firsts
    }

    /// One output sample's weights as integers summing to exactly ``one``.
    private static func quantise(_ real: [Double]) -> [Int] {
        let total = real.reduce(0, +)
        var quantised = real.map { Int(($0 / total * Double(one)).rounded()) }
        let largest = quantised.indices.max { quantised[$0] < quantised[$1] }!
        quantised[largest] += one - quantised.reduce(0, +)
        return quantised
    }

    /// Output positions.
    var outputCount: Int { firsts.count }

    /// The first source position and the ``count`` weights for output position `position`.
    func taps(_ position: Int) -> (first: Int, weights: ArraySlice<Int16>) {
        (Int(firsts[position]), weights[position * count..<(position + 1) * count])
    }
}
