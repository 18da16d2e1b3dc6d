/// The x264 speed/compression trade-off, from fastest to smallest output.
public enum EncoderPreset: String, Sendable, CaseIterable {
    case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo
}

/// What the movie will be: size, rate, and how hard the encoder works.
///
/// ```swift
/// let settings = VideoSettings(width: 1920, height: 1080, frameRate: FrameRate(30))
/// ```
/// The defaults are H.264 High, CRF 23, preset medium, 4:2:0 with BT.709 limited-range colour.
public struct VideoSettings: Sendable, Hashable {
    /// Width of the movie in pixels: even, 2 to 16384.
    public var width: Int
    /// Height of the movie in pixels: even, 2 to 16384.
    public var height: Int
    /// Frames per second; frame `i` starts at exactly `i / frameRate`.
    public var frameRate: FrameRate
    /// Constant rate factor, 0 (best) to 51 (smallest); 18 looks visually lossless, 23 is the default.
    public var crf: Double
    /// How much time the encoder spends finding a smaller encoding.
    public var preset: EncoderPreset
    /// Encoder threads; 0 lets the encoder choose from the number of cores.
    public var encoderThreads: Int

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - width: Width in pixels, even.
    ///   - height: Height in pixels, even.
    ///   - frameRate: Frames per second (30 by default).
    ///   - crf: Constant rate factor, 0...51 (23 by default).
    ///   - preset: x264 preset (`medium` by default).
    ///   - encoderThreads: Encoder threads, 0 for automatic.
    public init(
        width: Int, height: Int, frameRate: FrameRate = FrameRate(30), crf: Double = 23,
        preset: EncoderPreset = .medium, encoderThreads: Int = 0
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.crf = crf
        self.preset = preset
        self.encoderThreads = encoderThreads
    }

    /// Throws when a setting is out of range, with a message that says which and what is allowed.
    func validate() throws {
        for (name, value) in [("width", width), ("height", height)] {
            guard (2...16384).contains(value) else {
                throw FlipbookError(.invalidSettings, "\(name) \(value) is out of range; use 2 to 16384 pixels")
            }
            guard value % 2 == 0 else {
                throw FlipbookError(
                    .invalidSettings, "\(name) \(value) is odd; 4:2:0 video needs an even \(name), such as \(value + 1)"
                )
            }
        }
        guard crf.isFinite, (0...51).contains(crf) else {
            throw FlipbookError(.invalidSettings, "CRF \(crf) is out of range; use 0 (best) to 51 (smallest)")
        }
        guard (0...128).contains(encoderThreads) else {
            throw FlipbookError(.invalidSettings, "encoder threads \(encoderThreads) is out of range; use 0 to 128")
        }
    }
}
