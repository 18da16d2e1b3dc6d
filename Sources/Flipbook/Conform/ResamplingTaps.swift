/// For each output position along one axis: the first source position it reads and ``count``
/// integer weights (summing to 2^14) of the consecutive source positions from there.
///
/// Shrinking, each output sample is the mean of the source samples its footprint covers, weighted by
/// overlap (an area or box filter). Enlarging, it is the Catmull-Rom cubic through the four nearest
/// source samples, pixel centres aligned: sharper than bilinear, exact on linear ramps, with a
/// slight overshoot at hard edges that the final rounding clamps to 0...255. At the image's edges
/// the centre is clamped to the outer sample and taps past the edge read the edge sample, so the
/// outer pixels keep their values.
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
        self.init(from: sourceCount, window: 0..<Double(sourceCount), to: outputCount)
    }

    /// Taps that resample the part `window` of `sourceCount` positions (in source positions, ends
    /// that may fall between samples, within `0...sourceCount`) to `outputCount` positions: how a
    /// chroma plane follows a crop of luma that starts or ends between two chroma samples.
    init(from sourceCount: Int, window: Range<Double>, to outputCount: Int) {
        precondition(sourceCount > 0 && outputCount > 0, "resampling \(sourceCount) to \(outputCount)")
        precondition(
            window.lowerBound >= 0 && window.upperBound <= Double(sourceCount) && !window.isEmpty,
            "window \(window) of \(sourceCount)")
        self.sourceCount = sourceCount
        let start = window.lowerBound
        let ratio = (window.upperBound - window.lowerBound) / Double(outputCount)
        // Area weights reach over at most ceil(ratio) + 1 source positions, Catmull-Rom over 4.
        let most = min(sourceCount, ratio >= 1 ? Int(ratio.rounded(.up)) + 1 : 4)
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
                let low = start + Double(position) * ratio
                let high = min(low + ratio, Double(sourceCount))
                first = Int(low.rounded(.down))
                for source in first..<min(sourceCount, Int(high.rounded(.up))) {
                    let overlap = min(high, Double(source + 1)) - max(low, Double(source))
                    if overlap > 1e-9 {
                        if real.isEmpty { first = source }
                        real.append(overlap)
                    }
                }
            } else {
                (first, real) = Self.catmullRom(
                    centre: start + (Double(position) + 0.5) * ratio - 0.5, sourceCount: sourceCount)
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

    /// The Catmull-Rom weights of the consecutive source positions from `first` for a sample at
    /// `centre` (in source positions), the centre clamped to the outer samples and taps past an edge
    /// folded onto the edge sample; zero weights at either end left out.
    private static func catmullRom(centre unclamped: Double, sourceCount: Int) -> (first: Int, weights: [Double]) {
        let centre = min(max(unclamped, 0), Double(sourceCount - 1))
        let base = Int(centre.rounded(.down))
        let t = centre - Double(base)
        let (t2, t3) = (t * t, t * t * t)
        let kernel = [(-t3 + 2 * t2 - t) / 2, (3 * t3 - 5 * t2 + 2) / 2, (-3 * t3 + 4 * t2 + t) / 2, (t3 - t2) / 2]
        var first = max(base - 1, 0)
        var weights = [Double](repeating: 0, count: min(base + 2, sourceCount - 1) - first + 1)
        for (offset, weight) in kernel.enumerated() {
            weights[min(max(base - 1 + offset, 0), sourceCount - 1) - first] += weight
        }
        while weights.count > 1, abs(weights[weights.count - 1]) < 1e-12 { weights.removeLast() }
        while weights.count > 1, abs(weights[0]) < 1e-12 {
            weights.removeFirst()
            first += 1
        }
        return (first, weights)
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
