import Foundation
import ISOBMFF

/// Where a movie will appear, checked once before any work starts, and the one way a finished
/// movie gets there.
///
/// The movie is written under a hidden temporary name in the destination's folder (so the final
/// rename stays on one file system) and given the destination's name only when it is complete.
/// An existing destination is never opened; without permission to overwrite it is never replaced
/// either, not even by a file that appears while the movie is being written.
///
/// A file that is replaced passes on what its owner set on it: the hidden file is made with the
/// old file's permission bits (so at no moment is the movie more open than the file it replaces),
/// its owner and group where the process may set them, and its extended attributes (its ACL among
/// them) before the rename. A destination that is a symbolic link is written through: the movie is
/// made beside the link's target and renamed over it, so the link points at the new movie.
struct MovieDestination: Sendable {
    /// Where the movie will appear.
    let url: URL
    /// Whether an existing file there may be replaced.
    let overwrite: Bool
    /// The kind of file the destination's extension asks for.
    let container: MovieContainer
    /// The path the movie is renamed to: the destination's, or, for a symbolic link being
    /// overwritten, the file it points at.
    let target: String
    /// What the owner of the file being replaced set on it; `nil` when no file is replaced.
    let replaced: FileOwnership?
    /// The sizes a finished movie may have to be published; `nil` for any. A movie of another size
    /// is removed instead, and the destination is left as it was (see ``SizeBudgetMissed``).
    var acceptedBytes: ClosedRange<UInt64>? = nil

    /// Checks that a movie may be written at `url`.
    ///
    /// - Throws: `.outputNotWritable` for a folder, a missing folder or a symbolic link that leads
    ///   nowhere, `.unsupportedOutput` for an extension that names no container Flipbook writes,
    ///   `.outputExists` for an existing file (or link) when `overwrite` is false.
    init(_ url: URL, overwrite: Bool) throws {
        let path = url.path
        if POSIXFile.isDirectory(path) {
            throw FlipbookError.outputIsFolder(path)
        }
        container = try MovieContainer(forOutput: url)
        if !overwrite && POSIXFile.exists(path) {
            throw FlipbookError.outputExists(path)
        }
        var target = path
        if overwrite, let link = POSIXFile.linkTarget(of: path) {
            guard let resolved = POSIXFile.resolved(path) else {
                throw FlipbookError.outputLinkLeadsNowhere(path, to: link)
            }
            target = resolved
        }
        let folder = (target as NSString).deletingLastPathComponent
        if !POSIXFile.isDirectory(folder.isEmpty ? "." : folder) {
            throw FlipbookError.outputFolderMissing(folder)
        }
        self.url = url
        self.overwrite = overwrite
        self.target = target
        replaced = overwrite ? POSIXFile.ownership(of: target) : nil
    }

    /// The folder the movie is written in and renamed in.
    private var folder: String {
        let folder = (target as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// A new hidden temporary name beside the destination, without an extension:
    /// `.NAME.flipbook-PID-RANDOM`.
    func temporaryStem() -> String {
        let name = (target as NSString).lastPathComponent
        return "\(folder)/.\(name).flipbook-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Creates a hidden temporary file for the movie, with the replaced file's permissions, owner
    /// and group; a failure names the movie (and the link's target when it is written through a
    /// link), and the temporary file in its cause. Nothing is left behind when it fails.
    ///
    /// - Returns: The file, and warnings about what of the replaced file's ownership it could not keep.
    func createTemporary(at path: String) throws -> (file: POSIXFile, warnings: [String]) {
        do {
            let file = try POSIXFile.createExclusive(at: path, permissions: (replaced?.permissions ?? 0o644) & 0o777)
            do {
                return (file, try keepOwnership(on: file))
            } catch {
                try? file.close()
                POSIXFile.remove(path)
                throw error
            }
        } catch var error as FlipbookError {
            if target != url.path { error.message += " (writing through the link to \(target))" }
            error.path = url.path
            throw error
        }
    }

    /// Gives a new file the replaced file's owner and group where the process may (root may; a
    /// user may give it a group they are in), then its permission bits exactly (after the owner,
    /// whose change clears set-id bits; the umask may have taken bits away at creation).
    ///
    /// - Returns: A warning naming what was not kept; none when all was.
    /// - Throws: When the permissions cannot be set: the old file then stays as it was.
    private func keepOwnership(on file: POSIXFile) throws -> [String] {
        guard let replaced else { return [] }
        var warnings: [String] = []
        let made = try file.ownership()
        if made.owner != replaced.owner || made.group != replaced.group {
            if try !file.setOwner(replaced.owner, group: replaced.group) {
                let groupKept = try made.group == replaced.group || file.setOwner(made.owner, group: replaced.group)
                let lost =
                    groupKept
                    ? "its owner (user \(replaced.owner))"
                    : "its owner and group (user \(replaced.owner), group \(replaced.group))"
                let now = try file.ownership()
                warnings.append(
                    "\(url.path): the new movie keeps the replaced file's permissions but not \(lost): only root may "
                        + "give a file to another user or group, so it belongs to user \(now.owner), group \(now.group)"
                )
            }
        }
        try file.setPermissions(replaced.permissions)
        return warnings
    }

    /// Copies the replaced file's extended attributes (its ACL among them) onto the movie about to
    /// replace it.
    ///
    /// - Returns: A warning naming those that could not be copied; none when all were.
    func keepExtendedAttributes(on file: POSIXFile) -> [String] {
        guard replaced != nil else { return [] }
        let failed = file.copyExtendedAttributes(from: target)
        guard !failed.isEmpty else { return [] }
        return [
            "\(url.path): the new movie does not keep the replaced file's extended attributes "
                + failed.joined(separator: ", ")
        ]
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
            try POSIXFile.rename(path, over: target)
        } else {
            do {
                try POSIXFile.link(path, toNew: target)
            } catch {
                if POSIXFile.exists(url.path) {
                    throw FlipbookError.outputAppeared(url.path)
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
            try POSIXFile.syncDirectory(folder)
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
