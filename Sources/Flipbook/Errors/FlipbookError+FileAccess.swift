/// Files that cannot be opened or read as the system reports it: not a regular file, gone, not
/// permitted, shorter than they should be, or a system call that failed. Each keeps where it was raised
/// (``FlipbookError/origin``) and the system's cause.
extension FlipbookError {
    /// An input that is a folder, FIFO, socket or device, named as `what` it is (`"a folder"`).
    static func notAnImageFile(
        _ what: String, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unreadableInput, "this is \(what), not an image file; give \(ImageFormat.nameList) files", path: path,
            fileID: fileID, line: line)
    }

    /// An input file that was listed and is no longer there.
    static func inputFileGone(
        path: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unreadableInput,
            "the file is gone: it was moved or deleted after the inputs were listed; put it back or leave it out",
            path: path, underlying: cause, fileID: fileID, line: line)
    }

    /// An input file Flipbook may not read.
    static func inputFileNotPermitted(
        path: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unreadableInput,
            "the file cannot be read: permission denied; make it readable (chmod a+r) or leave it out", path: path,
            underlying: cause, fileID: fileID, line: line)
    }

    /// An input file that cannot be opened or read, for the system's `reason`.
    static func inputFileUnreadable(
        path: String, reason: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unreadableInput, "the file cannot be read: \(reason)", path: path, underlying: cause, fileID: fileID,
            line: line)
    }

    /// A file that ends before the bytes it should hold.
    static func fileTruncated(
        path: String, before end: UInt64, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unreadableInput, "the file ends before byte \(end); it is truncated", path: path, fileID: fileID,
            line: line)
    }

    /// A system call on `path` failed: Flipbook could not `verb` (`"write the movie"`, `"watch the folder"`)
    /// for the system's `reason`.
    ///
    /// - Parameter code: `.outputNotWritable` for the movie, `.unreadableInput` for an input.
    static func systemCallFailed(
        _ code: Code, cannot verb: String, reason: String, path: String, cause: SystemCallError,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            code, "cannot \(verb): \(reason)", path: path, underlying: cause, fileID: fileID, line: line)
    }
}
