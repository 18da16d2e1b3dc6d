internal import CFreeTypeHarfBuzz

/// The one way FreeType's error codes become Swift errors: anything but 0 throws ``LibraryCallError``
/// with the function and the code's name, inside a ``FlipbookError`` that says what Flipbook was doing
/// and names the font file. (Debian's FreeType is built without its error strings, so the names are
/// Flipbook's, from `fterrdef.h`.)
///
/// The error's ``FlipbookError/origin`` is the line that called the funnel.
func freeTypeCall(
    _ function: String, _ doing: @autoclosure () -> String, font path: String, _ status: FT_Error,
    fileID: String = #fileID, line: Int = #line
) throws {
    guard status != 0 else { return }
    throw FlipbookError.libraryCallFailed(
        .invalidSettings, doing(), path: path,
        cause: LibraryCallError(
            library: "FreeType", function: function, status: Int(status), libraryMessage: freeTypeErrorName(status)),
        fileID: fileID, line: line)
}

/// The name of a FreeType error a font file gives, from `fterrdef.h`.
private func freeTypeErrorName(_ status: FT_Error) -> String {
    switch status {
    case 0x01: "cannot open resource"
    case 0x02: "unknown file format"
    case 0x03: "broken file"
    case 0x06: "invalid argument"
    case 0x10: "invalid glyph index"
    case 0x17: "invalid pixel size"
    case 0x40: "out of memory"
    case 0x51: "cannot open stream"
    case 0x55: "invalid stream operation"
    default: "error 0x\(String(status, radix: 16))"
    }
}
