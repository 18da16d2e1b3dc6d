/// Movies given to be inspected that cannot be read. Each keeps where it was raised
/// (``FlipbookError/origin``) and its cause.
extension FlipbookError {
    /// The file is not a movie of the `kind` its reader reads (`"MP4 or QuickTime"`), or it is damaged.
    static func movieUnreadable(
        _ kind: String, path: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidMovie, "not a readable \(kind) movie", path: path, underlying: cause, fileID: fileID, line: line)
    }

    /// The movie's file cannot be read at all.
    static func movieFileUnreadable(
        path: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unreadableInput, "cannot read the file", path: path, underlying: cause, fileID: fileID, line: line)
    }
}
