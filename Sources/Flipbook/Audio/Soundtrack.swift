import Foundation

/// A sound file to give a movie, with where it starts and whether it repeats.
///
/// Compressed sound (AAC in `.m4a` or ADTS `.aac`, MP3, Opus in Ogg) is copied into the movie packet for packet, with
/// the source's encoder delay carried in the movie's edit list so the first audible sample plays at
/// movie time zero. Uncompressed sound (WAV: 16- or 24-bit PCM, 32-bit float) and FLAC are encoded to
/// AAC-LC by libavcodec, with the encoder's delay in the edit list. The movie lasts as long as its pictures: longer sound is cut exactly there,
/// shorter sound leaves silence after it ends.
///
/// ```swift
/// let writer = try MovieWriter(
///     url: URL(filePath: "out.mp4"), settings: settings,
///     soundtrack: Soundtrack(url: URL(filePath: "song.m4a")))
/// ```
public struct Soundtrack: Sendable, Hashable {
    /// The sound file.
    public var url: URL
    /// When the sound starts on the movie's timeline: later by a positive offset (silence before
    /// it), or with its beginning skipped by a negative one.
    public var offset: MediaTime
    /// Whether sound shorter than the movie repeats until the movie ends.
    public var loops: Bool
    /// The bit rate of AAC encoded from uncompressed or FLAC sound, in bits a second; `nil` means
    /// 80 kb/s a channel (160 kb/s stereo). Compressed sound is copied and keeps its own.
    public var bitrate: Int?

    /// Creates a soundtrack.
    ///
    /// - Parameters:
    ///   - url: The sound file.
    ///   - offset: When the sound starts on the movie's timeline; zero by default.
    ///   - loops: Whether sound shorter than the movie repeats; `false` by default.
    ///   - bitrate: The bit rate of AAC encoded from uncompressed or FLAC sound; `nil` for the default.
    public init(url: URL, offset: MediaTime = .zero, loops: Bool = false, bitrate: Int? = nil) {
        self.url = url
        self.offset = offset
        self.loops = loops
        self.bitrate = bitrate
    }
}
