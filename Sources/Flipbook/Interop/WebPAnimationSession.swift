internal import CWebPMux
import ISOBMFF
import MediaModel

/// An animated WebP as a muxing session: RGBA frames with their durations in, given to libwebp's
/// animation encoder (which chooses each frame's rectangle, blending and disposal); the whole file
/// out when the movie finishes.
///
/// Timestamps are milliseconds from the frames' exact times, rounded once each (frame `i` of a
/// constant rate at `round(1000 i/fps)`), so durations never drift; the end is the movie's end.
struct WebPAnimationSession: MuxingSession {
    let timescale: Int64
    private let encoder: WebPAnimationEncoder
    /// Where the frames so far end, in ticks.
    private var elapsed: Int64 = 0
    /// The latest frame's timestamp in milliseconds.
    private var lastTimestamp: Int64?
    private var framesGiven = 0
    private var framesLeftOut = 0

    init(timescale: UInt32, options: AnimationOptions) throws {
        self.timescale = Int64(max(1, timescale))
        encoder = try WebPAnimationEncoder(options: options)
    }

    /// Ticks as milliseconds, rounded to the nearest (halves up).
    private func milliseconds(_ ticks: Int64) -> Int64 {
        (ticks * 2000 + timescale) / (2 * timescale)
    }

    mutating func add(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws -> [WriteAction] {
        guard track == TrackKind.video.index else {
            throw FlipbookError.animatedImageGivenSound(".webp")
        }
        let timestamp = milliseconds(elapsed)
        elapsed += Int64(sample.duration)
        framesGiven += 1
        // Two frames in one millisecond (more than 1000 a second): the later one is left out.
        if let lastTimestamp, timestamp <= lastTimestamp {
            framesLeftOut += 1
            return []
        }
        lastTimestamp = timestamp
        try encoder.add(sample.data, timestamp: timestamp)
        return []
    }

    mutating func finish(tracks: [Track], extensions: [MovieExtension]) throws -> [WriteAction] {
        let end = max(milliseconds(elapsed), (lastTimestamp ?? 0) + 1)
        return [.append(try encoder.assemble(end: end))]
    }

    var warnings: [String] {
        guard framesLeftOut > 0 else { return [] }
        return [
            "a WebP's times are whole milliseconds, so \(framesLeftOut) of \(framesGiven) frames that fell in the "
                + "same millisecond as the one before were left out"
        ]
    }
}

/// The one owner of a `WebPAnimEncoder`, made in a throwing init and deleted in `deinit`.
///
/// Used by one session at a time (the writer's), never concurrently, hence `@unchecked Sendable`.
final class WebPAnimationEncoder: @unchecked Sendable {
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private let width: Int
    private let height: Int
    private let keepsAlpha: Bool

    init(options: AnimationOptions) throws {
        (width, height, keepsAlpha) = (options.width, options.height, options.keepsAlpha)
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0, WebPConfigInit(&config) != 0 else {
            throw Self.failure("WebPAnimEncoderOptionsInit", "the WebP encoder could not be set up", message: nil)
        }
        encoderOptions.anim_params.loop_count = Int32(options.loopCount)
        // A transparent background: a frame that keeps alpha shows what is behind the image.
        encoderOptions.anim_params.bgcolor = 0
        config.quality = Float(options.lossless ? 75 : options.quality)
        config.lossless = options.lossless ? 1 : 0
        // Lossy: method 6 (libwebp's most thorough search) and the smallest of the frame candidates the
        // animation encoder tries, smaller than method 4 at the same quality and at least as close to
        // the sources at every frame, for about five times the encoding time. Lossless stays at method 4,
        // where method 6 costs far more time for a few percent.
        config.method = options.lossless ? 4 : 6
        encoderOptions.minimize_size = options.lossless ? 0 : 1
        guard WebPValidateConfig(&config) != 0 else {
            throw Self.failure("WebPValidateConfig", "the WebP settings were refused", message: nil)
        }
        guard let made = WebPAnimEncoderNew(Int32(width), Int32(height), &encoderOptions) else {
            throw Self.failure(
                "WebPAnimEncoderNew", "the WebP encoder could not be opened for \(width)x\(height)", message: nil)
        }
        encoder = made
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Encodes a frame of canvas-sized RGBA shown from `timestamp` milliseconds.
    func add(_ rgba: [UInt8], timestamp: Int64) throws {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw Self.failure("WebPPictureInit", "a WebP frame could not be made", message: nil)
        }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        defer { WebPPictureFree(&picture) }
        let imported = rgba.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4))
        }
        guard imported != 0 else {
            throw Self.failure("WebPPictureImportRGBA", "a WebP frame could not be made", message: nil)
        }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
            throw Self.failure(
                "WebPAnimEncoderAdd", "the WebP frame at \(timestamp) ms could not be encoded", message: errorMessage)
        }
    }

    /// Ends the animation at `end` milliseconds and returns the whole file.
    func assemble(end: Int64) throws -> [UInt8] {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: end), nil) != 0 else {
            throw Self.failure("WebPAnimEncoderAdd", "the WebP animation could not be ended", message: errorMessage)
        }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw Self.failure(
                "WebPAnimEncoderAssemble", "the WebP file could not be put together", message: errorMessage)
        }
        var file = Array(UnsafeBufferPointer(start: bytes, count: data.size))
        // The encoder trims transparent borders off key frames, so a frame whose transparency lies
        // only there is stored opaque and the file loses its alpha flag; the canvas around it is
        // transparent all the same, which the VP8X chunk's alpha flag (bit 4 of its first byte) says.
        if keepsAlpha && file.count > 20 && file[12..<16].elementsEqual("VP8X".utf8) { file[20] |= 0x10 }
        return file
    }

    /// The encoder's own words for its last failure.
    private var errorMessage: String? {
        WebPAnimEncoderGetError(encoder).map { String(cString: $0) }
    }

    /// The one way libwebpmux's failures become Swift errors: a ``FlipbookError`` saying what
    /// Flipbook was doing, with the function and libwebp's message in its cause.
    private static func failure(_ function: String, _ doing: String, message: String?) -> FlipbookError {
        FlipbookError.libraryCallFailed(
            .encoderFailed, doing,
            cause: LibraryCallError(library: "libwebpmux", function: function, status: 0, libraryMessage: message))
    }
}
