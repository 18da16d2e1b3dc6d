internal import CVPX

/// The one way libvpx's status codes become Swift errors: anything but `VPX_CODEC_OK` throws
/// ``LibraryCallError`` with the function, libvpx's name for the status and its detail for the
/// handle, inside a ``FlipbookError`` that says what Flipbook was doing.
///
/// The error's ``FlipbookError/origin`` is the line that called the funnel.
///
/// - Parameters:
///   - function: The libvpx function called, for the underlying error.
///   - doing: What failed, as the user reads it.
///   - status: What the call returned.
///   - context: The encoder handle, whose detail message (`vpx_codec_error_detail`) is kept, or `nil`.
func vpxCall(
    _ function: String, _ doing: @autoclosure () -> String, _ status: vpx_codec_err_t,
    context: UnsafeMutablePointer<vpx_codec_ctx_t>? = nil, fileID: String = #fileID, line: Int = #line
) throws {
    guard status != VPX_CODEC_OK else { return }
    var message = vpx_codec_err_to_string(status).map { String(cString: $0) }
    if let context, let detail = vpx_codec_error_detail(context) {
        message = (message.map { $0 + ": " } ?? "") + String(cString: detail)
    }
    let code: FlipbookError.Code = status == VPX_CODEC_INVALID_PARAM ? .invalidSettings : .encoderFailed
    throw FlipbookError.libraryCallFailed(
        code, doing(),
        cause: LibraryCallError(
            library: "libvpx", function: function, status: Int(status.rawValue), libraryMessage: message),
        fileID: fileID, line: line)
}
