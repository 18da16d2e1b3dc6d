internal import CAVCodec

/// The one way libavformat's status codes become Swift errors: a negative status throws
/// ``LibraryCallError`` with the function and FFmpeg's own message, inside a ``FlipbookError`` of
/// `code` that says, in Flipbook's words, what is wrong with the file at `path`.
///
/// - Returns: The status, when it is not an error.
@discardableResult
func avformatCall(
    _ function: String, _ code: FlipbookError.Code, _ doing: @autoclosure () -> String, _ status: Int32,
    path: String
) throws -> Int32 {
    guard status < 0 else { return status }
    throw FlipbookError(
        code, doing(), path: path,
        underlying: LibraryCallError(
            library: "libavformat", function: function, status: Int(status), libraryMessage: ffmpegMessage(status)))
}
