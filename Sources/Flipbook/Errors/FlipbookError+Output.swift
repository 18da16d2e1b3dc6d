import Foundation

/// The failures of the destination and of the movie being written there: a name Flipbook cannot
/// write, a file or folder in the way, a size the movie cannot be brought to, and calls the writer's
/// state does not allow. One wording each; each keeps where it was raised (``FlipbookError/origin``).
extension FlipbookError {
    // MARK: The destination

    /// The output path names a folder, not a file.
    static func outputIsFolder(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .outputNotWritable, "the output path is a folder; give a file name such as movie.mp4", path: path,
            fileID: fileID, line: line)
    }

    /// The output file exists and overwriting was not asked for.
    static func outputExists(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .outputExists, "the output file already exists; pass overwrite: true to replace it", path: path,
            fileID: fileID, line: line)
    }

    /// The output is a symbolic link to nothing, so overwriting it has nowhere to write.
    static func outputLinkLeadsNowhere(
        _ path: String, to link: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .outputNotWritable,
            "the output is a symbolic link to \(link), which does not exist; point the link at a file, or remove it",
            path: path, fileID: fileID, line: line)
    }

    /// The folder the output would be written in does not exist.
    static func outputFolderMissing(_ folder: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.outputNotWritable, "the output folder does not exist", path: folder, fileID: fileID, line: line)
    }

    /// Another file took the output's name while the movie was being written (and overwriting was not asked for).
    static func outputAppeared(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .outputExists, "the output file appeared while the movie was being written; it was left as it was",
            path: path, fileID: fileID, line: line)
    }

    /// The output's extension names no container Flipbook writes (`pathExtension` is empty when it has none).
    static func outputKindUnknown(
        _ path: String, extension pathExtension: String, known extensionList: String, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedOutput,
            (pathExtension.isEmpty
                ? "the output name has no extension" : "Flipbook does not write .\(pathExtension) files")
                + "; name it \(extensionList)", path: path, fileID: fileID, line: line)
    }

    /// An animated image (GIF, WebP) was asked to hold pictures not encoded by Flipbook.
    static func animationNeedsOwnPictures(
        _ kind: some CustomStringConvertible, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedOutput, "an animated \(kind) holds pictures encoded by Flipbook only", fileID: fileID,
            line: line)
    }

    /// The hidden folder for the first pass could not be made beside the destination.
    static func firstPassFolderNotMade(
        at path: String, cause: any Error, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .outputNotWritable, "the folder for the first pass could not be made at \(path)", underlying: cause,
            fileID: fileID, line: line)
    }

    /// The movie file was used after it was closed.
    static func movieFileClosed(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.invalidState, "the movie file is already closed", fileID: fileID, line: line)
    }

    // MARK: A target size not reached

    /// Every encode of a movie came out over its target size.
    static func targetSizeMissed(
        sizes: [UInt64], tries: Int, target: Int64, path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed,
            "the movie came to \(sizes.map(String.init).joined(separator: ", ")) bytes in \(tries) tries, over the "
                + "target size of \(target) bytes; nothing was written there. Use a larger size or a smaller picture",
            path: path, fileID: fileID, line: line)
    }

    /// An animated image came out over its target size even at the lowest quality tried.
    static func animationOverTargetSize(
        _ kind: String, sizes: [UInt64], tries: Int, target: Int64, quality: Int, path: String,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed,
            "the \(kind) came to \(sizes.map(String.init).joined(separator: ", ")) bytes in \(tries) tries, over the "
                + "target size of \(target) bytes even at quality \(quality); nothing was written there. "
                + "Use a larger size, a smaller picture (--size) or fewer frames a second",
            path: path, fileID: fileID, line: line)
    }

    /// An animated image's tries ran out without one landing at or just under its target size.
    static func animationTargetSizeNotLanded(
        _ kind: String, target: Int64, tries: Int, sizes: [UInt64], path: String, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .encoderFailed,
            "the \(kind) did not land at or under \(target) bytes in \(tries) tries "
                + "(\(sizes.map(String.init).joined(separator: ", ")) bytes); nothing was written there",
            path: path, fileID: fileID, line: line)
    }

    // MARK: The writer's state

    /// `call` came while `finish()` is running.
    static func calledWhileFinishing(_ call: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.invalidState, "\(call) was called while finish() is running", fileID: fileID, line: line)
    }

    /// `call` came after the movie was finished.
    static func calledAfterFinish(_ call: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidState, "\(call) was called after finish(); the movie is already complete", fileID: fileID,
            line: line)
    }

    /// `call` came after the movie was cancelled.
    static func calledAfterCancel(_ call: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .cancelled, "\(call) was called after cancel(); the movie was discarded", fileID: fileID, line: line)
    }
}
