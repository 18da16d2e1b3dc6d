import Foundation

/// A sound file to give a movie, with where it starts and whether it repeats.
///
/// Compressed sound (AAC in `.m4a` or ADTS `.aac`, MP3, Opus in Ogg) is copied into the movie packet for packet
/// where the container holds it (``SoundtrackCodec``), with the source's encoder delay carried in the movie's edit
/// list so the first audible sample plays at movie time zero. Any other sound file FFmpeg's libavformat and
/// libavcodec read (WAV, FLAC, AIFF, ALAC, Vorbis, AC-3, E-AC-3, WMA …) is decoded a packet at a time and encoded to
/// AAC-LC (Opus for WebM), with the encoder's delay in the edit list: above 48 kHz it is resampled to 48 kHz, and
/// mono, stereo, 5.1 and 7.1 keep their layout (others are mixed to one the codec carries, with a warning). The
/// movie lasts as long as its pictures: longer sound is cut exactly there, shorter sound leaves silence after it
/// ends.
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
    /// The bit rate of encoded sound, in bits a second; `nil` means 80 kb/s a channel for AAC (160 kb/s
    /// stereo), 64 kb/s a channel for Opus. Copied sound keeps its own.
    public var bitrate: Int?
    /// Copy or encode, and to what; `nil` chooses by the container and the sound (see ``SoundtrackCodec``).
    public var codec: SoundtrackCodec?
    /// Whether encoded sound keeps a rate above 48 kHz (88.2, 96, 192 kHz) where the codec carries it: AAC up
    /// to 96 kHz, ALAC up to 384 kHz; Opus is always 48 kHz. `false` (the default) resamples such sound to
    /// 48 kHz, as players and the ear need no more. Copied sound always keeps its rate.
    public var keepsSampleRate = false

    /// Creates a soundtrack.
    ///
    /// - Parameters:
    ///   - url: The sound file.
    ///   - offset: When the sound starts on the movie's timeline; zero by default.
    ///   - loops: Whether sound shorter than the movie repeats; `false` by default.
    ///   - bitrate: The bit rate of AAC encoded from uncompressed or FLAC sound; `nil` for the default.
    ///   - codec: Copy or encode, and to what; `nil` (the default) chooses by the container and the sound.
    public init(
        url: URL, offset: MediaTime = .zero, loops: Bool = false, bitrate: Int? = nil, codec: SoundtrackCodec? = nil
    ) {
        self.url = url
        self.codec = codec
        self.offset = offset
        self.loops = loops
        self.bitrate = bitrate
    }
}

extension Soundtrack {
    /// Checks, from the sound file's codec alone, that its sound can be copied into `container`, as
    /// ``SoundtrackCodec/copy`` asks: before any picture is encoded.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings` naming the file, its codec and the containers it
    ///   is copied into; `.invalidAudio` when the file cannot be read as sound.
    public func checkCopy(into container: MovieContainer) throws {
        try SoundFeeds.checkCopy(self, into: container)
    }
}
