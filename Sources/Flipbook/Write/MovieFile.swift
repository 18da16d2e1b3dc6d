import Foundation
import ISOBMFF

/// The movie on disk while it is being written: media bytes in a hidden file beside the destination,
/// and, on ``commit(track:editList:)``, a complete faststart file renamed over the destination.
///
/// Nothing appears at the destination until the movie is complete. An existing destination is never
/// opened; without permission to overwrite it is never replaced either. Dropping an uncommitted
/// `MovieFile` removes its temporary files.
final class MovieFile {
    let destination: URL
    let overwrite: Bool
    let brand: FileBrand
    private let moviePath: String
    private let mediaPath: String
    private var media: POSIXFile?
    private(set) var sampleTable: SampleTable
    private var committed = false
    /// What the caller should pass on about a movie that was committed (see ``publish(_:at:overwrite:)``).
    private(set) var warnings: [String] = []

    /// Checks that a movie may be written at `destination`, before any work is done.
    static func checkDestination(_ destination: URL, overwrite: Bool) throws {
        let path = destination.path
        if POSIXFile.isDirectory(path) {
            throw FlipbookError(
                .outputNotWritable, "the output path is a folder; give a file name such as movie.mp4", path: path)
        }
        if !overwrite && POSIXFile.exists(path) {
            throw FlipbookError(
                .outputExists, "the output file already exists; pass --overwrite (or overwrite: true) to replace it",
                path: path)
        }
        let folder = destination.deletingLastPathComponent().path
        if !POSIXFile.isDirectory(folder) {
            throw FlipbookError(.outputNotWritable, "the output folder does not exist", path: folder)
        }
    }

    /// Creates the hidden media file beside `destination`.
    init(destination: URL, overwrite: Bool, timescale: Int32) throws {
        try MovieFile.checkDestination(destination, overwrite: overwrite)
        sampleTable = SampleTable(timescale: UInt32(timescale))
        self.destination = destination
        self.overwrite = overwrite
        brand = FileBrand(pathExtension: destination.pathExtension)
        let stem = temporaryStem(for: destination)
        moviePath = stem + ".tmp"
        mediaPath = stem + ".media.tmp"
        media = try MovieFile.createTemporary(at: mediaPath, for: destination)
    }

    /// Creates a hidden temporary file for `destination`; a failure names the movie, and the
    /// temporary file in its cause.
    static func createTemporary(at path: String, for destination: URL) throws -> POSIXFile {
        do {
            return try POSIXFile.createExclusive(at: path)
        } catch var error as FlipbookError {
            error.path = destination.path
            throw error
        }
    }

    deinit {
        if !committed { removeTemporaryFiles() }
    }

    /// Stores one encoded sample's bytes, in decode order.
    func writeSampleData(_ data: [UInt8]) throws {
        guard let media else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        try media.write(data)
    }

    /// Adds the table entry of the oldest sample whose bytes were written and whose entry was not yet added.
    func addSample(_ sample: Sample) {
        sampleTable.append(sample)
    }

    /// Writes the complete movie (ftyp, moov, mdat) and renames it over the destination.
    ///
    /// Where the file system can insert blocks at the start of a file (ext4, XFS), the header, padded
    /// with a `free` box to whole blocks, is inserted in front of the media already on disk, and
    /// that file becomes the movie: no byte of media is copied. Elsewhere the header and a copy of
    /// the media go into a second file.
    ///
    /// - Returns: The size of the movie in bytes.
    func commit(track: VideoTrack, editList: [EditListEntry]?, extensions: [UserExtensionBox] = []) throws -> UInt64 {
        guard let media else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        let aligned = try MovieLayout(
            brand: brand, track: track, sampleTable: sampleTable, editList: editList,
            extensions: extensions, alignment: media.blockSize)
        let header: [UInt8]
        if sampleTable.payloadSize > 0, try media.insertRange(at: 0, length: UInt64(aligned.header.count)) {
            header = aligned.header
            try media.write(header, at: 0)
            try media.sync()
            try media.close()
            self.media = nil
            warnings = try MovieFile.publish(mediaPath, at: destination, overwrite: overwrite)
        } else {
            header = try MovieLayout(
                brand: brand, track: track, sampleTable: sampleTable, editList: editList, extensions: extensions
            ).header
            let movie = try POSIXFile.createExclusive(at: moviePath)
            try movie.write(header)
            try movie.append(contentsOf: media)
            try movie.sync()
            try movie.close()
            warnings = try MovieFile.publish(moviePath, at: destination, overwrite: overwrite)
            try? media.close()
            self.media = nil
            POSIXFile.remove(mediaPath)
        }
        committed = true
        return UInt64(header.count) + sampleTable.payloadSize
    }

    /// Gives the complete, synced movie at `path` the destination's name, atomically: `rename` over
    /// the destination when overwriting, otherwise `link`, which fails rather than replace a file
    /// that appeared in the meantime. Afterwards nothing is left at `path`, and the folder is flushed
    /// to the storage device so that the new name survives a power cut.
    ///
    /// - Returns: Warnings for the caller to pass on. Once the movie has its name it is complete, so a
    ///   failure to flush the folder is not a failure of the movie: it is reported as a warning that
    ///   the rename may not survive a power cut.
    /// - Throws: When the movie could not be given its name; the destination is then as it was.
    static func publish(_ path: String, at destination: URL, overwrite: Bool) throws -> [String] {
        if overwrite {
            try POSIXFile.rename(path, over: destination.path)
            return syncFolder(of: destination)
        }
        do {
            try POSIXFile.link(path, toNew: destination.path)
        } catch {
            if POSIXFile.exists(destination.path) {
                throw FlipbookError(
                    .outputExists, "the output file appeared while the movie was being written; it was left as it was",
                    path: destination.path)
            }
            throw error
        }
        POSIXFile.remove(path)
        return syncFolder(of: destination)
    }

    /// Flushes the folder of a movie that was just given its name; a failure is a warning, not an error.
    private static func syncFolder(of destination: URL) -> [String] {
        do {
            try POSIXFile.syncDirectory(destination.deletingLastPathComponent().path)
            return []
        } catch {
            let reason = (error as? FlipbookError).map { "\($0.message) (\($0.underlying ?? ""))" } ?? "\(error)"
            return [
                "\(destination.path): the movie is complete and in place, but \(reason), "
                    + "so the rename may not survive a power cut"
            ]
        }
    }

    /// Removes the temporary files; the destination is not touched.
    func discard() {
        try? media?.close()
        media = nil
        removeTemporaryFiles()
    }

    private func removeTemporaryFiles() {
        POSIXFile.remove(mediaPath)
        POSIXFile.remove(moviePath)
    }
}
