/// The failures every encoder funnel shares, one wording each: a library without the encoder, an
/// encoder that could not be set up or gave no configuration, and pictures or sound it cannot take.
/// Each keeps where it was raised (``FlipbookError/origin``) and its library's cause.
extension FlipbookError {
    /// The library on this system was built without the encoder.
    static func encoderMissing(
        _ encoder: String, in library: String = "libavcodec", named name: String? = nil, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        FlipbookError(
            .encoderFailed, "this system's \(library) has no \(encoder) encoder" + (name.map { " (\($0))" } ?? ""),
            fileID: fileID, line: line)
    }

    /// The library could not allocate the encoder, its frame or its parameters.
    static func encoderNotAllocated(
        _ encoder: String, _ what: String = "encoder", by library: String = "libavcodec", cause: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        FlipbookError(
            .encoderFailed, "\(library) could not allocate the \(encoder) \(what)", underlying: cause, fileID: fileID,
            line: line)
    }

    /// The encoder opened but did not give the configuration its track needs.
    static func encoderGaveNoConfiguration(
        _ encoder: String, _ configuration: String, path: String? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        FlipbookError(
            .encoderFailed, "the \(encoder) encoder gave no \(configuration)", path: path, fileID: fileID, line: line)
    }

    /// Sound of another channel count than the encoder was opened for.
    static func encoderGivenChannels(
        _ encoder: String, given: Int, opened: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        FlipbookError(
            .encoderFailed, "the \(encoder) encoder was given \(given) channels, not \(opened)", fileID: fileID,
            line: line)
    }
}
