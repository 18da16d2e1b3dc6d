import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// A frame of an MP4 lasts at most 2^32 - 1 ticks (39.8 hours at 29.97 fps's 30000 ticks a second).
/// A time, duration or end that would make one last longer is refused, naming the frame and what
/// to do, where the sample table used to wrap it (ffprobe then showed the frame at pts -1).
@Suite struct LongGapTests {
    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as FlipbookError {
            return error.code == .invalidTimestamp ? error.message : "code \(error.code)"
        } catch {
            return "\(error)"
        }
    }

    @Test func aGapDurationOrEndPast32BitsOfTicksIsRefused() throws {
        let hours = { (count: Int64) in MediaTime(value: count * 3600 * 30000, timescale: 30000) }
        var timeline = try MovieTimeline(timescale: 30000, frameRate: .ntsc30)
        _ = try timeline.schedule(at: .zero, duration: nil)
        let gap = Self.message { _ = try timeline.schedule(at: hours(40), duration: nil) }
        #expect(
            gap?.contains("is longer than a frame of an MP4 can last: 4294967295 ticks, 39.8 hours") == true,
            "\(gap ?? "none")")
        #expect(gap?.contains("set a smaller timescale") == true)
        // The refused frame left nothing behind: a gap that fits is taken next.
        #expect(try timeline.schedule(at: hours(30), duration: nil) == 30 * 3600 * 30000)
        #expect(
            Self.message { _ = try timeline.schedule(at: hours(31), duration: hours(40)) }?.hasPrefix("the duration")
                == true)
        #expect(Self.message { try timeline.extendLatest(until: hours(80)) }?.hasPrefix("the end time") == true)
        try timeline.extendLatest(until: hours(60))
    }

    @Test func theWriterRefusesTheFrameAndStaysUsable() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("gap.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 64, height: 48, frameRate: .ntsc30))
        let frame = try MovieWriterTests.syntheticFrame(0, width: 64, height: 48)
        try await writer.append(frame, at: .zero)
        await #expect(throws: FlipbookError.self) {
            try await writer.append(frame, at: MediaTime(value: 40 * 3600, timescale: 1))
        }
        try await writer.append(frame, at: MediaTime(value: 1001, timescale: 30000))
        _ = try await writer.finish()
        let frames = try Judge.frames(of: url.path)
        #expect(frames.map(\.pts) == [0, 1001], "the two frames kept, at their times")
    }
}
