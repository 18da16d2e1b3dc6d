import Foundation
import ISOBMFF
import Matroska
import MediaModel

/// The kind of file a movie is written as, chosen by the destination's extension.
///
/// | Container | Extensions | What it is |
/// |---|---|---|
/// | ``mp4`` | `.mp4` | ISO MP4, what browsers, phones and editors read |
/// | ``m4v`` | `.m4v` | Apple's MP4 variant, for iTunes and the TV app |
/// | ``mov`` | `.mov`, `.qt` | a QuickTime movie, for Final Cut and QuickTime Player |
/// | ``webm`` | `.webm` | WebM: VP9 or AV1 with Opus, the web's open format; VP9 keeps alpha |
/// | ``mkv`` | `.mkv` | Matroska: every codec Flipbook writes, for archives and players that prefer it |
/// | ``gif`` | `.gif` | an animated GIF: a palette a frame, for chats, READMEs and bug reports |
/// | ``webp`` | `.webp` | an animated WebP: lossy or lossless, smaller than a GIF, in every browser |
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
    /// WebM (`.webm`): VP9 or AV1 pictures, Opus sound.
    case webm
    /// Matroska (`.mkv`).
    case mkv
    /// An animated GIF (`.gif`): no sound, delays in hundredths of a second.
    case gif
    /// An animated WebP (`.webp`): no sound, times in milliseconds.
    case webp

    /// The container a destination's extension asks for, compared case-insensitively.
    ///
    /// - Throws: ``FlipbookError`` with `.unsupportedOutput` naming the destination and the
    ///   extensions there are, for any other extension or none.
    public init(forOutput url: URL) throws {
        let pathExtension = url.pathExtension.lowercased()
        guard let container = Self.allCases.first(where: { $0.record.extensions.contains(pathExtension) }) else {
            throw FlipbookError.outputKindUnknown(url.path, extension: pathExtension, known: Self.extensionList)
        }
        self = container
    }

    /// The file name extensions that ask for this container, without the dot, the usual one first.
    public var fileExtensions: [String] { record.extensions }

    /// The codec a movie of this container is encoded with when none is asked for: H.264; VP9 for
    /// WebM; the container's own for GIF and WebP.
    public var defaultCodec: VideoCodec {
        switch self {
        case .webm: .vp9
        case .gif: .gif
        case .webp: .webp
        default: .h264
        }
    }

    /// Whether the file is an animated image (GIF, WebP) rather than a movie: no sound, no
    /// metadata tags, its codec its own.
    public var isAnimatedImage: Bool {
        if case .animation = record.layout { return true }
        return false
    }

    /// Whether the container is Matroska or its WebM subset, whose files are EBML.
    public var isMatroska: Bool {
        if case .matroska = record.layout { return true }
        return false
    }

    /// Checks that the container states a rotation: MP4 and QuickTime do (the track's matrix);
    /// Matroska's players read none.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings` naming the containers that do.
    public func checkRotation(_ rotation: Rotation) throws {
        guard isMatroska || isAnimatedImage, rotation != .upright else { return }
        throw FlipbookError.rotationNotWritten(inFilesOf: fileExtensions[0])
    }

    /// Every extension Flipbook writes, as a person reads them: `.mp4, .m4v, .mov, .qt, .webm, .mkv, .gif or .webp`.
    public static var extensionList: String {
        let all = allCases.flatMap(\.fileExtensions).map { "." + $0 }
        return all.dropLast().joined(separator: ", ") + " or " + all.last!
    }

    /// The record that describes the container.
    var record: Record {
        switch self {
        case .mp4: Record(extensions: ["mp4"], layout: .isoBMFF(.mp4))
        case .m4v: Record(extensions: ["m4v"], layout: .isoBMFF(.m4v))
        case .mov: Record(extensions: ["mov", "qt"], layout: .isoBMFF(.quickTime))
        case .webm: Record(extensions: ["webm"], layout: .matroska(.webm))
        case .mkv: Record(extensions: ["mkv"], layout: .matroska(.matroska))
        case .gif: Record(extensions: ["gif"], layout: .animation(.gif))
        case .webp: Record(extensions: ["webp"], layout: .animation(.webp))
        }
    }

    /// How a container's file is laid out.
    enum Layout {
        /// An ISO base media file of this brand: MP4, M4V or QuickTime.
        case isoBMFF(FileBrand)
        /// An EBML file of this document type: Matroska or WebM.
        case matroska(MatroskaSession.DocType)
        /// An animated image, whose session also encodes the frames.
        case animation(AnimatedImageKind)
    }

    /// One container's facts and its muxing session.
    struct Record {
        /// Extensions without the dot, lowercase, the usual one first.
        let extensions: [String]
        /// The file's layout: an ISO-BMFF brand, which decides `ftyp` and QuickTime details, or a
        /// Matroska document type.
        let layout: Layout

        /// The session that lays out a movie of tracks with these timescales: progressive, with the
        /// header inserted in front of media on blocks of `alignment` bytes, or fragmented, with
        /// fragments of about `fragmentDuration` ticks of the first track (and a final header that
        /// outgrows the first one inserted on such blocks); `tags` go in its `moov`.
        /// A Matroska file is written front to back in clusters of a second, or of `fragmentDuration`
        /// each made durable; `frameDuration` (nanoseconds) is its pictures' nominal length.
        /// An animated image's session encodes RGBA frames with `animation`'s quality, loop and alpha.
        func makeSession(
            timescales: [UInt32], alignment: Int, fragmentDuration: UInt64?, frameDuration: UInt64? = nil,
            tags: MovieTags = MovieTags(), animation: AnimationOptions? = nil
        ) throws -> any MuxingSession {
            let brand: FileBrand
            switch layout {
            case .isoBMFF(let iso): brand = iso
            case .animation(let kind):
                guard let animation else {
                    throw FlipbookError.animationNeedsOwnPictures(kind)
                }
                return try kind.makeSession(timescale: timescales[0], options: animation)
            case .matroska(let docType):
                let seconds = fragmentDuration.map { Double($0) / Double(max(1, timescales[0])) } ?? 1
                return MatroskaSession(
                    docType: docType, isDurable: fragmentDuration != nil, clusterSeconds: seconds,
                    frameDuration: frameDuration, tags: tags)
            }
            if let fragmentDuration {
                return FragmentedMovieSession(
                    brand: brand, trackCount: timescales.count, fragmentDuration: fragmentDuration,
                    alignment: alignment, tags: tags)
            }
            return ProgressiveMovieSession(brand: brand, timescales: timescales, alignment: alignment, tags: tags)
        }
    }
}
