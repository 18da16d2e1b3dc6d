/// Soundtracks that cannot be used: missing, unreadable, holding no sound, refused by the movie's
/// container or codec, or placed by an offset outside the sound. A soundtrack's message follows its
/// path (`song.wav: holds no sound`). One wording each; each keeps where it was raised
/// (``FlipbookError/origin``) and its cause.
extension FlipbookError {
    /// The soundtrack's path names a folder.
    static func soundtrackIsFolder(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "is a folder, not a sound file; give the sound file itself", path: path, fileID: fileID,
            line: line)
    }

    /// The soundtrack's path names nothing.
    static func soundtrackMissing(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "does not exist; check the soundtrack's path", path: path, fileID: fileID, line: line)
    }

    /// The soundtrack's file cannot be read, as `error` (from reading the file) says.
    static func soundtrackUnreadable(
        path: String, because error: FlipbookError, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "the soundtrack cannot be read: \(error.message)", path: path, underlying: error.underlying,
            fileID: fileID, line: line)
    }

    /// libavformat does not recognise the file as one it reads.
    static func soundtrackNotOpened(
        path: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "could not be opened as a sound file", path: path, underlying: cause, fileID: fileID,
            line: line)
    }

    /// The file opened but has no sound stream: it is not a sound file Flipbook reads.
    static func soundtrackNotSound(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidAudio, "holds no sound: it is not a sound file Flipbook reads", path: path, fileID: fileID,
            line: line)
    }

    /// The sound stream decodes to no samples.
    static func soundtrackHoldsNoSound(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.invalidAudio, "holds no sound", path: path, fileID: fileID, line: line)
    }

    /// A soundtrack to be copied has no sound stream.
    static func soundtrackHoldsNothingToCopy(
        path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(.invalidAudio, "holds no sound to copy", path: path, fileID: fileID, line: line)
    }

    /// A copied soundtrack whose encoder delay covers all of its samples.
    static func soundtrackEmptyAfterDelay(path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.invalidAudio, "has no sound after its encoder delay", path: path, fileID: fileID, line: line)
    }

    /// Sound that changes its format midway: from one sample rate to another when they are known, or its
    /// rate or channels.
    static func soundChangesFormatMidway(
        path: String, sampleRate rates: (from: Int, to: Int)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        let change = rates.map { "sample rate from \($0.from) to \($0.to) Hz" } ?? "sample rate or channels"
        return Self(
            .invalidAudio, "changes its \(change) midway, which Flipbook does not follow", path: path, fileID: fileID,
            line: line)
    }

    /// FFmpeg decoded the sound but logged damage (`logged`) that it covered with silence or repeats.
    static func soundDamageLogged(
        _ logged: String, codec: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is damaged or cut short: FFmpeg reads its \(codec) sound with the error \"\(logged)\"",
            path: path, fileID: fileID, line: line)
    }

    /// Sound that decodes to less than its header states (`stated` and `holds` are durations as a person
    /// reads them).
    static func soundShorterThanStated(
        stated: String, holds: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is cut short: it states \(stated) of sound, but holds \(holds)", path: path, fileID: fileID,
            line: line)
    }

    /// A sound file shorter than the byte count its header states.
    static func soundFileShorterThanStated(
        stated: Int64, size: Int64, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "is cut short: it states \(stated) bytes, and \(size) are there", path: path, fileID: fileID,
            line: line)
    }

    /// An audio offset of more than a day either way.
    static func audioOffsetOutOfRange(
        _ offset: MediaTime, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "the audio offset \(offset) is out of range; use at most a day either way", path: path,
            fileID: fileID, line: line)
    }

    /// An audio offset that starts the sound after it ends (`seconds` long), when it does not loop.
    static func audioOffsetSkipsAllSound(
        _ offset: MediaTime, lasting seconds: Double, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "the audio offset \(offset) skips all of the sound, which lasts \(seconds) s", path: path,
            fileID: fileID, line: line)
    }

    /// A sound codec (`rawValue` of ``SoundtrackCodec``) that `container` does not hold; `fitting` are those
    /// that do.
    static func soundCodecNotInContainer(
        _ codec: String, container: MovieContainer, fitting: [MovieContainer], fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        let names = fitting.map { "." + $0.fileExtensions[0] }
        return Self(
            .invalidSettings,
            "\(codec) sound does not go in .\(container.fileExtensions[0]) files; "
                + "name the output \(names.dropLast().joined(separator: ", ")) or \(names.last!), "
                + "or choose another sound codec", fileID: fileID, line: line)
    }

    /// Sound of `codec` that a copy was asked for but that is not copied into `kind` files (`".webm"`), for
    /// `reason`.
    static func soundtrackNotCopied(
        _ codec: String, into kind: String, reason: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio,
            "holds \(codec) sound, which cannot be copied into \(kind): \(reason); have it encoded (AAC or Opus) instead",
            path: path, fileID: fileID, line: line)
    }

    /// The soundtrack's encoder failed, as `error` (with no file of its own) says.
    static func soundtrackNotEncoded(
        path: String, because error: FlipbookError, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidAudio, "could not be encoded: \(error.message)", path: path, underlying: error.underlying,
            fileID: fileID, line: line)
    }
}
