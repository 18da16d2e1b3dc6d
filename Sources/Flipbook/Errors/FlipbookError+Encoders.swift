/// The failures every encoder shares, one wording each: a library without the encoder, an encoder that
/// could not be set up or gave no configuration, pictures or sound it cannot take, and the few failures
/// of one encoder's own. Each keeps where it was raised (``FlipbookError/origin``) and its library's cause.
extension FlipbookError {
    /// The library on this system was built without the encoder.
    static func encoderMissing(
        _ encoder: String, in library: String = "libavcodec", named name: String? = nil, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed, "this system's \(library) has no \(encoder) encoder" + (name.map { " (\($0))" } ?? ""),
            fileID: fileID, line: line)
    }

    /// The library on this system cannot encode pictures of this bit depth (a build for 8 bits only).
    static func encoderLacksBitDepth(
        _ bitDepth: Int, _ encoder: String, in library: String, cause: (any Error)? = nil, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed, "this system's \(library) cannot encode \(bitDepth)-bit \(encoder)", underlying: cause,
            fileID: fileID, line: line)
    }

    /// The library could not allocate the encoder, its frame or its parameters.
    static func encoderNotAllocated(
        _ encoder: String, _ what: String = "encoder", by library: String = "libavcodec", cause: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed, "\(library) could not allocate the \(encoder) \(what)", underlying: cause, fileID: fileID,
            line: line)
    }

    /// The library refused to open an encoder for the movie's size and rate.
    static func encoderNotOpened(
        by library: String, width: Int, height: Int, frameRate: FrameRate, cause: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed, "\(library) could not open an encoder for \(width)x\(height) at \(frameRate) fps",
            underlying: cause, fileID: fileID, line: line)
    }

    /// The encoder opened but did not give the configuration its track needs.
    static func encoderGaveNoConfiguration(
        _ encoder: String, _ configuration: String, path: String? = nil, cause: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed, "the \(encoder) encoder gave no \(configuration)", path: path, underlying: cause,
            fileID: fileID, line: line)
    }

    /// The AV1 encoder's sequence header is not an OBU Flipbook can read.
    static func av1SequenceHeaderMalformed(
        by library: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed, "\(library)'s sequence header is not a valid OBU", underlying: cause, fileID: fileID,
            line: line)
    }

    /// The AV1 encoder gave a picture's temporal unit that is not a run of OBUs Flipbook can read.
    static func av1TemporalUnitMalformed(
        _ picture: Int64, by library: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed, "\(library) produced a malformed temporal unit for picture \(picture)", underlying: cause,
            fileID: fileID, line: line)
    }

    /// The encoder flagged one picture's packet as failed.
    static func encoderFailedPicture(
        _ picture: Int64, by library: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed, "\(library) failed to encode picture \(picture)", underlying: cause, fileID: fileID,
            line: line)
    }

    /// An encoder parameter given by name that the library's own parser refused.
    static func encoderParameterRefused(
        _ key: String, _ value: String, by library: String, cause: (any Error)? = nil, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "\(library) does not take \(key)=\(value) (an unknown name, or a value it refuses)",
            underlying: cause, fileID: fileID, line: line)
    }

    /// Sound of another channel count than the encoder was opened for.
    static func encoderGivenChannels(
        _ encoder: String, given: Int, opened: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed, "the \(encoder) encoder was given \(given) channels, not \(opened)", fileID: fileID,
            line: line)
    }

    /// A VP9 picture stream and its alpha stream ended with frames left that have no partner.
    static func vp9AlphaUnpaired(
        pictures: Int, alphaFrames: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed,
            "libvpx ended the VP9 stream with \(pictures) pictures and \(alphaFrames) alpha frames unpaired",
            fileID: fileID, line: line)
    }

    /// The VP9 alpha stream handed out a frame that is not the partner of the picture's frame.
    static func vp9AlphaOutOfStep(
        at frame: Int64, alphaFrame: Int64, keyframesDiffer: Bool, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed,
            "the VP9 encoder's alpha pictures fell out of step with its pictures at frame \(frame) (an alpha picture "
                + "for frame \(alphaFrame)" + (keyframesDiffer ? ", one a keyframe and the other not)" : ")")
                + "; the movie was not written", fileID: fileID, line: line)
    }
}
