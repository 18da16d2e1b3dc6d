import Matroska
import Testing

@testable import Flipbook

/// A Matroska segment's block times, rounded to 100 µs, go back to the movie's exact ticks, and its
/// decode order gets decode times no later than each frame's presentation.
@Suite struct MatroskaSegmentClockTests {
    @Test(arguments: [(12000 as Int64, 400 as Int64), (30000, 1001), (12000, 500), (60000, 1001), (90000, 3750)])
    func everyFrameTimeComesBackExactlyFromItsRoundedTick(timescale: Int64, frameDuration: Int64) throws {
        let clock = MatroskaSegmentClock(timescale: timescale, frameDuration: frameDuration)
        #expect(clock.isExact)
        for frame in [0, 1, 2, 29, 1001, 123_457, 10_000_000] as [Int64] {
            let time = frame * frameDuration
            let ticks = MatroskaClock.ticks(time, timescale: UInt32(timescale))
            for drift in [-1, 0, 1] as [Int64] {
                #expect(clock.movieTime(ofTicks: ticks + drift) == time, "frame \(frame), tick \(ticks + drift)")
            }
        }
    }

    @Test func aTimeBetweenFramesIsRefused() {
        let clock = MatroskaSegmentClock(timescale: 12000, frameDuration: 400)
        #expect(clock.movieTime(ofTicks: 167) == nil, "half a frame (333 ticks a frame) is on no frame")
    }

    @Test func framesTooShortForTheirTicksAreNotExact() {
        #expect(!MatroskaSegmentClock(timescale: 90000, frameDuration: 18).isExact, "5000 fps: 2 ticks a frame")
    }

    @Test func decodeTimesFollowTheEncodersReorderingDelay() {
        let clock = MatroskaSegmentClock(timescale: 12000, frameDuration: 400)
        // I P B B in decode order: presented 0, 3, 1, 2 frames in; one frame of delay.
        let presentation: [Int64] = [0, 1200, 400, 800, 2400, 1600, 2000]
        let decode = clock.decodeTimes(presentation: presentation)
        #expect(decode == [-400, 0, 400, 800, 1200, 1600, 2000])
        #expect(zip(decode, presentation).allSatisfy { $0 <= $1 })
        #expect(zip(decode, decode.dropFirst()).allSatisfy { $0 < $1 })
        #expect(clock.decodeTimes(presentation: [800, 1200, 1600]) == [800, 1200, 1600], "no reordering, no delay")
    }
}
