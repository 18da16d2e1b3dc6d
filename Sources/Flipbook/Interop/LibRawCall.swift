internal import CLibRaw

/// The one way LibRaw's status codes become Swift errors: anything but `LIBRAW_SUCCESS` throws
/// ``LibraryCallError`` with the function, the status and `libraw_strerror`'s words, inside a
/// ``FlipbookError`` that says what Flipbook was doing: a file LibRaw does not take is
/// `.unsupportedImage`, damaged or truncated data `.corruptImage`.
///
/// The error's ``FlipbookError/origin`` is the line that called the funnel.
func libRawCall(
    _ function: String, _ doing: @autoclosure () -> String, _ status: Int32, fileID: String = #fileID,
    line: Int = #line
) throws {
    guard status != LIBRAW_SUCCESS.rawValue else { return }
    let code: FlipbookError.Code =
        switch status {
        case LIBRAW_FILE_UNSUPPORTED.rawValue, LIBRAW_REQUEST_FOR_NONEXISTENT_IMAGE.rawValue,
            LIBRAW_NO_THUMBNAIL.rawValue, LIBRAW_UNSUPPORTED_THUMBNAIL.rawValue:
            .unsupportedImage
        default: .corruptImage
        }
    throw FlipbookError.libraryCallFailed(
        code, doing(),
        cause: LibraryCallError(
            library: "LibRaw", function: function, status: Int(status),
            libraryMessage: libraw_strerror(status).map { String(cString: $0) }),
        fileID: fileID, line: line)
}
