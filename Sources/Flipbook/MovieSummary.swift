import Foundation

/// What a finished movie holds.
public struct MovieSummary: Sendable, Hashable {
    /// Where the movie is.
    public var url: URL
    /// Frames written.
    public var frames: Int
    /// Total duration, the last frame's full duration included.
    public var duration: MediaTime
    /// Size of the file in bytes.
    public var bytes: UInt64
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The codec, as ffprobe names it (`h264`).
    public var codec: String
    /// The first image's size when the movie's size was taken from it and rounded up to even sides;
    /// `nil` when no rounding was needed.
    public var sizeRoundedFrom: FrameSize? = nil
    /// The images left out because they could not be used (see `skipInvalidImages` of
    /// ``MovieWriter/makeMovie(fromImagesAt:to:options:)``),
    /// each error naming its frame index and file; empty when none was.
    public var skippedImages: [FlipbookError] = []
    /// Things to tell the user about a movie that is complete and in place, each one sentence naming
    /// the movie; empty when there is nothing to say.
    ///
    /// After the movie is renamed into place its folder is flushed to the storage device; if that
    /// fails the movie is still complete, but the rename may not survive a power cut, and this says so.
    public var warnings: [String] = []
    /// How many images were converted from each colour space their files stated into the movie's
    /// (``VideoSettings/colourManagement``), by the space's name (`Display P3`, `Adobe RGB (1998)`, a
    /// profile's own name); empty when every image was in the movie's space already.
    public var colourConversions: [String: Int] = [:]
    /// The numbers missing from a numbered image sequence (see ``GapPolicy``); empty when none is.
    public var missingNumbers: [Int] = []
    /// One sentence naming the missing numbers and the images around each gap; `nil` when none is missing.
    public var gapDescription: String? = nil
    /// The sound track, when the movie was given a ``Soundtrack``.
    public var audio: AudioStreamInfo? = nil
    /// The bytes of the video stream (its samples, without the container).
    public var videoBytes: UInt64 = 0
    /// The encodes made: 1, 2 for two passes, and for a ``RateControl/targetSize(bytes:)`` the first
    /// pass and every try.
    public var passes = 1
    /// How a target size was reached, one sentence a try that missed it: "try 1 at 2000 kb/s came to
    /// 8312345 bytes, over the target of 8000000; encoded again at 1890 kb/s". Empty otherwise.
    public var notes: [String] = []

    /// The video stream's average rate in bits per second: its bytes over the movie's duration.
    public var videoBitrate: Double {
        duration.seconds > 0 ? Double(videoBytes) * 8 / duration.seconds : 0
    }
    /// The title, artist, creation date and other tags written into the movie; empty when none were.
    public var metadata = MovieMetadata()
    /// How far the pictures are turned clockwise when shown (the video track's display matrix).
    public var rotation: Rotation = .upright
}
