import Foundation
import ISOBMFF

/// Where a ``MovieWriter`` puts its samples: a progressive (``MovieFile``) or a fragmented
/// (``FragmentedMovieFile``) movie under a hidden temporary name beside the destination.
///
/// The writer hands over each sample's bytes as the encoder produces them, and its table entry once
/// its duration is known (one packet later), both in decode order. ``commit(track:editList:)`` makes
/// the movie complete and renames it over the destination; ``discard()`` removes the temporary files.
protocol MovieOutput: AnyObject {
    /// Stores one encoded sample's bytes, in decode order.
    func writeSampleData(_ data: [UInt8]) throws
    /// Adds the entry of the oldest sample whose bytes were written and whose entry was not yet added.
    ///
    /// - Parameter editList: The edit list so far (its last segment still growing), for outputs that
    ///   write their header before the movie is complete.
    func addSample(_ sample: Sample, editList: () -> [EditListEntry]?) throws
    /// Completes the movie and renames it over the destination; returns its size in bytes.
    ///
    /// - Parameter extensions: Private boxes for the end of `moov` (a segment's description).
    func commit(track: VideoTrack, editList: [EditListEntry]?, extensions: [UserExtensionBox]) throws -> UInt64
    /// Removes the temporary files; the destination is not touched.
    func discard()
    /// Warnings about a committed movie, such as a folder that could not be flushed to the disk.
    var warnings: [String] { get }
}

extension MovieFile: MovieOutput {
    func addSample(_ sample: Sample, editList: () -> [EditListEntry]?) {
        addSample(sample)
    }
}

/// The hidden temporary name beside `destination` that a movie is written under:
/// `.NAME.flipbook-PID-RANDOM.tmp` in the destination's folder (so the final rename stays on one
/// file system).
func temporaryStem(for destination: URL) -> String {
    let directory = destination.deletingLastPathComponent().path
    return "\(directory)/.\(destination.lastPathComponent).flipbook-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
}
