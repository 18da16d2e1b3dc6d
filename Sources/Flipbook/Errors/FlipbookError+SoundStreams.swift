/// Sound files whose stream is damaged or cut short, as Flipbook's readers (ADTS, MP3, Ogg, FLAC, MP4)
/// and libavformat find them. A soundtrack's message follows its path. One wording each; each keeps
/// where it was raised (``FlipbookError/origin``).
extension FlipbookError {
    /// A sound file with none of `what` its format is made of (`"ADTS frames"`, `"Opus packets"`).
    static func soundHasNo(_ what: String, path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.invalidAudio, "has no \(what)", path: path, fileID: fileID, line: line)
    }

    /// A sound stream that loses its sync: no `what` (`"ADTS frame header"`, `"Ogg page"`) where one should start.
    static func soundSyncLost(
        _ what: String, at position: Int, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: no \(what) at byte \(position)", path: path, fileID: fileID, line: line)
    }

    /// A sound stream that changes `what` (`"sample rate"`) at byte `position`.
    static func soundChangesAt(
        _ position: Int, _ what: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(.invalidAudio, "changes its \(what) at byte \(position)", path: path, fileID: fileID, line: line)
    }

    /// A sound file whose last frame of `format` (`"ADTS"`, `"MP3"`) needs more bytes than are there.
    static func soundLastFrameCut(
        _ format: String, needs length: Int, from position: Int, path: String, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is cut short: its last \(format) frame needs \(length) bytes from byte \(position)",
            path: path, fileID: fileID, line: line)
    }

    /// An ADTS frame of a rate or channel configuration MP4 cannot carry as it is.
    static func adtsFrameNotCopied(
        at position: Int, rateIndex: Int, channels: Int, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio,
            "has an ADTS frame at byte \(position) Flipbook cannot copy (sample rate index \(rateIndex), "
                + "channel configuration \(channels))", path: path, fileID: fileID, line: line)
    }

    /// ADTS frames of several raw data blocks each.
    static func adtsHasSeveralBlocks(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "has ADTS frames of several raw data blocks, which MP4 cannot carry as they are", path: path,
            fileID: fileID, line: line)
    }

    /// An Ogg file whose last page is incomplete.
    static func oggLastPageIncomplete(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "is cut short: its last Ogg page is incomplete", path: path, fileID: fileID, line: line)
    }

    /// An Ogg file whose stream has no last page (it stops before the page marked as the end).
    static func oggStopsBeforeLastPage(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "is cut short: its Ogg stream stops before its last page", path: path, fileID: fileID,
            line: line)
    }

    /// An Ogg file of more than one logical stream.
    static func oggHasSeveralStreams(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.invalidAudio, "holds more than one Ogg stream", path: path, fileID: fileID, line: line)
    }

    /// An Ogg file whose stream is not Opus.
    static func oggWithoutOpus(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.invalidAudio, "is Ogg without an Opus stream", path: path, fileID: fileID, line: line)
    }

    /// A FLAC file without its stream information block or frames.
    static func flacStreamInfoMissing(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "is cut short or damaged: no FLAC stream information or frames", path: path, fileID: fileID,
            line: line)
    }

    /// A FLAC file whose stream information states a rate of 0.
    static func flacRateZero(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.invalidAudio, "states a sample rate of 0", path: path, fileID: fileID, line: line)
    }

    /// A FLAC stream the parser cannot split into frames.
    static func flacFramesInseparable(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: its FLAC frames cannot be told apart", path: path, fileID: fileID, line: line)
    }

    /// A sound stream that states no sample rate or channel count.
    static func soundFormatUnstated(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: it states no sample rate or channels", path: path, fileID: fileID, line: line)
    }

    /// An MP4 sound file whose boxes cannot be read (`problem` says where).
    static func mp4SoundIncomplete(
        _ problem: any Error, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is cut short or damaged, not a complete MP4 sound file: \(problem)", path: path,
            fileID: fileID, line: line)
    }

    /// An MP4 sound file without its `moov` box.
    static func mp4SoundHasNoMovieBox(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "has no 'moov' box: it is cut short or not a finished file", path: path, fileID: fileID,
            line: line)
    }

    /// A sound track whose time scale is 0.
    static func soundTimescaleZero(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: its sound track's time scale is 0", path: path, fileID: fileID, line: line)
    }

    /// A sound track whose sample tables disagree (`problem` says how).
    static func soundTablesInconsistent(
        _ problem: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "has inconsistent sample tables: \(problem)", path: path, fileID: fileID, line: line)
    }

    /// A sound packet (`index`, counted from 0) that lies past the end of the file.
    static func soundPacketPastEnd(
        _ index: Int, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is cut short: sound packet \(index) lies past the end of the file", path: path,
            fileID: fileID, line: line)
    }

    /// A sound packet of an impossible length.
    static func soundPacketDuration(
        _ duration: Int64, codec: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: a \(codec) packet lasts \(duration) samples", path: path, fileID: fileID,
            line: line)
    }

    /// Sound packets whose times go back, or leap by `duration` samples.
    static func soundPacketTimesJump(
        _ duration: Int64, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: its packets' times go back or leap \(duration) samples", path: path,
            fileID: fileID, line: line)
    }

    /// A sound packet that decodes to another channel count than the stream's.
    static func soundPacketChannels(
        _ decoded: Int, not channels: Int, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: a packet decodes to \(decoded) channels, not \(channels)", path: path,
            fileID: fileID, line: line)
    }

    /// An ALAC stream without the configuration a copy needs.
    static func alacConfigurationMissing(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: its ALAC stream carries no configuration Flipbook can copy", path: path,
            fileID: fileID, line: line)
    }

    /// A Vorbis stream whose headers cannot be read.
    static func vorbisHeadersUnreadable(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: its Vorbis headers cannot be read", path: path, fileID: fileID, line: line)
    }

    /// A Vorbis packet (`number`, counted from 1) its headers do not describe.
    static func vorbisPacketUndescribed(
        _ number: Int, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged: Vorbis packet \(number) is not one its headers describe", path: path,
            fileID: fileID, line: line)
    }
}
