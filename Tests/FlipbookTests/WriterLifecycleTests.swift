import Testing

@testable import Flipbook

/// The writer's rules as a value: every event's outcome, without threads or files.
@Suite struct WriterLifecycleTests {
    @Test func aFrameIsAdmittedThenTheNextWaitsForItsEncode() {
        var lifecycle = WriterLifecycle()
        #expect(lifecycle.admitFrame() == .proceed)
        lifecycle.frameAdmitted()
        #expect(lifecycle.state == .writing(encoding: true))
        #expect(lifecycle.mayEncode)
        #expect(lifecycle.admitFrame() == .waitForEncode)
        #expect(lifecycle.beginFinish() == .waitForEncode, "finish waits for the frame in flight too")
        lifecycle.encodeSucceeded()
        #expect(lifecycle.admitFrame() == .proceed)
    }

    @Test func finishingRefusesFramesAndEndsFinished() throws {
        var lifecycle = WriterLifecycle()
        #expect(lifecycle.beginFinish() == .proceed)
        #expect(lifecycle.state == .finishing)
        guard case .refuse(let error) = lifecycle.admitFrame() else {
            Issue.record("a frame during finish must be refused")
            return
        }
        #expect(error.code == .invalidState)
        lifecycle.finishSucceeded()
        #expect(lifecycle.state == .finished)
        #expect(lifecycle.cancel() == .none, "cancel after finish does nothing")
        #expect(throws: FlipbookError.self) { try lifecycle.checkWritable(for: "append") }
        guard case .refuse(let again) = lifecycle.beginFinish() else {
            Issue.record("a second finish must be refused")
            return
        }
        #expect(again.code == .invalidState)
    }

    @Test func anEncodeFailureDiscardsTheOutputAndIsThrownByEveryLaterCall() {
        var lifecycle = WriterLifecycle()
        lifecycle.frameAdmitted()
        #expect(lifecycle.fail(FlipbookError(.encoderFailed, "first")) == .discardOutput)
        #expect(lifecycle.fail(FlipbookError(.outputNotWritable, "second")) == .none, "later failures are consequences")
        #expect(lifecycle.state == .failed)
        #expect(!lifecycle.mayEncode)
        for admission in [lifecycle.admitFrame(), lifecycle.beginFinish()] {
            guard case .refuse(let error) = admission else {
                Issue.record("a failed writer must refuse, got \(admission)")
                continue
            }
            #expect(error.code == .encoderFailed)
            #expect(error.message == "first")
        }
    }

    @Test func aFailureWhileFinishingDiscardsTheOutput() {
        var lifecycle = WriterLifecycle()
        #expect(lifecycle.beginFinish() == .proceed)
        #expect(lifecycle.fail(FlipbookError(.outputNotWritable, "disk full")) == .discardOutput)
        #expect(lifecycle.state == .failed)
    }

    @Test func cancelDiscardsOnceAndStopsAnEncodeNotYetRun() {
        var lifecycle = WriterLifecycle()
        lifecycle.frameAdmitted()
        #expect(lifecycle.cancel() == .discardOutput)
        #expect(!lifecycle.mayEncode, "the frame in flight is not encoded after cancel")
        lifecycle.encodeSucceeded()
        #expect(lifecycle.state == .cancelled, "a late encode does not revive the writer")
        #expect(lifecycle.cancel() == .none)
        guard case .refuse(let error) = lifecycle.admitFrame() else {
            Issue.record("a cancelled writer must refuse")
            return
        }
        #expect(error.code == .cancelled)
    }

    @Test func cancelAfterAFailureHasNothingLeftToDiscard() {
        var lifecycle = WriterLifecycle()
        _ = lifecycle.fail(FlipbookError(.encoderFailed, "x"))
        #expect(lifecycle.cancel() == .none)
        #expect(lifecycle.state == .cancelled)
    }
}
