/// A call into a C library that failed, as each library's funnel reports it: what Flipbook was doing, in
/// its own words, with the library, function, status and the library's message kept as the cause.
extension FlipbookError {
    /// A library call failed while Flipbook was `doing` something (`"the AAC encoder failed"`).
    ///
    /// - Parameters:
    ///   - code: The kind of failure: `.encoderFailed` for an encoder, `.invalidAudio` for a soundtrack that
    ///     cannot be read, `.invalidSettings` for a value the library refused.
    ///   - doing: What failed, as the user reads it.
    ///   - path: The file at fault, when there is one.
    ///   - cause: The call, its status and the library's own words.
    static func libraryCallFailed(
        _ code: Code, _ doing: String, path: String? = nil, cause: LibraryCallError,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(code, doing, path: path, underlying: cause, fileID: fileID, line: line)
    }
}
