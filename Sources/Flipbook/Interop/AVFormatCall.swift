internal import CAVCodec

/// The one way libavformat's status codes become Swift errors: a negative status throws
/// ``LibraryCallError`` with the function and FFmpeg's own message, inside a ``FlipbookError`` of
/// `code` that says, in Flipbook's words, what is wrong with the file at `path`.
///
/// The error's ``FlipbookError/origin`` is the line that called the funnel.
///
/// - Returns: The status, when it is not an error.
@discardableResult
func avformatCall(
    _ function: String, _ code: FlipbookError.Code, _ doing: @autoclosure () -> String, _ status: Int32,
    path: String, fileID: String = #fileID, line: Int = #line
) throws -> Int32 {
    guard status < 0 else { return status }
    throw FlipbookError.libraryCallFailed(
        code, doing(), path: path,
        cause: LibraryCallError(
            library: "libavformat", function: function, status: Int(status), libraryMessage: ffmpegMessage(status)),
        fileID: fileID, line: line)
}
