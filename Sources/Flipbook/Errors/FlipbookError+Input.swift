import Foundation

/// The failures of what a movie is made from: files, folders and patterns that cannot be read,
/// numbered sequences with gaps or strays, streams of images or raw frames on standard input,
/// frames whose pixels do not fit, and presentation times and durations the movie cannot keep.
/// One wording each; each keeps where it was raised (``FlipbookError/origin``) and its cause.
extension FlipbookError {
    // MARK: Files, folders and patterns

    /// An input names no file or folder.
    static func inputMissing(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.unreadableInput, "no such file or folder", path: path, fileID: fileID, line: line)
    }

    /// A folder of images cannot be listed; `folder` says which, as the sentence names it.
    static func folderNotListable(
        _ path: String, _ folder: String = "the folder", cause: any Error, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .unreadableInput, "cannot list \(folder)", path: path, underlying: SystemCause(cause), fileID: fileID,
            line: line)
    }

    /// A folder given as input holds no image Flipbook reads.
    static func folderHoldsNoImages(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "the folder holds no images (\(ImageFormat.extensionList))", path: path,
            fileID: fileID, line: line)
    }

    /// No file matches a printf pattern (from number `start`, when one was given).
    static func patternMatchesNothing(
        _ path: String, from start: Int?, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        let from = start.map { " from number \($0)" } ?? ""
        return Self(
            .unreadableInput, "no file matches the pattern\(from)", path: path, fileID: fileID, line: line)
    }

    /// A TIFF given as input cannot be read to count its pages.
    static func tiffPagesNotCounted(
        _ path: String, cause: any Error, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unreadableInput, "cannot read the TIFF to count its pages", path: path, underlying: SystemCause(cause),
            fileID: fileID, line: line)
    }

    /// An animated image (`kind`) cut short after `wholeFrames` frames; `skippable` when the sequence may
    /// skip it instead.
    static func animationTruncated(
        _ kind: String, wholeFrames: Int, skippable: Bool = false, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .corruptImage,
            "the \(kind) is truncated after \(wholeFrames) whole frames; re-export it"
                + (skippable ? ", or use --skip-invalid (SequenceOptions.skipInvalidImages) to keep those" : ""),
            fileID: fileID, line: line)
    }

    /// A sequence none of whose `count` images can be used: the first one's problem, so prefixed.
    static func noImageUsable(
        of count: Int, firstProblem: FlipbookError?, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        var error = firstProblem ?? Self(.invalidSettings, "no images", fileID: fileID, line: line)
        error.message =
            "none of the \(count) images can be used, so there is no movie; the first one's problem: " + error.message
        return error
    }

    /// A list without any image.
    static func noImagesGiven(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "no images were given; a movie needs at least one frame", fileID: fileID, line: line)
    }

    // MARK: Numbered sequences

    /// Two files of a sequence carry the same number.
    static func numberGivenTwice(
        _ image: URL, twin: String, number: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "\(URL(fileURLWithPath: twin).lastPathComponent) and \(image.lastPathComponent) have the same number "
                + "\(number); keep one of them", path: image.path, fileID: fileID, line: line)
    }

    /// A file numbered far past the one before it, most likely of another sequence.
    static func numberJump(
        from before: URL, to after: URL, skipping count: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "\(before.lastPathComponent) is followed by \(after.lastPathComponent), "
                + "\(count) numbers later; if that file belongs to another sequence, "
                + "move it out of the folder", path: after.path, fileID: fileID, line: line)
    }

    /// Numbers missing from a sequence (`gaps` says which) under the fail gap policy.
    static func imagesMissing(
        _ gaps: String, folder: String? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .missingImages, gaps + "; render the missing images, or choose the hold or warn gap policy", path: folder,
            fileID: fileID, line: line)
    }

    /// The images `first` to `last` of a followed sequence never came, under the fail gap policy.
    static func imagesNeverArrived(
        _ first: Int, to last: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .missingImages,
            "images \(first) to \(last) never arrived; render them, or choose the hold or warn gap policy",
            fileID: fileID, line: line)
    }

    /// What was given to follow is no folder, nor a pattern of one.
    static func nothingToFollow(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unreadableInput,
            "there is no folder to follow here; give a folder or a printf pattern such as frames/frame_%04d.png",
            path: path, fileID: fileID, line: line)
    }

    // MARK: Streams of images and raw frames

    /// A TIFF in a stream of images, whose end cannot be found.
    static func streamHoldsTIFF(
        at byte: Int, of stream: String, image index: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "a TIFF starts at byte \(byte) of \(stream); TIFF has no end marker, so it cannot be "
                + "read from a stream of images: give TIFF files by name, or send \(ImageStream.formatList)",
            frameIndex: index, fileID: fileID, line: line)
    }

    /// Bytes in a stream of images that start no image read there (`what` says what they are).
    static func streamHoldsNoImage(
        at byte: Int, of stream: String, _ what: String, image index: Int, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "byte \(byte) of \(stream) is \(what)" + (index > 0 ? ", after image \(index - 1) ended" : "")
                + "; the stream must be \(ImageStream.formatList) files back to back with nothing between them",
            frameIndex: index, fileID: fileID, line: line)
    }

    /// An image in a stream larger than the stream reads (`largest` bytes).
    static func streamImageTooLarge(
        _ kind: String, at byte: Int, of stream: String, largest: Int, needs bytes: Int, image index: Int,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the \(kind) from byte \(byte) of \(stream) is over "
                + "\(largest >> 20) MiB (its structure needs at least \(bytes) bytes)", frameIndex: index,
            fileID: fileID, line: line)
    }

    /// An image in a stream whose broken structure hides where it ends.
    static func streamImageMalformed(
        _ reason: String, at byte: Int, of stream: String, image index: Int, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .corruptImage, "\(reason) at byte \(byte) of \(stream), so where the image ends cannot be found",
            frameIndex: index, fileID: fileID, line: line)
    }

    /// Raw frames cannot be read from their stream.
    static func rawFramesNotReadable(
        frame index: Int, cause: any Error, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unreadableInput, "cannot read raw frames", frameIndex: index, underlying: SystemCause(cause),
            fileID: fileID, line: line)
    }

    /// A stream of raw frames that ends inside a frame.
    static func rawFrameCutShort(
        frame index: Int, got: Int, of needed: Int, width: Int, height: Int, format: PixelFormat,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidFrame,
            "the input ended inside the frame: \(got) of \(needed) bytes "
                + "(\(width)x\(height) \(format.rawValue)); every frame must be whole", frameIndex: index,
            fileID: fileID, line: line)
    }

    // MARK: Frames

    /// A frame with no pixels across or down.
    static func frameTooSmall(width: Int, height: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidFrame, "a frame must be at least 1x1 pixels, got \(width)x\(height)", fileID: fileID, line: line)
    }

    /// A frame's rows closer together than its pixels are wide.
    static func frameRowsOverlap(
        bytesPerRow: Int, width: Int, bytesPerPixel: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidFrame, "bytesPerRow \(bytesPerRow) is less than width \(width) x \(bytesPerPixel) bytes a pixel",
            fileID: fileID, line: line)
    }

    /// A frame given fewer bytes than its size and layout need.
    static func framePixelsShort(
        width: Int, height: Int, format: PixelFormat, needed: Int, got: Int, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidFrame, "a \(width)x\(height) \(format.rawValue) frame needs \(needed) bytes of pixels, got \(got)",
            fileID: fileID, line: line)
    }

    // MARK: Presentation times and durations

    /// A duration (as shown) of zero or less.
    static func durationNotPositive(
        _ duration: String, frame index: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidTimestamp, "the duration \(duration) must be longer than zero", frameIndex: index, fileID: fileID,
            line: line)
    }

    /// A presentation time not after the previous frame's.
    static func presentationTimeNotAfterPrevious(
        _ time: String, previous: String, frame index: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidTimestamp,
            "the presentation time \(time) is not after frame \(index - 1)'s \(previous); times must strictly increase",
            frameIndex: index, fileID: fileID, line: line)
    }

    /// A presentation time before the previous frame, given its own duration, ends.
    static func presentationTimeBeforePreviousEnds(
        _ time: String, previousEnd: String, previousDuration: String, frame index: Int, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidTimestamp,
            "the presentation time \(time) is before frame \(index - 1) ends at "
                + "\(previousEnd) (it was given a duration of \(previousDuration))", frameIndex: index, fileID: fileID,
            line: line)
    }

    /// A first presentation time before zero.
    static func presentationTimeBeforeZero(
        _ time: String, frame index: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidTimestamp, "the presentation time \(time) is before zero", frameIndex: index, fileID: fileID,
            line: line)
    }

    /// An end time not after the last frame's start.
    static func endTimeNotAfterLastFrame(
        _ end: String, frame index: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidTimestamp, "the end time \(end) is not after the last frame's start", frameIndex: index,
            fileID: fileID, line: line)
    }

    /// A time (`what`, such as "presentation time") that is no whole number of ticks of the movie's clock.
    static func timeNotWholeTicks(
        _ what: String, _ time: MediaTime, timescale: Int32, frame index: Int, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidTimestamp,
            "the \(what) \(time) is not a whole number of ticks of the movie's time scale \(timescale); "
                + "set VideoSettings.timescale to a multiple of \(time.reduced.timescale)", frameIndex: index,
            fileID: fileID, line: line)
    }

    /// A frame (`what` starts the sentence) longer than one MP4 sample can last at this time scale.
    static func frameTooLongForMP4(
        _ what: String, timescale: Int32, frame index: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        let most = Double(UInt32.max) / Double(timescale) / 3600
        return Self(
            .invalidTimestamp,
            "\(what) is longer than a frame of an MP4 can last: \(UInt32.max) ticks, "
                + "\(String(format: "%.1f", most)) hours at this movie's \(timescale) ticks a second; set a smaller "
                + "timescale (1000 ticks a second lasts 49 days) for frames this far apart", frameIndex: index,
            fileID: fileID, line: line)
    }

    /// A frame decoded or lasting longer before the next than an MP4 sample keeps, with B-frames.
    static func sampleOffsetTooLong(
        presentedAt time: String, decodedBefore offset: String, lasting duration: String, frame index: Int?,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidTimestamp,
            "the frame presented at \(time) is decoded \(offset) before it is "
                + "shown and \(duration) before the next frame; an MP4 sample keeps at most "
                + "\(UInt32.max) ticks of either: encode without B-frames (VideoSettings.bFrames = 0) for "
                + "frames this far apart", frameIndex: index, fileID: fileID, line: line)
    }
}

// MARK: Timing lists

extension FlipbookError {
    /// A timing list that cannot be read.
    static func timingListNotReadable(_ path: String, cause: any Error, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .unreadableInput, "the timing list cannot be read as UTF-8 text", path: path, underlying: cause,
            fileID: fileID, line: line)
    }

    /// A timing list with no images.
    static func timingListEmpty(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "the timing list names no images; write one line per image: file 'a.png' then duration 2.5, "
                + "or a.png,2.5 in CSV", path: path, fileID: fileID, line: line)
    }

    /// A line of a timing list that is not understood.
    static func timingListLineNotUnderstood(
        _ path: String, line number: Int, _ text: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "line \(number) of the timing list is not understood (\(text)); write file 'a.png' then "
                + "duration 2.5 (ffmpeg's concat list), a.png,2.5 (CSV) or [{\"file\": \"a.png\", \"duration\": 2.5}]",
            path: path, fileID: fileID, line: line)
    }

    /// A duration in a timing list that is not positive seconds.
    static func timingListDurationNotUnderstood(
        _ path: String, entry: Int, _ text: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "image \(entry) of the timing list has duration '\(text)'; give positive seconds such as 2.5 or 1001/24000",
            path: path, fileID: fileID, line: line)
    }

    /// Durations that are not one per image.
    static func imageDurationsMiscounted(_ count: Int, images: Int, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings, "\(count) image durations for \(images) images; give one per image (nil for the default)",
            fileID: fileID, line: line)
    }

    /// Durations for each image with repeated frames or animated images, which time their frames themselves.
    static func imageDurationsWithFrames(animated: Bool, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            animated
                ? "a duration for each image cannot time an animated image's frames, which have their own delays"
                : "a duration for each image makes each image one frame of its length; leave out repeated frames",
            fileID: fileID, line: line)
    }

    /// A speed-up that is not positive.
    static func speedupNotPositive(_ speedup: MediaTime, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "a speed-up of \(speedup.seconds) is not positive; give one such as 600", fileID: fileID,
            line: line)
    }

    /// A photo whose capture time cannot be read.
    static func captureTimeNotReadable(_ path: String, cause: any Error, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .unreadableInput, "the photo cannot be read for its capture time", path: path, underlying: cause,
            fileID: fileID, line: line)
    }

    /// A photo without an EXIF capture time.
    static func captureTimeMissing(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "the photo has no EXIF capture time (DateTimeOriginal in a JPEG), which --timing exif times it by; "
                + "give a timing list or --duration instead", path: path, fileID: fileID, line: line)
    }

    /// A photo taken no later than the one before it.
    static func captureTimesOutOfOrder(
        _ path: String, after previous: String, fileID: String = #fileID, line: Int = #line
    )
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            "the photo was taken no later than the one before it (\(previous)); --timing exif needs the photos in "
                + "the order they were taken", path: path, fileID: fileID, line: line)
    }
}
