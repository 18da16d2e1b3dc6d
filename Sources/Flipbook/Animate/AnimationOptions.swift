import ISOBMFF
import MediaModel

/// The kinds of animated image Flipbook writes; each is a muxing session that also encodes the
/// frames, since its frames depend on their times (GIF drops frames faster than 50 a second) or are
/// encoded together (WebP's animation encoder picks each frame's rectangle and blending).
enum AnimatedImageKind: String, Sendable, CustomStringConvertible {
    case gif = "GIF"
    case webp = "WebP"

    var description: String { rawValue }

    /// The session that encodes and lays out frames whose durations are ticks of `timescale`.
    func makeSession(timescale: UInt32, options: AnimationOptions) throws -> any MuxingSession {
        switch self {
        case .gif: GIFSession(timescale: timescale, options: options)
        case .webp: try WebPAnimationSession(timescale: timescale, options: options)
        }
    }
}

/// What an animated image's session needs to know of the movie's settings.
struct AnimationOptions: Sendable {
    /// The canvas, in pixels.
    var width: Int
    var height: Int
    /// 1 (smallest) to 100 (best).
    var quality: Int
    /// Lossless frames (WebP only).
    var lossless: Bool
    /// Plays: 0 for ever.
    var loopCount: Int
    /// Whether the frames' alpha is kept (1-bit in a GIF) instead of being composited.
    var keepsAlpha: Bool

    init(settings: VideoSettings) {
        width = settings.width
        height = settings.height
        quality = settings.quality
        lossless = settings.lossless
        loopCount = settings.loopCount
        keepsAlpha = settings.keepsAlpha
    }
}

/// The sample entry of an animated image's frames: never written (the file has no `stsd`), it only
/// gives the writer's track its picture size.
struct AnimatedImageEntry: SampleEntry {
    let width: Int
    let height: Int
    /// `gif` or `webp`.
    let codecName: String

    var media: MediaKind { .video(width: width, height: height) }
    func write(to writer: inout ByteWriter, isQuickTime: Bool) {}
}

extension VideoSettings {
    /// The settings for a movie written as `container`: an animated image (GIF, WebP) is always in
    /// its own codec, so its URL's extension chooses it whatever ``codec`` says; others as they are.
    func forContainer(_ container: MovieContainer) -> VideoSettings {
        guard container.isAnimatedImage, codec != container.defaultCodec else { return self }
        var settings = self
        settings.codec = container.defaultCodec
        settings.bitDepth = 8
        return settings
    }
}
