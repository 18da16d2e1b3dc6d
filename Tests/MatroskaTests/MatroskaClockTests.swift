import Testing

@testable import Matroska

/// Every time on the tick nearest it, from the exact time: nothing drifts at any length.
@Suite struct MatroskaClockTests {
    @Test func framesAtNTSCRatesLieWithinHalfATickForAnHour() {
        // 29.97 fps in ticks of 30000 a second: frame i at 1001 i.
        for frame in stride(from: Int64(0), to: 108_000, by: 1) {
            let ticks = MatroskaClock.ticks(frame * 1001, timescale: 30000)
            let exact = Double(frame) * 1001 / 30000 * 10_000
            #expect(abs(Double(ticks) - exact) <= 0.5, "frame \(frame): \(ticks) for \(exact)")
            if abs(Double(ticks) - exact) > 0.5 { return }
        }
    }

    @Test func halvesRoundAwayFromZero() {
        // 1/20000 s is half a tick.
        #expect(MatroskaClock.ticks(1, timescale: 20000) == 1)
        #expect(MatroskaClock.ticks(-1, timescale: 20000) == -1)
        #expect(MatroskaClock.ticks(1, timescale: 30000) == 0)
        #expect(MatroskaClock.nanoseconds(1024, timescale: 48000) == 21_333_333)
        #expect(MatroskaClock.nanoseconds(312, timescale: 48000) == 6_500_000)
    }

    @Test func aYearAtMicrosecondsDoesNotOverflow() {
        let year = Int64(365 * 86_400) * 1_000_000
        #expect(MatroskaClock.ticks(year, timescale: 1_000_000) == Int64(365 * 86_400) * 10_000)
    }
}
