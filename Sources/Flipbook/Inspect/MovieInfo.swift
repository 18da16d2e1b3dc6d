import Foundation
import ISOBMFF
import Matroska
import MediaModel

/// What a movie file holds, read from its boxes: codec, size, frames, duration, rate, colour tags,
/// layout, rotation and metadata (what `flipbook probe` prints).
///
/// Works on MP4 and QuickTime files from any tool, plain or fragmented, and on Matroska and WebM
/// files (a file starting with an EBML header), finished or cut short; structural problems found on
/// the way are listed in ``problems`` rather than thrown.
///
/// ```swift
/// let info = try MovieInfo(contentsOf: URL(filePath: "movie.mp4"))
/// print(info.codec, info.frames, info.duration)
/// ```
public struct MovieInfo: Sendable, Codable, Equatable {
    /// The `ftyp` major brand, such as `isom` or `qt  `; for Matroska, the document type (`webm`, `matroska`).
    public var majorBrand: String
    /// `faststart` (index before media), `index at end`, or `fragmented`; for Matroska, where the
    /// index is (`cues at end`, `cues first`, `no cues`), or `unfinished` when the writer did not finish.
    public var layout: String
    /// The codec as ffprobe names it (`h264`, `hevc`), or the sample entry's type.
    public var codec: String
    /// The H.264 profile, such as `High`.
    public var profile: String?
    /// The H.264 level, such as 3.1.
    public var level: Double?
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Whether the pictures carry an alpha channel (ProRes 4444 with alpha), as the sample entry says.
    public var hasAlpha: Bool
    /// Number of frames (samples) in the video track.
    public var frames: Int
    /// Presentation duration in seconds.
    public var duration: Double
    /// The video track's time scale, ticks a second.
    public var timescale: UInt32
    /// `30`, `30000/1001` …, or `variable`.
    public var frameRate: String
    /// Whether every frame lasts the same time (the last frame may differ).
    public var constantFrameRate: Bool
    /// Frames divided by the media's duration.
    public var averageFrameRate: Double
    /// The colour primaries from the `colr` box, as ffprobe names them (`bt709`); `nil` when untagged.
    public var colourPrimaries: String?
    /// The transfer characteristics from the `colr` box, as ffprobe names them.
    public var colourTransfer: String?
    /// The matrix coefficients from the `colr` box, as ffprobe names them.
    public var colourMatrix: String?
    /// `tv` (limited) or `pc` (full), when the `colr` box says.
    public var colourRange: String?
    /// Structural problems found; empty for a sound file.
    public var problems: [String]
    /// The sound track, if the movie has one.
    public var audio: AudioStreamInfo?
    /// Degrees the video track's display matrix turns the pictures clockwise: 0, 90 (a phone's
    /// upright video, which ffprobe reports as rotation -90), 180 or 270; `nil` when the matrix does
    /// something else, such as mirroring. ``width`` and ``height`` are the pictures' own.
    public var rotation: Int?
    /// The video stream's average bit rate in bits a second (its samples' bytes over the movie's
    /// duration); `nil` for a fragmented movie, whose samples are not counted.
    public var videoBitrate: Double?
    /// The most frames from one keyframe to the next (or to the end); `nil` for a fragmented movie.
    public var keyframeInterval: Int?
    /// The movie's tags by the names ffprobe gives them (`title`, `artist`, `comment`, `date`,
    /// `location` …), read from MP4 iTunes items, QuickTime user data strings and `mdta` keys, and
    /// `creation_time` (ISO 8601, UTC) when the movie header has one; empty when there are none.
    public var metadata: [String: String]
    /// How many images Flipbook converted from each colour space their files stated into the movie's
    /// (`Display P3`, `Adobe RGB (1998)` …), as the movie records it (the tag
    /// `com.flipbook.colour-conversions`, which is then not in ``metadata``); `nil` when it records
    /// none: every image was in the movie's space already, the movie was made with colour
    /// management off or fragmented, or by another tool.
    public var colourConversions: [String: Int]?

    /// Reads the movie at `url`.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidMovie` when the file is not a readable MP4,
    ///   QuickTime, Matroska or WebM movie with a video track, `.unreadableInput` when it cannot be read.
    public init(contentsOf url: URL) throws {
        if MatroskaFile.startsWithEBMLHeader(path: url.path) {
            self = try Self.matroska(at: url.path)
            takeColourConversions()
            return
        }
        let inspection: MovieInspection
        do {
            inspection = try MovieInspection.inspect(path: url.path)
        } catch let error as MediaReadingError {
            throw FlipbookError.movieUnreadable("MP4 or QuickTime", path: url.path, cause: error)
        } catch {
            throw FlipbookError.movieFileUnreadable(path: url.path, cause: SystemCause(error))
        }
        self.init(inspection)
        takeColourConversions()
    }

    /// Moves the colour conversions the tags record from ``metadata`` to ``colourConversions``.
    private mutating func takeColourConversions() {
        let counts = ColourConversionTag.take(from: &metadata)
        colourConversions = counts.isEmpty ? nil : counts
    }

    private init(_ movie: MovieInspection) {
        majorBrand = movie.majorBrand
        layout = movie.layout
        codec = movie.codec
        profile = movie.profile
        level = movie.level
        width = movie.width
        height = movie.height
        hasAlpha = movie.hasAlpha
        frames = movie.frames
        duration = movie.duration
        timescale = movie.timescale
        frameRate = movie.frameRate
        constantFrameRate = movie.constantFrameRate
        averageFrameRate = movie.averageFrameRate
        colourPrimaries = movie.colourPrimaries
        colourTransfer = movie.colourTransfer
        colourMatrix = movie.colourMatrix
        colourRange = movie.colourRange
        problems = movie.problems
        rotation = movie.rotation
        videoBitrate = movie.videoBytes.flatMap { bytes in
            movie.duration > 0 ? (Double(bytes) * 8 / movie.duration).rounded() : nil
        }
        keyframeInterval = movie.keyframeInterval
        metadata = Dictionary(movie.tags.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        if movie.creationTime > 0 {
            metadata["creation_time"] = MovieMetadata.iso8601(
                MovieMetadata.epoch.addingTimeInterval(Double(movie.creationTime)))
        }
        audio = movie.audio.map {
            AudioStreamInfo(codec: $0.codec, sampleRate: $0.sampleRate, channels: $0.channels, duration: $0.duration)
        }
    }
}

/// A movie's sound track: its codec, rate, channels and how long it plays.
public struct AudioStreamInfo: Sendable, Codable, Hashable {
    /// The codec as ffprobe names it: `aac`, `mp3` or `opus`.
    public var codec: String
    /// Samples a second.
    public var sampleRate: Int
    /// Channels.
    public var channels: Int
    /// How long the sound plays, in seconds (at most the movie's duration).
    public var duration: Double

    /// Creates a description of a sound track.
    public init(codec: String, sampleRate: Int, channels: Int, duration: Double) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.duration = duration
    }
}
