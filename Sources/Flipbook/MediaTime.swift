/// A point or span in time as an exact count of ticks of a time scale (ticks per second).
///
/// Flipbook never measures time in floating-point seconds: `MediaTime(value: 1001, timescale: 30000)`
/// is exactly one frame at 29.97 fps, and sums of such times never drift. Comparisons are exact across
/// time scales (they cross-multiply in 128 bits). Arithmetic works in the least common multiple of
/// the two time scales and traps, like integer arithmetic, when a result does not fit.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// A count of ticks.
    public let value: Int64
    /// Ticks per second, positive.
    public let timescale: Int32

    /// Creates a time of `value` ticks of `timescale` ticks per second.
    ///
    /// - Precondition: `timescale` is positive.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "a time scale must be positive, got \(timescale)")
        self.value = value
        self.timescale = timescale
    }

    /// Zero seconds.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// The start of frame `index` at `rate`: exactly `index * denominator / numerator` seconds.
    public init(frame index: Int, at rate: FrameRate) {
        self.init(value: Int64(index) * Int64(rate.denominator), timescale: Int32(rate.numerator))
    }

    /// The time nearest to `seconds` in `timescale` ticks a second.
    ///
    /// Rounding: to the nearest tick, halfway cases away from zero (`0.5` tick becomes `1`).
    /// Returns `nil` for a value that is not finite or does not fit in 64-bit ticks.
    public init?(seconds: Double, timescale: Int32) {
        guard timescale > 0, seconds.isFinite else { return nil }
        let ticks = (seconds * Double(timescale)).rounded(.toNearestOrAwayFromZero)
        guard ticks >= -9.2e18, ticks <= 9.2e18 else { return nil }
        self.init(value: Int64(ticks), timescale: timescale)
    }

    /// Parses seconds as people write them, exactly: `2`, `0.5`, `1.001`, `1/3`.
    ///
    /// A decimal becomes a fraction over a power of ten (`0.04` is `4/100`), never a rounded binary
    /// float. Returns `nil` for negative values, more than nine decimals, or values over 10^9 seconds.
    ///
    /// - Parameter text: Seconds as a whole number, a decimal or a fraction; spaces around it are ignored.
    public init?(parsingSeconds text: String) {
        let trimmed = text.trimmingWhitespace()
        if let slash = trimmed.firstIndex(of: "/") {
            guard let top = Int64(trimmed[..<slash]), let bottom = Int32(trimmed[trimmed.index(after: slash)...]),
                top >= 0, bottom > 0, top / Int64(bottom) <= 1_000_000_000
            else { return nil }
            self.init(value: top, timescale: bottom)
            return
        }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            !(parts[0].isEmpty && (parts.count == 1 || parts[1].isEmpty)),
            parts[0].count <= 10, let whole = Int64(parts[0].isEmpty ? "0" : parts[0]), whole <= 1_000_000_000
        else { return nil }
        let decimals = parts.count == 2 ? parts[1] : ""
        guard decimals.count <= 9 else { return nil }
        var scale: Int64 = 1
        for _ in 0..<decimals.count { scale *= 10 }
        let fraction = decimals.isEmpty ? 0 : Int64(decimals)!
        self.init(value: whole * scale + fraction, timescale: Int32(scale))
    }

    /// The time in seconds, for display only.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The same time with the fraction `value / timescale` in lowest terms.
    public var reduced: MediaTime {
        let divisor = gcd64(value, Int64(timescale))
        guard divisor > 1 else { return self }
        return MediaTime(value: value / divisor, timescale: Int32(Int64(timescale) / divisor))
    }

    /// The same time in ticks of `timescale`, only when it is a whole number of them.
    public func exactly(inTimescale timescale: Int32) -> MediaTime? {
        precondition(timescale > 0, "a time scale must be positive, got \(timescale)")
        let product = value.multipliedFullWidth(by: Int64(timescale))
        let (quotient, remainder) = MediaTime.divide(product, by: Int64(self.timescale))
        guard remainder == 0, let quotient else { return nil }
        return MediaTime(value: quotient, timescale: timescale)
    }

    /// The same time in ticks of `timescale`, rounded to the nearest tick (halfway away from zero).
    ///
    /// - Returns: `nil` when the result does not fit in 64-bit ticks.
    public func rounded(toTimescale timescale: Int32) -> MediaTime? {
        precondition(timescale > 0, "a time scale must be positive, got \(timescale)")
        let product = value.multipliedFullWidth(by: Int64(timescale))
        let (quotient, remainder) = MediaTime.divide(product, by: Int64(self.timescale))
        guard var ticks = quotient else { return nil }
        if 2 * remainder.magnitude >= UInt64(self.timescale) {
            let (adjusted, overflow) = ticks.addingReportingOverflow(value < 0 ? -1 : 1)
            guard !overflow else { return nil }
            ticks = adjusted
        }
        return MediaTime(value: ticks, timescale: timescale)
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        // Cross-multiplied in 128 bits so that no pair of times can overflow.
        let left = lhs.value.multipliedFullWidth(by: Int64(rhs.timescale))
        let right = rhs.value.multipliedFullWidth(by: Int64(lhs.timescale))
        return (left.high, left.low) < (right.high, right.low)
    }

    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    public func hash(into hasher: inout Hasher) {
        let time = reduced
        hasher.combine(time.value)
        hasher.combine(time.timescale)
    }

    /// The sum, in the least common multiple of the two time scales.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        let (left, right) = commonScale(lhs, rhs)
        let (sum, overflow) = left.value.addingReportingOverflow(right.value)
        precondition(!overflow, "\(lhs) + \(rhs) overflows 64-bit ticks")
        return MediaTime(value: sum, timescale: left.timescale)
    }

    /// The difference, in the least common multiple of the two time scales.
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        let (left, right) = commonScale(lhs, rhs)
        let (difference, overflow) = left.value.subtractingReportingOverflow(right.value)
        precondition(!overflow, "\(lhs) - \(rhs) overflows 64-bit ticks")
        return MediaTime(value: difference, timescale: left.timescale)
    }

    /// The time `count` times over.
    public static func * (lhs: MediaTime, count: Int) -> MediaTime {
        let (product, overflow) = lhs.value.multipliedReportingOverflow(by: Int64(count))
        precondition(!overflow, "\(lhs) x \(count) overflows 64-bit ticks")
        return MediaTime(value: product, timescale: lhs.timescale)
    }

    public var description: String {
        "\(value)/\(timescale) s"
    }

    /// Both times in the least common multiple of their time scales.
    private static func commonScale(_ a: MediaTime, _ b: MediaTime) -> (MediaTime, MediaTime) {
        if a.timescale == b.timescale { return (a, b) }
        let scale = lcm64(Int64(a.timescale), Int64(b.timescale))
        precondition(scale <= Int64(Int32.max), "no common time scale for \(a) and \(b) fits in 32 bits")
        guard let left = a.exactly(inTimescale: Int32(scale)), let right = b.exactly(inTimescale: Int32(scale)) else {
            preconditionFailure("\(a) or \(b) overflows 64-bit ticks in time scale \(scale)")
        }
        return (left, right)
    }

    /// Divides a 128-bit signed value by a positive divisor; the quotient is `nil` when it does not
    /// fit in 64 bits. Truncates toward zero.
    private static func divide(_ dividend: (high: Int64, low: UInt64), by divisor: Int64) -> (Int64?, Int64) {
        let negative = dividend.high < 0
        // Magnitude of the 128-bit value.
        var high = UInt64(bitPattern: dividend.high)
        var low = dividend.low
        if negative {
            low = ~low &+ 1
            high = ~high &+ (low == 0 ? 1 : 0)
        }
        let d = UInt64(divisor)
        guard high < d else { return (nil, 0) }
        let (q, r) = d.dividingFullWidth((high: high, low: low))
        guard q <= (negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)) else { return (nil, 0) }
        let quotient = negative ? (q == UInt64(Int64.max) + 1 ? Int64.min : -Int64(q)) : Int64(q)
        return (quotient, negative ? -Int64(r) : Int64(r))
    }
}

func gcd64(_ a: Int64, _ b: Int64) -> Int64 {
    var (x, y) = (a.magnitude, b.magnitude)
    while y != 0 { (x, y) = (y, x % y) }
    return Int64(clamping: x)
}

func lcm64(_ a: Int64, _ b: Int64) -> Int64 {
    let (product, overflow) = (a / gcd64(a, b)).multipliedReportingOverflow(by: b)
    return overflow ? Int64.max : product
}
