extension VideoSettings {
    /// Creates settings without a size, for a movie that takes its size from its images:
    /// ``MovieWriter/makeMovie(fromImagesAt:to:options:)`` and ``MovieWriter/makeMovie(following:to:options:)``
    /// give it the first image's size, rounded up to even. A ``MovieWriter`` made with settings
    /// without a size refuses them.
    ///
    /// - Parameters:
    ///   - frameRate: Frames per second (30 by default).
    ///   - crf: Constant rate factor on the codec's scale; `nil` (the default) takes the codec's default.
    ///   - preset: Encoder preset (`medium` by default).
    ///   - encoderThreads: Encoder threads, 0 for automatic.
    ///   - timescale: Ticks a second of the movie's clock; `nil` chooses one (see ``timescale``).
    ///   - codec: The video codec (H.264 by default).
    ///   - bitDepth: 8 (the default) or 10 (H.264 High 10, HEVC Main 10, AV1).
    public init(
        frameRate: FrameRate = FrameRate(30), crf: Double? = nil, preset: EncoderPreset = .medium,
        encoderThreads: Int = 0, timescale: Int32? = nil, codec: VideoCodec = .h264, bitDepth: Int? = nil
    ) {
        self.init(
            width: 0, height: 0, frameRate: frameRate, crf: crf, preset: preset, encoderThreads: encoderThreads,
            timescale: timescale, codec: codec, bitDepth: bitDepth)
    }

    /// The movie's size in pixels, or `nil` for settings without one (see ``init(frameRate:crf:preset:encoderThreads:timescale:codec:bitDepth:)``).
    /// Setting it sets ``width`` and ``height``; setting `nil` takes the size away.
    public var size: FrameSize? {
        get { width == 0 && height == 0 ? nil : FrameSize(width: width, height: height) }
        set {
            width = newValue?.width ?? 0
            height = newValue?.height ?? 0
        }
    }
}
