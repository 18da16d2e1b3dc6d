import Foundation

/// The failures of writing a movie, one wording each: the writer's settings and calls, image
/// sequences (listed, from their bytes, followed) and joined segments. Each keeps where it was raised
/// (``FlipbookError/origin``) and its cause, when it has one.
extension FlipbookError {
    // MARK: The writer

    /// Both a soundtrack file and sound from memory were given.
    static func soundGivenTwice(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "a movie has one sound track: give a soundtrack file or sound from memory, not both",
            fileID: fileID, line: line)
    }

    /// Sound was appended from memory to a writer made without an ``AudioFormat``.
    static func soundFromMemoryNotExpected(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidState, "the writer takes sound from memory only when made with an AudioFormat", fileID: fileID,
            line: line)
    }

    /// Sound from memory whose channels are not the writer's, or not of one length.
    ///
    /// - Parameters:
    ///   - given: The channels appended.
    ///   - lengths: Their lengths in samples, each once, in order.
    ///   - expected: The channels of the writer's ``AudioFormat``.
    static func soundChannelsMismatch(
        given: Int, lengths: [Int], expected: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidState,
            "the sound has \(given) channels of \(lengths) samples; the writer takes \(expected) channels of one length",
            fileID: fileID, line: line)
    }

    /// Two passes (or a target size) asked of a writer fed frame by frame.
    static func twoPassesNeedImageFiles(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "two passes and a target size encode the frames twice; make the movie from image files with "
                + "makeMovie(fromImagesAt:to:options:), or give an average bitrate in one pass", fileID: fileID,
            line: line)
    }

    /// `error`'s code and message, about the file at `path` (the destination a check refused).
    static func restating(_ error: FlipbookError, path: String, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        var restated = Self(error.code, error.message, path: path, fileID: fileID, line: line)
        restated.isSettingsConflict = error.isSettingsConflict
        return restated
    }

    /// Copied sound asked to loop in a fragmented movie.
    static func copiedSoundCannotLoopInFragments(path: String, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            "copied sound cannot loop in a fragmented movie; have it encoded (the soundtrack's codec AAC), or write a "
                + "faststart movie", path: path, fileID: fileID, line: line)
    }

    /// Fragments asked of an animated image; `kind` is its extension with the dot (`.gif`).
    static func animatedImageIsWrittenWhole(_ kind: String, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .unsupportedOutput,
            "a \(kind) file is written whole, never in fragments; name the output .mp4 or .mov to fragment it",
            fileID: fileID, line: line)
    }

    /// A movie finished without a frame.
    static func noFramesAppended(_ kind: String = "movie", fileID: String = #fileID, line: Int = #line) -> FlipbookError
    {
        Self(
            .invalidState, "no frames were appended; a \(kind) needs at least one frame", fileID: fileID, line: line)
    }

    /// The caller cancelled while the last pictures were encoded.
    static func cancelledBeforeFinished(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .cancelled, "the movie was cancelled before it was finished; nothing was published", fileID: fileID,
            line: line)
    }

    /// An encoder gave a picture decoded after it is shown, or numbered absurdly far away.
    static func encoderGaveImpossibleTimes(
        _ encoder: String, presentation: Int64, decoding: Int64, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed,
            "the \(encoder) encoder gave a picture impossible times (presentation \(presentation), "
                + "decoding \(decoding))", fileID: fileID, line: line)
    }

    /// A failure of the pipeline that is not a ``FlipbookError`` itself.
    static func movieNotWritten(cause: any Error, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.encoderFailed, "the movie could not be written", underlying: cause, fileID: fileID, line: line)
    }

    // MARK: Image sequences

    /// A sequence of images' bytes that ended before its first image.
    static func inputHeldNoImage(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "the input held no image; a movie needs at least one frame", fileID: fileID, line: line)
    }

    /// An image whose bytes stop before its structure ends; `reason` says where.
    static func imageCutShort(_ reason: String, cause: FlipbookError, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(.corruptImage, reason, underlying: cause, fileID: fileID, line: line)
    }

    /// Images from a sequence of their bytes asked to have `what` (a segment, a soundtrack, two passes).
    static func imageDataCannotHave(_ what: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "images from a sequence of their bytes are read once and not counted ahead, so they cannot have "
                + "\(what); give them as files", fileID: fileID, line: line)
    }

    /// Following timings out of range.
    static func followingTimesOutOfRange(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "following needs a timeout and a poll interval above zero, and a grace of zero or more",
            fileID: fileID, line: line)
    }

    /// A followed sequence asked to have `what` (a segment, skipping, a soundtrack).
    static func notForFollowedSequence(_ what: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "\(what) is for listed images; a followed sequence cannot have one", fileID: fileID,
            line: line)
    }

    /// Following was stopped before the first image of the sequence in `folder` arrived.
    static func followingStoppedBeforeFirstImage(folder: String, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .unreadableInput, "following was stopped before any image of the sequence arrived", path: folder,
            fileID: fileID, line: line)
    }

    /// No image of the sequence in `folder` arrived within `timeout`.
    static func noImageArrived(within timeout: Duration, folder: String, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .unreadableInput, "no image of the sequence arrived within \(timeout); nothing to make a movie of",
            path: folder, fileID: fileID, line: line)
    }

    // MARK: Joined segments

    /// A join with no segments.
    static func noSegmentsGiven(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "no segments were given; list every segment file to join", fileID: fileID, line: line)
    }

    /// Segment `segment` (at `path`) decodes a frame at `tick`, not after the previous segment's last at `last`.
    static func segmentDecodesTooEarly(
        _ segment: Int, tick: Int64, last: Int64, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "segment \(segment) decodes a frame at tick \(tick), not after the previous segment's "
                + "last at \(last); the segments were not made with the same encoder settings", path: path,
            fileID: fileID, line: line)
    }
}
