import Testing

@testable import Flipbook

/// The encoder funnels' shared failures: one wording each, and every error knows where it was made.
@Suite struct ErrorFactoryTests {
    @Test func eachFactoryWordsItsFailureOnceAndKeepsWhereItWasRaised() {
        let missing = FlipbookError.encoderMissing("ProRes", named: "prores_ks")
        #expect(missing.code == .encoderFailed)
        #expect(missing.message == "this system's libavcodec has no ProRes encoder (prores_ks)")
        #expect(missing.origin.hasPrefix("FlipbookTests/ErrorFactoryTests.swift:"), "\(missing.origin)")
        let cause = LibraryCallError(library: "libavcodec", function: "av_frame_alloc", status: -12)
        let frame = FlipbookError.encoderNotAllocated("FFV1", "frame", cause: cause)
        #expect(frame.message == "libavcodec could not allocate the FFV1 frame")
        #expect(
            frame.description == "libavcodec could not allocate the FFV1 frame (libavcodec av_frame_alloc returned -12)"
        )
        let channels = FlipbookError.encoderGivenChannels("Opus", given: 6, opened: 2)
        #expect(channels.message == "the Opus encoder was given 6 channels, not 2")
        let record = FlipbookError.encoderGaveNoConfiguration("ALAC", "configuration", path: "/tmp/a.wav")
        #expect(record.description == "/tmp/a.wav: the ALAC encoder gave no configuration")
    }

    @Test func anErrorMadeInlineKnowsWhereItWasMadeToo() {
        let error = FlipbookError(.invalidFrame, "a frame")
        #expect(error.origin == "FlipbookTests/ErrorFactoryTests.swift:\(#line - 1)")
        #expect(!error.description.contains("ErrorFactoryTests"))
    }
}
