import Foundation

/// The failures of settings out of range or at odds with each other: the movie's size, clock and
/// threads, the encoder's choices, an image's duration, the metadata, a target size, a rotation.
/// One wording each; each keeps where it was raised (``FlipbookError/origin``).
extension FlipbookError {
    // MARK: The movie's settings

    /// The settings give no picture size, and nothing supplies one.
    static func settingsHaveNoSize(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "the settings have no size; give a width and a height, or make the movie from images, which "
                + "takes the first image's size", fileID: fileID, line: line)
    }

    /// A time scale of zero or fewer ticks a second.
    static func timescaleNotPositive(_ timescale: Int32, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "time scale \(timescale) must be positive ticks a second, such as 90000", fileID: fileID,
            line: line)
    }

    /// A time scale in which one frame at the rate is no whole number of ticks.
    static func timescaleCannotHoldFrame(
        _ timescale: Int32, frameRate: FrameRate, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "the time scale \(timescale) cannot express one frame at \(frameRate) fps exactly; "
                + "use a multiple of \(frameRate.numerator)", fileID: fileID, line: line)
    }

    /// A fragment duration of zero or less, or over an hour.
    static func fragmentDurationOutOfRange(
        _ duration: MediaTime, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "fragment duration \(duration) is out of range; use more than 0 and at most an hour",
            fileID: fileID, line: line)
    }

    /// A count of threads or workers (`name`) out of range; `advice` says which are allowed.
    static func threadCountOutOfRange(
        _ name: String, _ count: Int, advice: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(.invalidSettings, "\(name) \(count) is out of range; \(advice)", fileID: fileID, line: line)
    }

    /// B-frames asked of the baseline profile, which has none.
    static func bFramesInBaseline(_ bFrames: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "bframes \(bFrames) is not available in profile baseline, which has no B-frames",
            fileID: fileID, line: line)
    }

    /// No B-frames with a rate, for an encoder whose structure without reordering takes a CRF only.
    static func noReorderingNeedsCRF(
        codec: String, encoder: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "bframes 0 goes with a CRF only for \(codec) (\(encoder)'s structure without "
                + "reordering has no average rate); drop one", fileID: fileID, line: line)
    }

    /// A rotation for a container (`fileExtension`) whose players read none.
    static func rotationNotWritten(
        inFilesOf fileExtension: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "a rotation is not written in .\(fileExtension) files, whose players read none; name the output "
                + ".mp4, .m4v or .mov, or turn the images themselves", fileID: fileID, line: line)
    }

    // MARK: An image's duration

    /// An image's duration of zero or less.
    static func imageDurationNotPositive(
        _ duration: MediaTime, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "an image's duration must be longer than zero, got \(duration)", fileID: fileID,
            line: line)
    }

    /// An image's duration (`seconds`, as shown) too short or too long to be a frame rate.
    static func imageDurationOutOfRange(_ seconds: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError
    {
        Self(
            .invalidSettings,
            "an image's duration of \(seconds) s is out of range; use 1 microsecond to 1,000,000 seconds",
            fileID: fileID, line: line)
    }

    /// An image's duration (`seconds`, as shown) that repeated frames at the rate cannot make.
    static func imageDurationNotWholeFrames(
        _ seconds: String, at frameRate: FrameRate, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "an image's duration of \(seconds) s is not a whole number of frames at \(frameRate) fps; "
                + "choose a duration that is, or do not repeat frames", fileID: fileID, line: line)
    }

    /// An animation appended with a duration, though its frames keep their own delays.
    static func animationTakesNoDuration(
        _ kind: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "the \(kind)'s frames keep their own delays; append it without a duration",
            fileID: fileID, line: line)
    }

    // MARK: The metadata

    /// A creation date (`date`, as ISO 8601) outside the years a movie holds.
    static func creationDateOutOfRange(_ date: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "creation date \(date) is out of range; a movie holds dates from 1904 to 9999",
            fileID: fileID, line: line)
    }

    /// A custom metadata name that is empty or holds `=` or control characters.
    static func metadataNameInvalid(_ name: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "metadata name \"\(name)\" is not a name; use letters, digits and _ such as album",
            fileID: fileID, line: line)
    }

    /// A custom metadata name that one of the metadata's own properties sets.
    static func metadataNameReserved(_ name: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "metadata name \(name) is set by its own property (title, artist, comment, creationDate, location), "
                + "not by custom", fileID: fileID, line: line)
    }

    // MARK: A target size

    /// A target size too small for the frames at all; a conflict of the settings.
    static func targetSizeTooSmall(
        _ bytes: Int64, frames: Int, smallest: Int64, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "target size \(bytes) bytes cannot hold \(frames) frames; use at least \(smallest) bytes",
            fileID: fileID, line: line
        ).asSettingsConflict
    }

    /// A target size that the sound and the container (`rest` bytes) fill; a conflict of the settings.
    static func targetSizeLeavesNoRoom(
        _ target: Int64, rest: Int64, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "target size \(target) bytes leaves no room for the pictures: the sound and the container take "
                + "\(rest) bytes of it; use a larger size", fileID: fileID, line: line
        ).asSettingsConflict
    }

    /// An OpenColorIO config that cannot be read.
    static func colourConfigNotRead(
        _ path: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "the OpenColorIO config \(path) cannot be read: it is missing, or not a config OpenColorIO 2.1 reads",
            underlying: cause, fileID: fileID, line: line)
    }

    /// A name an OpenColorIO config does not have; `names` are those of its kind it has.
    static func colourConfigLacks(
        _ what: String, in path: String, choose kind: String, _ names: [String], fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "the OpenColorIO config \(path) has no \(what); its \(kind)s are "
                + (names.isEmpty ? "none" : names.joined(separator: ", ")), fileID: fileID, line: line)
    }

    /// An OpenColorIO view asked of an HDR movie.
    static func colourConfigWithHDR(
        _ standard: ColourStandard, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "an OpenColorIO view makes display values for a standard-dynamic-range movie, and this one is "
                + "--colour \(standard.rawValue); leave out --ocio (and unset OCIO), or use --colour bt709",
            fileID: fileID, line: line)
    }
}

// MARK: Timecode

extension FlipbookError {
    /// Text that is no timecode.
    static func timecodeNotUnderstood(_ text: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "timecode '\(text)' is not understood; write HH:MM:SS:FF (01:00:00:00), or HH:MM:SS;FF for drop-frame",
            fileID: fileID, line: line)
    }

    /// A timecode at a rate no timecode counts.
    static func timecodeRateOutOfRange(_ frameRate: FrameRate, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            "a timecode counts 1 to 255 frames a second, and the movie is \(frameRate) fps; leave the timecode out",
            fileID: fileID, line: line)
    }

    /// A timecode whose frames reach the rate's count.
    static func timecodeFrameOutOfRange(
        _ timecode: Timecode, count: Int, _ frameRate: FrameRate, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "timecode \(timecode) has frame \(timecode.frames); at \(frameRate) fps its frames run 00 to \(count - 1)",
            fileID: fileID, line: line)
    }

    /// A drop-frame timecode at a rate that has none.
    static func dropFrameTimecodeAtRate(
        _ timecode: Timecode, _ frameRate: FrameRate, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "timecode \(timecode) is drop-frame, which only 29.97 and 59.94 fps have; at \(frameRate) fps write it "
                + "with ':' before the frames", fileID: fileID, line: line)
    }

    /// A drop-frame label that is skipped.
    static func timecodeLabelDropped(_ timecode: Timecode, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            "timecode \(timecode) does not exist: drop-frame timecode skips the first frame labels of each minute "
                + "but every tenth", fileID: fileID, line: line)
    }

    /// A timecode for a fragmented movie or an animated image, which hold none.
    static func timecodeNotHeld(fragmented: Bool, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            (fragmented ? "a fragmented movie" : "an animated image") + " holds no timecode; write a progressive "
                + ".mp4, .mov or .mkv, or leave the timecode out", fileID: fileID, line: line)
    }
}
