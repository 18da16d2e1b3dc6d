import Foundation
import ISOBMFF

/// Where a ``MovieWriter`` puts its samples: a progressive (``MovieFile``) or a fragmented
/// (``FragmentedMovieFile``) movie under a hidden temporary name beside the destination.
///
/// The writer hands over whole samples (bytes and table entry together), each track's in decode
/// order; ``commit(tracks:extensions:)`` makes the movie complete and renames it over the
/// destination; ``discard()`` removes the temporary files.
protocol MovieOutput: AnyObject {
    /// Stores one whole sample of track `track` (an index into the movie's tracks).
    ///
    /// - Parameter tracks: The tracks as they stand (edit lists so far), for outputs that write
    ///   their header before the movie is complete.
    func append(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws
    /// Completes the movie and renames it over the destination; returns its size in bytes.
    ///
    /// - Parameters:
    ///   - tracks: The tracks with their final edit lists.
    ///   - extensions: Private boxes for the end of `moov` (a segment's description).
    func commit(tracks: [Track], extensions: [UserExtensionBox]) throws -> UInt64
    /// Removes the temporary files; the destination is not touched.
    func discard()
    /// Warnings about a committed movie, such as a folder that could not be flushed to the disk.
    var warnings: [String] { get }
}
