internal import CImageQuant

/// The one way libimagequant's status codes become Swift errors: anything but `LIQ_OK` throws
/// ``LibraryCallError`` with the function and the status's name, inside a ``FlipbookError`` that
/// says what Flipbook was doing (libimagequant has no messages of its own to pass on).
///
/// The error's ``FlipbookError/origin`` is the line that called the funnel.
func imageQuantCall(
    _ function: String, _ doing: @autoclosure () -> String, _ status: liq_error, fileID: String = #fileID,
    line: Int = #line
) throws {
    guard status != LIQ_OK else { return }
    let name =
        switch status {
        case LIQ_QUALITY_TOO_LOW: "LIQ_QUALITY_TOO_LOW"
        case LIQ_VALUE_OUT_OF_RANGE: "LIQ_VALUE_OUT_OF_RANGE"
        case LIQ_OUT_OF_MEMORY: "LIQ_OUT_OF_MEMORY"
        case LIQ_ABORTED: "LIQ_ABORTED"
        case LIQ_BITMAP_NOT_AVAILABLE: "LIQ_BITMAP_NOT_AVAILABLE"
        case LIQ_BUFFER_TOO_SMALL: "LIQ_BUFFER_TOO_SMALL"
        case LIQ_INVALID_POINTER: "LIQ_INVALID_POINTER"
        default: "status \(status.rawValue)"
        }
    throw FlipbookError.libraryCallFailed(
        .encoderFailed, doing(),
        cause: LibraryCallError(
            library: "libimagequant", function: function, status: Int(status.rawValue), libraryMessage: name),
        fileID: fileID, line: line)
}

/// A handle libimagequant returned, or a thrown error naming the function when it returned none.
func imageQuantHandle<Handle>(
    _ function: String, _ doing: @autoclosure () -> String, _ handle: Handle?, fileID: String = #fileID,
    line: Int = #line
) throws
    -> Handle
{
    guard let handle else {
        throw FlipbookError.libraryCallFailed(
            .encoderFailed, doing(),
            cause: LibraryCallError(
                library: "libimagequant", function: function, status: 0, libraryMessage: "returned no handle"),
            fileID: fileID, line: line)
    }
    return handle
}
