import Foundation
import ISOBMFF
import MediaModel

/// The one place a movie's bytes reach the disk: performs a muxing session's ``WriteAction``s on a
/// hidden temporary file beside the destination, and gives the complete movie the destination's name.
///
/// Nothing appears at the destination until ``commit()``. An existing destination is never opened;
/// without permission to overwrite it is never replaced either. Dropping an uncommitted sink removes
/// its temporary files.
final class MovieFileSink {
    let destination: MovieDestination
    /// The file being written, and its path.
    private var file: POSIXFile?
    private var path: String
    /// Where a header goes with a copy of the media when it cannot be inserted in front of it.
    private let copyPath: String
    /// Files that samples' bytes are copied from, by number.
    private var sources: [POSIXFile] = []
    /// The bytes written so far: the movie's size once committed.
    private(set) var size: UInt64 = 0
    private var committed = false
    /// What the caller should pass on about a movie that was committed: what of a replaced file's
    /// ownership it could not keep, and a folder that could not be flushed (see ``MovieDestination/publish(_:)``).
    private(set) var warnings: [String] = []

    /// Creates the hidden file beside `destination`.
    ///
    /// - Parameter playable: Whether the file is a movie at every moment (a fragmented one): it is
    ///   then `.NAME.flipbook-PID-RANDOM.tmp`, the name a user renames after a crash, and a header
    ///   put in front of it by copying goes into `….copy.tmp`; otherwise it holds media only, as
    ///   `….media.tmp`, and the header goes into `….tmp`.
    init(destination: MovieDestination, playable: Bool) throws {
        self.destination = destination
        let stem = destination.temporaryStem()
        copyPath = stem + (playable ? ".copy.tmp" : ".tmp")
        path = stem + (playable ? ".tmp" : ".media.tmp")
        let made = try destination.createTemporary(at: path)
        file = made.file
        warnings = made.warnings
    }

    deinit {
        if !committed { removeTemporaryFiles() }
    }

    /// The file system's block size, for a header inserted in front of the media.
    var blockSize: Int { file?.blockSize ?? 1 }

    /// Numbers a file that samples' bytes are copied from (``MediaSample/withBytes(inSource:at:count:)``).
    func addSource(_ source: POSIXFile) -> Int {
        sources.append(source)
        return sources.count - 1
    }

    /// Performs the actions in order.
    func perform(_ actions: [WriteAction]) throws {
        guard let file else { throw FlipbookError.movieFileClosed() }
        for action in actions {
            switch action {
            case .append(let bytes):
                try file.write(bytes)
                size += UInt64(bytes.count)
            case .copy(let source, let offset, let count):
                try file.append(count, bytesOf: sources[source], at: offset)
                size += count
            case .overwrite(let bytes, let offset):
                try file.write(bytes, at: offset)
                size = max(size, offset + UInt64(bytes.count))
            case .syncData:
                try file.syncData()
            case .prependHeader(let inserted, let copied):
                try prepend(inserted: inserted, copied: copied, to: file)
            }
        }
    }

    /// Puts a header in front of the media: inserted as whole blocks where the file system can
    /// (ext4, XFS), so no byte of media is copied; elsewhere written into a second file followed by
    /// a copy of the media, which then becomes the file being written.
    private func prepend(inserted: [UInt8]?, copied: [UInt8], to media: POSIXFile) throws {
        if let inserted, try media.insertRange(at: 0, length: UInt64(inserted.count)) {
            try media.write(inserted, at: 0)
            size += UInt64(inserted.count)
            return
        }
        let (movie, _) = try destination.createTemporary(at: copyPath)
        file = movie
        try movie.write(copied)
        try movie.append(contentsOf: media)
        try? media.close()
        POSIXFile.remove(path)
        path = copyPath
        size += UInt64(copied.count)
    }

    /// Makes the movie durable and renames it over the destination.
    func commit() throws {
        guard let file else { throw FlipbookError.movieFileClosed() }
        warnings += destination.keepExtendedAttributes(on: file)
        if let accepted = destination.acceptedBytes, !accepted.contains(size) {
            throw SizeBudgetMissed(bytes: size)
        }
        try file.sync()
        try file.close()
        self.file = nil
        warnings += try destination.publish(path)
        committed = true
        closeSources()
    }

    /// Removes the temporary files; the destination is not touched.
    func discard() {
        try? file?.close()
        file = nil
        closeSources()
        removeTemporaryFiles()
    }

    private func closeSources() {
        for source in sources { try? source.close() }
        sources = []
    }

    private func removeTemporaryFiles() {
        POSIXFile.remove(path)
        POSIXFile.remove(copyPath)
    }
}

/// A finished movie whose size is outside ``MovieDestination/acceptedBytes``: it is discarded, not
/// published, and the encode is made again at another rate.
struct SizeBudgetMissed: Error, CustomStringConvertible {
    /// The movie's size.
    let bytes: UInt64

    var description: String { "the movie came to \(bytes) bytes, outside its size budget" }

    /// The miss behind `error`, through the errors that wrap it.
    static func behind(_ error: any Error) -> SizeBudgetMissed? {
        var current: (any Error)? = error
        while let error = current {
            if let missed = error as? SizeBudgetMissed { return missed }
            current = (error as? FlipbookError)?.underlying
        }
        return nil
    }
}
