/// The time base of the Matroska and WebM files Flipbook writes: ticks of 100 µs
/// (`TimestampScale` 100000 ns), and each time put on the tick nearest it.
///
/// Matroska times are whole ticks of one scale for the whole file, and a block's time is a signed
/// 16-bit offset from its cluster's. Millisecond ticks (the usual scale) put a 30 fps frame up to
/// half a millisecond from its time; ticks of 100 µs put it within 50 µs, and still let a cluster
/// span 3.2 seconds. No tick of whole nanoseconds holds 1/30 s exactly, so each time is rounded from
/// the exact time, never from the previous frame's: nothing drifts, at any length.
package enum MatroskaClock {
    /// Nanoseconds a tick.
    package static let nanosecondsPerTick: UInt64 = 100_000
    /// Ticks a second.
    package static let ticksPerSecond: Int64 = 10_000

    /// The tick nearest `time` units of `timescale` a second (halves away from zero).
    package static func ticks(_ time: Int64, timescale: UInt32) -> Int64 {
        rounded(time, times: UInt64(ticksPerSecond), over: UInt64(timescale))
    }

    /// `time` units of `timescale` a second in ticks, not rounded: a `Duration`.
    package static func exactTicks(_ time: Int64, timescale: UInt32) -> Double {
        Double(time) * Double(ticksPerSecond) / Double(timescale)
    }

    /// `time` units of `timescale` a second in nanoseconds, rounded.
    package static func nanoseconds(_ time: Int64, timescale: UInt32) -> Int64 {
        rounded(time, times: 1_000_000_000, over: UInt64(timescale))
    }

    /// `value × numerator / denominator`, rounded to the nearest whole number, halves away from zero.
    private static func rounded(_ value: Int64, times numerator: UInt64, over denominator: UInt64) -> Int64 {
        precondition(denominator > 0, "a timescale of 0")
        let product = value.magnitude.multipliedFullWidth(by: numerator)
        guard product.high < denominator else { return value < 0 ? Int64.min : Int64.max }
        let (quotient, remainder) = denominator.dividingFullWidth(product)
        let magnitude = quotient + (remainder >= denominator - remainder ? 1 : 0)
        let clamped = Int64(clamping: magnitude)
        return value < 0 ? -clamped : clamped
    }
}
