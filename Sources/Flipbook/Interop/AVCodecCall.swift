internal import CAVCodec

/// The one way libavcodec's status codes become Swift errors: a negative status throws
/// ``LibraryCallError`` with the function and FFmpeg's own message, inside a ``FlipbookError`` of
/// `code` that says what Flipbook was doing.
///
/// - Returns: The status, when it is not an error.
@discardableResult
func avcodecCall(
    _ function: String, _ code: FlipbookError.Code, _ doing: @autoclosure () -> String, _ status: Int32,
    path: String? = nil
) throws -> Int32 {
    guard status < 0 else { return status }
    var buffer = [CChar](repeating: 0, count: 256)
    let message =
        av_strerror(status, &buffer, buffer.count) == 0
        ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    throw FlipbookError(
        code, doing(), path: path,
        underlying: LibraryCallError(
            library: "libavcodec", function: function, status: Int(status), libraryMessage: message))
}

/// libavcodec's "take output first" and "drained" statuses.
enum AVCodecStatus {
    static let again = flipbook_averror_eagain()
    static let endOfFile = flipbook_averror_eof()
}
