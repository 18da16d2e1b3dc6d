/// A point or span in time as an exact count of ticks of a time scale (ticks per second).
///
/// Flipbook never measures time in floating-point seconds: `MediaTime(value: 1001, timescale: 30000)`
/// is exactly one frame at 29.97 fps.
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

    /// The time in seconds, for display only.
    public var seconds: Double { Double(value) / Double(timescale) }

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
        let divisor = gcd(Int(value), Int(timescale))
        hasher.combine(value / Int64(max(divisor, 1)))
        hasher.combine(Int64(timescale) / Int64(max(divisor, 1)))
    }

    public var description: String {
        "\(value)/\(timescale) s"
    }
}
