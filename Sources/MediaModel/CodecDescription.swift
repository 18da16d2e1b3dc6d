/// What a track's samples are, in the terms every container reads: the codec's name, its own
/// configuration, and the picture's or the sound's facts.
///
/// Each container maps a description to its own identifier from a table of its own: MP4 to a sample
/// entry box (`avc1` with `avcC`), Matroska to a `CodecID` and `CodecPrivate`. The encoder or the
/// sound reader that makes the samples makes the description; no container looks inside another's.
package protocol CodecDescription: Sendable {
    /// The kind of media and its display size.
    var media: MediaKind { get }
    /// The codec's name as ffprobe gives it: `h264`, `prores`, `aac`, `opus`; a container that does
    /// not know the name refuses the track.
    var codecName: String { get }
    /// The codec's configuration as the codec defines it: an `avcC`, `hvcC`, `av1C` or `vpcC` record's
    /// payload, an AudioSpecificConfig, an `OpusHead`, FLAC's stream header, Vorbis's three headers
    /// (Xiph-laced), ALAC's magic cookie; `nil` for none.
    var codecConfiguration: [UInt8]? { get }
    /// The four-character code that names a codec's variant where the codec has no configuration of its
    /// own (ProRes's profile, `apch`); `nil` for the others.
    var codecTag: String? { get }
    /// The pictures' colour, pixel shape and alpha; `nil` for sound.
    var picture: PictureDescription? { get }
    /// The sound's rate and channels; `nil` for pictures.
    var sound: SoundDescription? { get }
    /// Throws if the description cannot be written as it stands (a picture larger than its codec's
    /// configuration allows).
    func validate() throws
}

extension CodecDescription {
    package var codecConfiguration: [UInt8]? { nil }
    package var codecTag: String? { nil }
    package var picture: PictureDescription? { nil }
    package var sound: SoundDescription? { nil }
    /// A description with nothing to check.
    package func validate() throws {}
}

/// What a video track's pictures are beyond their codec.
package struct PictureDescription: Sendable, Equatable {
    /// The colour tags.
    package var colour: ColourDescription
    /// The shape of a pixel.
    package var pixelAspectRatio: PixelAspectRatio
    /// Whether the pictures carry an alpha channel.
    package var hasAlpha: Bool

    /// Creates a picture description.
    package init(colour: ColourDescription, pixelAspectRatio: PixelAspectRatio, hasAlpha: Bool) {
        self.colour = colour
        self.pixelAspectRatio = pixelAspectRatio
        self.hasAlpha = hasAlpha
    }
}

/// What a sound track's samples are beyond their codec.
package struct SoundDescription: Sendable, Equatable {
    /// Samples a second.
    package var sampleRate: Double
    /// Channels.
    package var channelCount: Int

    /// Creates a sound description.
    package init(sampleRate: Double, channelCount: Int) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }
}

/// The kind of media a track holds.
package enum MediaKind: Sendable, Equatable {
    /// Pictures of a display size in pixels.
    case video(width: Int, height: Int)
    /// Sound.
    case audio
    /// A timecode: one sample, the number of the first picture's timecode, for the whole movie.
    case timecode
}
