import Matroska

/// How a Matroska or WebM segment's block times become its frames' times on the movie's clock again,
/// exactly, and the decode times its blocks had.
///
/// A block's time is its frame's presentation time rounded to a tick of 100 µs (``MatroskaClock``),
/// which the movie's clock (12000 ticks a second for 30 fps, 30000 for 29.97) cannot always get
/// back from alone. But every frame of a segment starts a whole number of nominal frames into the
/// sequence, and a frame is many ticks long, so the frame a block time stands for is the nearest
/// one: its time is a whole number of ``frameDuration``, checked to round to the block's time again.
///
/// Matroska keeps no decode times. Blocks are stored in decode order, so the `k`-th block is decoded
/// at the `k`-th earliest presentation time, less the encoder's reordering delay: the fewest frames
/// that keep every decode time at or before its frame's presentation. The first blocks of the delay
/// are decoded whole nominal frames before the first presentation, as the encoder's were.
struct MatroskaSegmentClock {
    /// The movie's ticks a second.
    let timescale: Int64
    /// A frame's nominal length in the movie's ticks.
    let frameDuration: Int64

    /// The shortest frame, in 100 µs ticks, whose block times are told apart after rounding.
    static let shortestFrameInTicks: Int64 = 3

    /// Whether frames are long enough for their block times to name them.
    var isExact: Bool {
        timescale > 0 && frameDuration > 0
            && frameDuration.multipliedReportingOverflow(by: MatroskaClock.ticksPerSecond).partialValue
                >= Self.shortestFrameInTicks * timescale
    }

    /// The movie time of the frame whose block time is `ticks`, or `nil` when no frame's time rounds
    /// to within a tick of it (the file was not written with this clock).
    func movieTime(ofTicks ticks: Int64) -> Int64? {
        let frames = (Double(ticks) * Double(timescale) / Double(MatroskaClock.ticksPerSecond) / Double(frameDuration))
            .rounded()
        guard frames.magnitude < 1e15 else { return nil }
        let (time, overflow) = Int64(frames).multipliedReportingOverflow(by: frameDuration)
        guard !overflow, timescale <= Int64(UInt32.max) else { return nil }
        // The session rounds a segment's empty edit and its media times apart: a tick either way.
        let back = MatroskaClock.ticks(time, timescale: UInt32(timescale))
        return abs(back - ticks) <= 1 ? time : nil
    }

    /// The movie time of a length of `ticks` (the segment's `Duration`, a float), on the movie's clock;
    /// `nil` for one that is not a finite length a movie can have.
    func movieTime(ofDuration ticks: Double) -> Int64? {
        let time = (ticks * Double(timescale) / Double(MatroskaClock.ticksPerSecond)).rounded()
        guard time.isFinite, time >= 0, time < 9.0e18 else { return nil }
        return Int64(time)
    }

    /// The fewest frames of reordering delay that keep every decode time at or before its frame's
    /// presentation, given the presentation times in decode order (all different).
    static func reorderDelay(presentation: [Int64]) -> Int {
        let sorted = presentation.sorted()
        var rank: [Int64: Int] = [:]
        for (index, time) in sorted.enumerated() { rank[time] = index }
        // The k-th block is decoded at the (k - delay)-th presentation time, which must not be later
        // than its own: its rank is at least k - delay.
        return presentation.indices.map { $0 - rank[presentation[$0]]! }.max().map { max(0, $0) } ?? 0
    }

    /// The decode time of each frame, given the presentation times in decode order (all different),
    /// `delay` frames behind them (at least ``reorderDelay(presentation:)``; a segment too short for
    /// the encoder's reordering takes the delay of the segments around it, so that decode times
    /// follow on from one to the next).
    func decodeTimes(presentation: [Int64], delay: Int? = nil) -> [Int64] {
        let sorted = presentation.sorted()
        let delay = max(delay ?? 0, Self.reorderDelay(presentation: presentation))
        return presentation.indices.map { index in
            index >= delay ? sorted[index - delay] : sorted[0] - Int64(delay - index) * frameDuration
        }
    }
}
