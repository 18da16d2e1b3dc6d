/// The failures of how the file must come out, as an encoder takes it: rate control, keyframes,
/// B-frames, tune, profile, level and the encoder's own parameters; one wording each.
extension FlipbookError {
    /// Rate control asked of an encoder whose quality or profile sets the rate.
    static func noRateControl(for codec: VideoCodec, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "\(codec.name) has no rate control: "
                + (codec.isAnimatedImage
                    ? "its quality sets the size, or a target size searched by quality"
                    : codec.qualityNote ?? "its encoder sets the rate"),
            fileID: fileID, line: line)
    }

    /// A rate (`bitrate`, `max bitrate`) off the encoder's range.
    static func rateOutOfRange(
        _ what: String, _ rate: Int, range: ClosedRange<Int>, of codec: VideoCodec, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "\(what) \(VideoCodec.rate(rate)) is out of range; use \(VideoCodec.rate(range.lowerBound)) to "
                + VideoCodec.rate(range.upperBound)
                + (range.upperBound < RateControl.bitrateRange.upperBound ? " for \(codec.name)" : ""),
            fileID: fileID, line: line)
    }

    /// A number of passes other than one or two.
    static func passesOutOfRange(_ passes: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.invalidSettings, "passes \(passes) is out of range; use 1 or 2", fileID: fileID, line: line)
    }

    /// Two passes asked of an encoder that makes one.
    static func twoPassesUnavailable(
        rate: Int, for codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "bitrate \(VideoCodec.rate(rate)) in two passes is not available for \(codec.name) (\(codec.encoderName) "
                + "makes no playable second pass here); use one pass, or a target size, which corrects one-pass encodes",
            fileID: fileID, line: line)
    }

    /// A target size no movie fits in.
    static func targetSizeTooSmall(
        _ bytes: Int64, smallest: Int64, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "target size \(bytes) bytes is too small for any movie; use at least \(smallest) bytes",
            fileID: fileID, line: line)
    }

    /// A rate limit asked of an encoder that keeps none.
    static func rateLimitUnavailable(
        _ limit: RateLimit, for codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "max bitrate \(VideoCodec.rate(limit.maxBitrate)) is not available for \(codec.name) (\(codec.encoderName) "
                + "keeps no cap over a decoder's buffer); drop it, and give an average bitrate or a CRF",
            fileID: fileID, line: line)
    }

    /// A rate limit with an average rate, of an encoder that caps constant quality only.
    static func rateLimitNeedsConstantQuality(
        _ limit: RateLimit, for codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "max bitrate \(VideoCodec.rate(limit.maxBitrate)) goes with a CRF only for \(codec.name) "
                + "(\(codec.encoderName) caps constant quality, not an average rate); drop the bitrate or the max bitrate",
            fileID: fileID, line: line)
    }

    /// A decoder buffer off its range.
    static func bufferSizeOutOfRange(_ bits: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "buffer size \(VideoCodec.rate(bits)) bits is out of range; use 1k to 2000M",
            fileID: fileID, line: line)
    }

    /// An average rate above its own cap.
    static func bitrateAboveLimit(_ rate: Int, limit: Int, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            "bitrate \(VideoCodec.rate(rate)) is above the max bitrate \(VideoCodec.rate(limit)); raise the "
                + "max bitrate or lower the bitrate", fileID: fileID, line: line)
    }

    /// A keyframe interval off the encoder's range.
    static func keyframeIntervalOutOfRange(
        _ frames: Int, shortest: Int, of codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "keyframe interval \(frames) is out of range for \(codec.name); use \(shortest) to 100000 frames",
            fileID: fileID, line: line)
    }

    /// A keyframe interval asked of a codec whose every frame is a keyframe.
    static func keyframeIntervalUnavailable(
        _ frames: Int, for codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "keyframe interval \(frames) is not available for \(codec.name), whose every frame is a keyframe",
            fileID: fileID, line: line)
    }

    /// B-frames asked of an encoder whose number of them cannot be chosen.
    static func bFramesUnavailable(for codec: VideoCodec, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings, "bframes is not available for \(codec.name), which has no B-frames", fileID: fileID,
            line: line)
    }

    /// A number of B-frames off the encoder's range.
    static func bFramesOutOfRange(
        _ count: Int, range: ClosedRange<Int>, of codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        let use =
            range.count == 1 ? "only \(range.lowerBound) (no reordering)" : "\(range.lowerBound) to \(range.upperBound)"
        return Self(
            .invalidSettings, "bframes \(count) is out of range for \(codec.name); use \(use)", fileID: fileID,
            line: line)
    }

    /// A tune the encoder does not know.
    static func tuneUnavailable(_ tune: String, for codec: VideoCodec, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            codec.tunes.isEmpty
                ? "tune \(tune) is not available for \(codec.name), which has no tunes"
                : "tune \(tune) is not available for \(codec.name); use \(spokenList(codec.tunes, joinedBy: "or"))",
            fileID: fileID, line: line)
    }

    /// A profile the codec is not written in.
    static func profileUnavailable(
        _ profile: CodecProfile, for codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        let names = codec.profiles.map(\.name)
        return Self(
            .invalidSettings,
            "profile \(profile.name) is not available for \(codec.name)"
                + (names.isEmpty ? "" : "; use \(spokenList(names, joinedBy: "or"))"), fileID: fileID, line: line)
    }

    /// A profile of another depth than the movie's.
    static func profileBitDepth(
        _ profile: CodecProfile, depth: Int, bitDepth: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "profile \(profile.name) is \(depth)-bit, and the bit depth is \(bitDepth)",
            fileID: fileID, line: line)
    }

    /// A profile asked to code losslessly.
    static func profileNotLossless(_ profile: CodecProfile, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            "profile \(profile.name) cannot code losslessly; lossless needs High 4:4:4 Predictive", fileID: fileID,
            line: line)
    }

    /// A level asked of a codec that has none.
    static func levelsUnavailable(
        _ level: CodecLevel, for codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "level \(level) is not available for \(codec.name), which has no levels", fileID: fileID,
            line: line)
    }

    /// A level the codec does not have.
    static func levelUnknown(
        _ level: CodecLevel, of codec: VideoCodec, levels: [CodecLevel], fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "level \(level) is not a level of \(codec.name); use "
                + spokenList(levels.map(\.description), joinedBy: "or"), fileID: fileID, line: line)
    }

    /// A level that cannot hold the movie: what it passes, and the lowest level that holds it.
    static func levelTooLow(
        _ level: CodecLevel, of codec: VideoCodec, passed: String, fitting: CodecLevel?, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "level \(level) of \(codec.name) holds \(passed); "
                + (fitting.map { "use level \($0) or higher" } ?? "no level of \(codec.name) holds it"),
            fileID: fileID, line: line)
    }

    /// Encoder parameters asked of an encoder that takes none.
    static func parametersUnavailable(for codec: VideoCodec, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings, "encoder parameters are not available for \(codec.name)", fileID: fileID, line: line)
    }

    /// An encoder parameter that an option of Flipbook's sets.
    static func parameterFlipbookSets(
        _ key: String, instead: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "the encoder parameter \(key) is Flipbook's to set; \(instead)", fileID: fileID,
            line: line)
    }

    /// An encoder parameter the encoder's own parser refused: an unknown name, or a value it does not take.
    static func parameterRefused(
        _ key: String, value: String, unknownName: Bool, by encoder: String, cause: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            unknownName ? "\(encoder) does not know the parameter \(key)" : "\(encoder) does not take \(key)=\(value)",
            underlying: cause, fileID: fileID, line: line)
    }

    /// A picture of another format than the encoder takes.
    static func pictureFormatRefused(
        _ format: PictureFormat, by encoder: String, takes: PictureFormat, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidFrame, "the \(encoder) encoder takes \(takes) pictures, not \(format)", fileID: fileID, line: line)
    }
}
