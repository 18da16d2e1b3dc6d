/// Sound that the encoders and decoders on this system cannot take: a rate, channel count or bit rate a
/// codec does not carry, a codec Flipbook does not decode, or a library without what it needs. A
/// soundtrack's message follows its path. One wording each; each keeps where it was raised
/// (``FlipbookError/origin``).
extension FlipbookError {
    /// Sound at a rate AAC cannot carry; `rates` lists those it can.
    static func aacSampleRateRefused(
        _ rate: Int, rates: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "has a sample rate of \(rate) Hz, which AAC cannot carry; resample it to one of \(rates)",
            path: path, fileID: fileID, line: line)
    }

    /// Sound at a rate above the highest ALAC is written at.
    static func alacSampleRateRefused(
        _ rate: Int, maximum: Int, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is at \(rate) Hz; ALAC is written at up to \(maximum) Hz", path: path, fileID: fileID,
            line: line)
    }

    /// Sound of a channel count `codec` does not carry; `carried` says which it does (`"1 to 8"`).
    static func soundChannelsRefused(
        _ channels: Int, by codec: String, carried: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "has \(channels) channels; \(codec) carries \(carried)", path: path, fileID: fileID,
            line: line)
    }

    /// An Opus bit rate outside what Opus takes for the channel count.
    static func opusBitrateRefused(
        _ bitrate: Int, channels: Int, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio,
            "cannot be encoded to Opus at \(bitrate / 1000)k: Opus takes 6k to \(256 * channels)k for "
                + "\(channels) channel\(channels == 1 ? "" : "s")", path: path, fileID: fileID, line: line)
    }

    /// Sound given from memory at another rate than `codec` is encoded at, which is not resampled.
    static func soundFromMemoryAtOtherRate(
        _ rate: Int, codec: String, encodedAt target: Int, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio,
            "is at \(rate) Hz; \(codec) is encoded here at \(target) Hz, so give sound from memory at \(target) Hz",
            path: path, fileID: fileID, line: line)
    }

    /// This system's libavcodec has no decoder for the sound's codec (`name`).
    static func soundDecoderMissing(
        _ name: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "cannot be decoded: this system's libavcodec has no \(name) decoder", path: path,
            fileID: fileID, line: line)
    }

    /// This system's libavcodec has no FLAC parser, which splits FLAC frames for copying.
    static func flacParserMissing(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "cannot be read: this system's libavcodec has no FLAC parser", path: path, fileID: fileID,
            line: line)
    }

    /// `library` could not allocate what reading the sound needs.
    static func soundLibraryOutOfMemory(
        _ library: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "cannot be read: \(library) is out of memory", path: path, fileID: fileID, line: line)
    }

    /// Sound of a codec Flipbook does not decode.
    static func soundCodecNotDecoded(
        _ codec: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is \(codec) sound, which Flipbook does not decode", path: path, fileID: fileID, line: line)
    }

    /// Sound libavformat reads but Flipbook does not copy from it.
    static func soundCodecNotCopied(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "holds sound Flipbook does not copy from libavformat", path: path, fileID: fileID,
            line: line)
    }

    /// Opus sound without the `OpusHead` its decoder needs.
    static func opusWithoutHead(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "holds Opus sound without its OpusHead", path: path, fileID: fileID, line: line)
    }

    /// Sound that decodes to samples of a kind (`name`, libavcodec's) Flipbook does not convert.
    static func soundSampleKindRefused(
        _ name: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "decodes to samples of a kind Flipbook does not take (\(name))", path: path, fileID: fileID,
            line: line)
    }
}
