import Testing

@testable import Flipbook

/// The factories: one wording per failure, the line that raised the error as its origin, and the cause kept
/// when an error is wrapped again.
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

    @Test func aFactoryRecordsTheLineThatCalledItNotItsOwn() {
        let truncated = FlipbookError.imageTruncated("TIFF")
        #expect(truncated.origin == "FlipbookTests/ErrorFactoryTests.swift:\(#line - 1)")
        #expect(truncated.code == .corruptImage)
        #expect(truncated.message == "the TIFF cannot be decoded: the file is truncated")
        // A factory built on another still records its own caller.
        let short = FlipbookError.pngDataShort(produced: 10, expected: 40)
        #expect(short.origin == "FlipbookTests/ErrorFactoryTests.swift:\(#line - 1)")
        #expect(short.message.hasPrefix("the PNG cannot be decoded: its image data ends after 10 of 40 bytes"))
    }

    @Test func aFactoryKeepsItsCauseAndShowsIt() {
        let cause = LibraryCallError(library: "libwebp", function: "WebPDecodeInto", status: 0)
        let damaged = FlipbookError.imageDataDamaged("WebP", cause: cause)
        #expect((damaged.underlying as? LibraryCallError)?.function == "WebPDecodeInto")
        #expect(
            damaged.description
                == "the WebP cannot be decoded: its image data is damaged or truncated (libwebp WebPDecodeInto returned 0)"
        )
        let failed = FlipbookError.libraryCallFailed(
            .invalidAudio, "is damaged: its streams cannot be read", path: "a.ogg", cause: cause)
        #expect(failed.code == .invalidAudio && failed.path == "a.ogg")
        #expect(failed.underlying is LibraryCallError)
    }

    @Test func wrappingAnErrorAgainKeepsItsCause() {
        let permission = SystemCallError(function: "open", path: "/tmp/song.wav", errno: 13)
        let read = FlipbookError.inputFileNotPermitted(path: "/tmp/song.wav", cause: permission)
        let soundtrack = FlipbookError.soundtrackUnreadable(path: "/tmp/song.wav", because: read)
        #expect(soundtrack.origin == "FlipbookTests/ErrorFactoryTests.swift:\(#line - 1)")
        #expect(soundtrack.code == .invalidAudio)
        #expect(
            soundtrack.message
                == "the soundtrack cannot be read: the file cannot be read: permission denied; make it readable "
                + "(chmod a+r) or leave it out")
        #expect((soundtrack.underlying as? SystemCallError)?.errno == 13)
        let encoding = FlipbookError.libraryCallFailed(
            .encoderFailed, "the AAC encoder failed",
            cause: LibraryCallError(library: "libavcodec", function: "avcodec_send_frame", status: -22))
        let encoded = FlipbookError.soundtrackNotEncoded(path: "/tmp/song.wav", because: encoding)
        #expect(encoded.message == "could not be encoded: the AAC encoder failed")
        #expect((encoded.underlying as? LibraryCallError)?.function == "avcodec_send_frame")
    }

    @Test func aFailureWordedOnceReadsTheSameFromEachFormat() {
        #expect(FlipbookError.animationEndsEarly("APNG", beforeFrame: 3).message == "the APNG ends before frame 3")
        #expect(
            FlipbookError.animationEndsEarly("GIF", beforeFrame: 3, of: 5).message == "the GIF ends before frame 3 of 5"
        )
        #expect(
            FlipbookError.soundChangesFormatMidway(path: "a.mp3", sampleRate: (44100, 48000)).description
                == "a.mp3: changes its sample rate from 44100 to 48000 Hz midway, which Flipbook does not follow")
        #expect(
            FlipbookError.soundChannelsRefused(9, by: "Opus", carried: "1 to 8", path: "a.wav").message
                == "has 9 channels; Opus carries 1 to 8")
        #expect(FlipbookError.animatedImageGivenSound(".webp").code == .unsupportedOutput)
    }
}
