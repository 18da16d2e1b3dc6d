import Foundation
import ISOBMFF

/// Where a movie will appear, checked once before any work starts, and the one way a finished
/// movie gets there.
///
/// The movie is written under a hidden temporary name in the destination's folder (so the final
/// rename stays on one file system) and given the destination's name only when it is complete.
/// An existing destination is never opened; without permission to overwrite it is never replaced
/// either, not even by a file that appears while the movie is being written.
struct MovieDestination: Sendable {
    /// Where the movie will appear.
    let url: URL
    /// Whether an existing file there may be replaced.
    let overwrite: Bool
    /// The kind of file the destination's extension asks for.
    let container: MovieContainer

    /// Checks that a movie may be written at `url`.
    ///
    /// - Throws: `.outputNotWritable` for a folder or a missing folder, `.unsupportedOutput` for an
    ///   extension that names no container Flipbook writes, `.outputExists` for an existing file when
    ///   `overwrite` is false.
    init(_ url: URL, overwrite: Bool) throws {
        let path = url.path
        if POSIXFile.isDirectory(path) {
            throw FlipbookError(
                .outputNotWritable, "the output path is a folder; give a file name such as movie.mp4", path: path)
        }
        container = try MovieContainer(forOutput: url)
        if !overwrite && POSIXFile.exists(path) {
            throw FlipbookError(
                .outputExists, "the output file already exists; pass overwrite: true to replace it", path: path)
        }
        if !POSIXFile.isDirectory(url.deletingLastPathComponent().path) {
            throw FlipbookError(
                .outputNotWritable, "the output folder does not exist", path: url.deletingLastPathComponent().path)
        }
        self.url = url
        self.overwrite = overwrite
    }

    /// A new hidden temporary name beside the destination, without an extension:
    /// `.NAME.flipbook-PID-RANDOM`.
    func temporaryStem() -> String {
        let folder = url.deletingLastPathComponent().path
        return "\(folder)/.\(url.lastPathComponent).flipbook-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Creates a hidden temporary file for the movie; a failure names the movie, and the temporary
    /// file in its cause.
    func createTemporary(at path: String) throws -> POSIXFile {
        do {
            return try POSIXFile.createExclusive(at: path)
        } catch var error as FlipbookError {
            error.path = url.path
            throw error
        }
    }

    /// Gives the complete, synced movie at `path` the destination's name, atomically: `rename` over
    /// the destination when overwriting, otherwise `link`, which fails rather than replace a file
    /// that appeared in the meantime. Afterwards nothing is left at `path`, and the folder is
    /// flushed to the storage device so that the new name survives a power cut.
    ///
    /// - Returns: Warnings for the caller to pass on. Once the movie has its name it is complete, so a
    ///   failure to flush the folder is not a failure of the movie: it is reported as a warning that
    ///   the rename may not survive a power cut.
    /// - Throws: When the movie could not be given its name; the destination is then as it was.
    func publish(_ path: String) throws -> [String] {
        if overwrite {
            try POSIXFile.rename(path, over: url.path)
        } else {
            do {
                try POSIXFile.link(path, toNew: url.path)
            } catch {
                if POSIXFile.exists(url.path) {
                    throw FlipbookError(
                        .outputExists,
                        "the output file appeared while the movie was being written; it was left as it was",
                        path: url.path)
                }
                throw error
            }
            POSIXFile.remove(path)
        }
        return syncFolder()
    }

    /// Flushes the folder of a movie that was just given its name; a failure is a warning, not an error.
    private func syncFolder() -> [String] {
        do {
            try POSIXFile.syncDirectory(url.deletingLastPathComponent().path)
            return []
        } catch {
            let reason =
                (error as? FlipbookError).map { failure in
                    failure.message + (failure.underlying.map { " (\($0))" } ?? "")
                } ?? "\(error)"
            return [
                "\(url.path): the movie is complete and in place, but \(reason), "
                    + "so the rename may not survive a power cut"
            ]
        }
    }
}
