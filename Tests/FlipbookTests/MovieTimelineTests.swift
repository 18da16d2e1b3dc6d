import ISOBMFF
import Testing

@testable import Flipbook

@Suite struct MovieTimelineTests {
    @Test(arguments: [
        (FrameRate(30), 15360, 512), (FrameRate.ntsc30, 30000, 1001), (FrameRate(25, 2), 12800, 1024),
        (FrameRate(1000), 16000, 16), (FrameRate(7), 14336, 2048),
    ])
    func timeScaleIsAnExactMultipleOfTheRate(rate: FrameRate, timescale: Int32, frameDuration: Int64) {
        let timeline = MovieTimeline(frameRate: rate)
        #expect(timeline.timescale == timescale)
        #expect(timeline.frameDuration == frameDuration)
        #expect(timeline.presentationTime(ofFrame: 300) == 300 * frameDuration)
    }

    @Test func reorderedFramesGetCompositionOffsetsAndAnEditList() {
        // Presentation order 0 1 2 3 coded as I P B B with two frames of delay, as x264 does.
        var timeline = MovieTimeline(frameRate: FrameRate(30))
        let d: Int64 = 512
        let packets = [(0, -2 * d, true), (3 * d, -d, false), (d, 0, false), (2 * d, d, false)].map {
            EncodedPacket(data: [0, 0, 0, 1, 0x65], presentationTime: $0.0, decodeTime: $0.1, isKeyframe: $0.2)
        }
        var samples = packets.compactMap { timeline.add($0) }
        samples += [timeline.finish()].compactMap { $0 }
        #expect(samples.count == 4)
        // The last sample lasts until the last presented frame ends: the media then ends exactly at
        // shift + 4 frames, which is where the edit list's segment ends too.
        #expect(samples.map(\.duration) == [512, 512, 512, 1536])
        let mediaDuration: UInt32 = samples.map(\.duration).reduce(0, +)
        #expect(mediaDuration == 6 * 512)
        #expect(samples.map(\.compositionOffset) == [1024, 2048, 512, 512])
        #expect(samples.map(\.isSync) == [true, false, false, false])
        let edit = timeline.editList(frames: 4)
        #expect(edit?.mediaTime == 1024)
        #expect(edit?.segmentDuration == 2048)
    }

    @Test func framesInOrderNeedNoEditList() {
        var timeline = MovieTimeline(frameRate: FrameRate(30))
        for index in 0..<3 {
            let time = timeline.presentationTime(ofFrame: index)
            _ = timeline.add(EncodedPacket(data: [1], presentationTime: time, decodeTime: time, isKeyframe: index == 0))
        }
        #expect(timeline.finish()?.duration == 512)
        #expect(timeline.editList(frames: 3) == nil)
    }
}

@Suite struct WriterLifecycleTests {
    @Test func finishedWriterRefusesMoreWork() throws {
        var lifecycle = WriterLifecycle()
        try lifecycle.checkWritable(for: "append")
        lifecycle.finished()
        #expect(throws: FlipbookError.self) { try lifecycle.checkWritable(for: "append") }
        #expect(lifecycle.cancel() == false, "cancel after finish does nothing")
        #expect(lifecycle.state == .finished)
    }

    @Test func theFirstFailureIsKeptAndThrownAgain() {
        var lifecycle = WriterLifecycle()
        lifecycle.fail(FlipbookError(.encoderFailed, "first"))
        lifecycle.fail(FlipbookError(.outputNotWritable, "second"))
        #expect(lifecycle.state == .failed)
        do {
            try lifecycle.checkWritable(for: "append")
            Issue.record("a failed writer must throw")
        } catch let error as FlipbookError {
            #expect(error.code == .encoderFailed)
            #expect(error.message == "first")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func cancelIsIdempotent() {
        var lifecycle = WriterLifecycle()
        #expect(lifecycle.cancel() == true)
        #expect(lifecycle.cancel() == false)
        #expect(lifecycle.state == .cancelled)
    }
}
