/// A frame rate as an exact fraction of frames per second: 30, 25, 24000/1001, 30000/1001, 12.5 …
///
/// Rates are kept as integers so that time never drifts: frame `i` of a 29.97 fps movie starts at
/// exactly `i * 1001 / 30000` seconds.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    /// Frames, per ``denominator`` seconds.
    public let numerator: Int
    /// Seconds over which ``numerator`` frames are shown.
    public let denominator: Int

    /// Creates a rate of `numerator / denominator` frames per second, reduced to lowest terms.
    ///
    /// - Precondition: Both values are positive and no larger than 1,000,000.
    public init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(
            numerator > 0 && denominator > 0 && numerator <= 1_000_000 && denominator <= 1_000_000,
            "frame rate \(numerator)/\(denominator) must have both terms in 1...1000000")
        let divisor = Int(gcd64(Int64(numerator), Int64(denominator)))
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    /// The common NTSC rate 30000/1001 (29.97 fps).
    public static let ntsc30 = FrameRate(30000, 1001)
    /// The film-on-NTSC rate 24000/1001 (23.976 fps).
    public static let ntsc24 = FrameRate(24000, 1001)
    /// The NTSC rate 60000/1001 (59.94 fps).
    public static let ntsc60 = FrameRate(60000, 1001)

    /// Parses a rate as people write it: `30`, `12.5`, `30000/1001`, and the NTSC spellings
    /// `29.97`, `23.976`, `59.94` (and `119.88`), which mean the exact rationals `n*1000/1001`.
    ///
    /// Returns `nil` for text that is not a positive rate up to 1000 fps.
    ///
    /// - Parameter text: The rate as written, such as `--fps` takes it; spaces around it are ignored.
    public init?(parsing text: String) {
        let trimmed = text.trimmingWhitespace()
        if let slash = trimmed.firstIndex(of: "/") {
            guard let top = Int(trimmed[..<slash]), let bottom = Int(trimmed[trimmed.index(after: slash)...]),
                top > 0, bottom > 0, top <= 1_000_000, bottom <= 1_000_000, top <= bottom * 1000
            else { return nil }
            self.init(top, bottom)
            return
        }
        if let whole = Int(trimmed) {
            guard whole > 0, whole <= 1000 else { return nil }
            self.init(whole)
            return
        }
        let ntsc = ["23.976": 24, "23.98": 24, "29.97": 30, "47.952": 48, "59.94": 60, "119.88": 120]
        if let nominal = ntsc[trimmed] {
            self.init(nominal * 1000, 1001)
            return
        }
        // A plain decimal: exact as a fraction over a power of ten.
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let whole = Int(parts[0].isEmpty ? "0" : parts[0]), whole >= 0,
            parts[1].count <= 5, !parts[1].isEmpty, parts[1].allSatisfy(\.isASCIIDigit),
            let fraction = Int(parts[1])
        else { return nil }
        var scale = 1
        for _ in 0..<parts[1].count { scale *= 10 }
        let top = whole * scale + fraction
        guard top > 0, whole <= 1000 else { return nil }
        self.init(top, scale)
    }

    /// How long one frame lasts: exactly `denominator / numerator` seconds.
    public var frameDuration: MediaTime {
        MediaTime(value: Int64(denominator), timescale: Int32(numerator))
    }

    /// The rate in frames per second, for display only.
    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
