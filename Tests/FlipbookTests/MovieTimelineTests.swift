import ISOBMFF
import MediaModel
import Testing

@testable import Flipbook

@Suite struct MovieTimelineTests {
    @Test(arguments: [
        (FrameRate(30), 12000, 400), (FrameRate.ntsc30, 30000, 1001), (FrameRate(25, 2), 16000, 1280),
        (FrameRate(25), 16000, 640), (FrameRate.ntsc24, 24000, 1001), (FrameRate(7), 14000, 2000),
        (FrameRate(1, 2), 16000, 32000),
    ])
    func defaultTimeScaleIsExactForFramesAndMilliseconds(rate: FrameRate, timescale: Int32, frameDuration: Int64) throws
    {
        let settings = VideoSettings(width: 2, height: 2, frameRate: rate)
        #expect(settings.resolvedTimescale == timescale)
        #expect(settings.resolvedTimescale % 1000 == 0)
        let timeline = try MovieTimeline(timescale: settings.resolvedTimescale, frameRate: rate)
        #expect(timeline.nominalFrameDuration == frameDuration)
    }

    @Test func aTimeScaleThatCannotExpressAFrameIsRefused() {
        #expect(throws: FlipbookError.self) { try MovieTimeline(timescale: 1000, frameRate: .ntsc30) }
    }

    @Test func reorderedFramesGetCompositionOffsetsAndAnEditList() throws {
        // Presentation order 0 1 2 3 coded as I P B B with two frames of delay, as x264 does.
        var timeline = try MovieTimeline(timescale: 12000, frameRate: FrameRate(30))
        let d: Int64 = 400  // ticks a frame at 30 fps in 12000
        for index in 0..<4 { #expect(try timeline.schedule(at: nil, duration: nil) == Int64(index) * d) }
        // The encoder counts in frame numbers; the timeline turns them into ticks.
        let packets = [(0, -2, true), (3, -1, false), (1, 0, false), (2, 1, false)].map {
            EncodedPacket(data: [0, 0, 0, 1, 0x65], presentationTime: $0.0, decodeTime: $0.1, isKeyframe: $0.2)
        }
        var samples: [MediaSample] = try packets.compactMap { try timeline.add($0) }
        samples += [try timeline.finish()].compactMap { $0 }
        #expect(samples.count == 4)
        // The last sample lasts until the last presented frame ends: the media then ends exactly at
        // shift + 4 frames, which is where the edit list's segment ends too.
        #expect(samples.map(\.duration) == [400, 400, 400, 1200])
        #expect(samples.map(\.compositionOffset) == [800, 1600, 400, 400])
        #expect(samples.map(\.isSync) == [true, false, false, false])
        let edits = timeline.editList()
        #expect(edits?.count == 1)
        #expect(edits?.first?.mediaTime == 800)
        #expect(edits?.first?.segmentDuration == 1600)
    }

    @Test func framesInOrderNeedNoEditList() throws {
        var timeline = try MovieTimeline(timescale: 12000, frameRate: FrameRate(30))
        for index in 0..<3 {
            let time = try timeline.schedule(at: nil, duration: nil)
            #expect(time == Int64(index) * 400)
            _ = try timeline.add(
                EncodedPacket(
                    data: [1], presentationTime: Int64(index), decodeTime: Int64(index), isKeyframe: index == 0))
        }
        #expect(try timeline.finish()?.duration == 400)
        #expect(timeline.editList() == nil)
    }

    @Test func aReorderedFrameShownMoreThan32BitsOfTicksAfterItIsDecodedIsRefusedNotClamped() throws {
        // Frames 30 hours apart at 29.97 fps: each fits a sample, but the P-frame coded before the
        // B-frame between them is shown 60 hours after it is decoded.
        var timeline = try MovieTimeline(timescale: 30000, frameRate: FrameRate(30000, 1001))
        let hours30 = MediaTime(value: 30 * 3600, timescale: 1)
        for index in 0..<3 {
            try timeline.schedule(at: MediaTime(value: Int64(index) * hours30.value, timescale: 1), duration: nil)
        }
        let packets = [(0, -2, true), (2, -1, false), (1, 0, false)].map {
            EncodedPacket(data: [1], presentationTime: $0.0, decodeTime: $0.1, isKeyframe: $0.2)
        }
        #expect(try timeline.add(packets[0]) == nil)
        #expect(try timeline.add(packets[1])?.compositionOffset == 2002)
        let error = #expect(throws: FlipbookError.self) { try timeline.add(packets[2]) }
        #expect(error?.code == .invalidTimestamp)
        #expect(error?.frameIndex == 2)
        #expect(error?.message.contains("bFrames = 0") == true, "\(error?.message ?? "")")
    }

    @Test func aLateFirstFrameGetsAnEmptyEdit() throws {
        var timeline = try MovieTimeline(timescale: 12000, frameRate: FrameRate(30))
        let start = try timeline.schedule(at: MediaTime(value: 1, timescale: 1), duration: nil)
        #expect(start == 12000)
        _ = try timeline.add(EncodedPacket(data: [1], presentationTime: 0, decodeTime: 0, isKeyframe: true))
        #expect(try timeline.finish()?.duration == 400)
        let edits = try #require(timeline.editList())
        #expect(edits.map(\.mediaTime) == [-1, 0])
        #expect(edits.map(\.segmentDuration) == [12000, 400])
    }

    @Test func scheduleValidatesWithoutChangingStateOnError() throws {
        var timeline = try MovieTimeline(timescale: 12000, frameRate: FrameRate(30))
        _ = try timeline.schedule(at: MediaTime(value: 1, timescale: 1), duration: MediaTime(value: 1, timescale: 2))
        #expect(throws: FlipbookError.self) {
            try timeline.schedule(at: MediaTime(value: 5, timescale: 4), duration: nil)
        }
        #expect(throws: FlipbookError.self) {
            try timeline.schedule(at: MediaTime(value: 1, timescale: 1), duration: nil)
        }
        #expect(throws: FlipbookError.self) {
            try timeline.schedule(at: nil, duration: MediaTime(value: -1, timescale: 1))
        }
        #expect(timeline.frameCount == 1)
        #expect(try timeline.schedule(at: nil, duration: nil) == 18000)
        #expect(timeline.presentationEnd == 18400)
    }
}
