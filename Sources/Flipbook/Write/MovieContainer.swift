import Foundation
import ISOBMFF

/// The kind of file a movie is written as, chosen by the destination's extension.
///
/// | Container | Extensions | What it is |
/// |---|---|---|
/// | ``mp4`` | `.mp4` | ISO MP4, what browsers, phones and editors read |
/// | ``m4v`` | `.m4v` | Apple's MP4 variant, for iTunes and the TV app |
/// | ``mov`` | `.mov`, `.qt` | a QuickTime movie, for Final Cut and QuickTime Player |
///
/// A destination with another extension, or none, is refused before anything is written (see
/// ``init(forOutput:)``), so a movie never lands under a name that promises another kind of file.
public enum MovieContainer: String, Sendable, Hashable, CaseIterable {
    /// ISO MP4 (`.mp4`).
    case mp4
    /// Apple's MP4 variant (`.m4v`).
    case m4v
    /// A QuickTime movie (`.mov`, `.qt`).
    case mov

    /// The container a destination's extension asks for, compared case-insensitively.
    ///
    /// - Throws: ``FlipbookError`` with `.unsupportedOutput` naming the destination and the
    ///   extensions there are, for any other extension or none.
    public init(forOutput url: URL) throws {
        let pathExtension = url.pathExtension.lowercased()
        guard let container = Self.allCases.first(where: { $0.record.extensions.contains(pathExtension) }) else {
            throw FlipbookError(
                .unsupportedOutput,
                (pathExtension.isEmpty
                    ? "the output name has no extension" : "Flipbook does not write .\(pathExtension) files")
                    + "; name it \(Self.extensionList)", path: url.path)
        }
        self = container
    }

    /// The file name extensions that ask for this container, without the dot, the usual one first.
    public var fileExtensions: [String] { record.extensions }

    /// Every extension Flipbook writes, as a person reads them: `.mp4, .m4v, .mov or .qt`.
    public static var extensionList: String {
        let all = allCases.flatMap(\.fileExtensions).map { "." + $0 }
        return all.dropLast().joined(separator: ", ") + " or " + all.last!
    }

    /// The record that describes the container.
    var record: Record {
        switch self {
        case .mp4: Record(extensions: ["mp4"], brand: .mp4)
        case .m4v: Record(extensions: ["m4v"], brand: .m4v)
        case .mov: Record(extensions: ["mov", "qt"], brand: .quickTime)
        }
    }

    /// One container's facts and its muxing session.
    struct Record {
        /// Extensions without the dot, lowercase, the usual one first.
        let extensions: [String]
        /// The ISO-BMFF brand, which decides `ftyp` and QuickTime details.
        let brand: FileBrand

        /// The session that lays out a movie of tracks with these timescales: progressive, with the
        /// header inserted in front of media on blocks of `alignment` bytes, or fragmented, with
        /// fragments of about `fragmentDuration` ticks of the first track; `tags` go in its `moov`.
        func makeSession(
            timescales: [UInt32], alignment: Int, fragmentDuration: UInt64?, tags: MovieTags = MovieTags()
        ) -> any MuxingSession {
            if let fragmentDuration {
                return FragmentedMovieSession(
                    brand: brand, trackCount: timescales.count, fragmentDuration: fragmentDuration, tags: tags)
            }
            return ProgressiveMovieSession(brand: brand, timescales: timescales, alignment: alignment, tags: tags)
        }
    }
}
