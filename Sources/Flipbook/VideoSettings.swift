import Foundation

/// The speed/compression trade-off, from fastest to smallest output: x264's and x265's preset names,
/// which SVT-AV1 takes as numbers (see ``svtAV1Preset``).
public enum EncoderPreset: String, Sendable, CaseIterable {
    case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo

    /// The SVT-AV1 preset (0 slowest to 13 fastest) this name means for AV1: ultrafast 12, superfast 11,
    /// veryfast 10, faster 9, fast 8, medium 7, slow 6, slower 5, veryslow 4, placebo 2.
    public var svtAV1Preset: Int {
        switch self {
        case .ultrafast: 12
        case .superfast: 11
        case .veryfast: 10
        case .faster: 9
        case .fast: 8
        case .medium: 7
        case .slow: 6
        case .slower: 5
        case .veryslow: 4
        case .placebo: 2
        }
    }
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
    /// The video codec (H.264 by default).
    public var codec: VideoCodec = .h264
    /// Bits per sample of the encoded pictures: 8 (the default) or 10 (H.264 High 10, HEVC Main 10, AV1, VP9); 8-bit
    /// pictures are scaled exactly (each value times 4). ProRes is always 10, whatever this says.
    public var bitDepth = 8
    /// The ProRes flavour, for ``VideoCodec/prores``; `nil` (the default) chooses ProRes 422 HQ, or
    /// ProRes 4444 when ``keepsAlpha`` is set. Other codecs take none.
    public var proResProfile: ProResProfile? = nil
    /// Keeps the frames' transparency as the movie's alpha channel instead of compositing them over
    /// ``background`` (`false` by default). Only a codec that carries alpha takes it: ProRes 4444 and
    /// 4444 XQ, whose alpha is straight (not premultiplied), as ProRes carries it; and 8-bit VP9, whose
    /// alpha is a second VP9 stream that only WebM and Matroska files carry. Frames without
    /// alpha give an opaque plane; the bands around a frame fitted by ``fit`` are transparent.
    public var keepsAlpha = false
    /// Constant rate factor on the codec's own scale (see ``VideoCodec/crfRange``): for H.264 0 (best)
    /// to 51 (smallest), 18 looks visually lossless, 23 is the default; for AV1 1 to 63 and for VP9 0 to
    /// 63 (default 32), rounded to a whole number (SVT-AV1 and libvpx take whole quantisers).
    public var crf: Double
    /// How much time the encoder spends finding a smaller encoding.
    public var preset: EncoderPreset
    /// Encoder threads; 0 lets the encoder choose from the number of cores.
    public var encoderThreads: Int
    /// Ticks per second of the movie's clock; `nil` chooses one (see ``resolvedTimescale``).
    ///
    /// Every time given to ``MovieWriter/append(_:at:duration:)`` must be a whole number of ticks.
    /// The chosen scale is exact for every frame of ``frameRate`` and every whole millisecond; set a
    /// multiple of your own clock's rate (for example 90000) when giving times in other units.
    public var timescale: Int32?
    /// How a frame of another size or shape is made the movie's size (`.contain` by default).
    public var fit: FitPolicy = .contain
    /// The colour of letterbox bands and behind transparent pixels (black by default).
    public var background: RGBColour = .black
    /// The colour standard pixels are converted with and tagged as (BT.709 by default).
    public var colourStandard: ColourStandard = .bt709
    /// The nits reference white is shown at in an HDR movie (``ColourStandard/pq``, ``ColourStandard/hlg``):
    /// display white of an image, scene 1.0 of a render after exposure. 203 by default, the reference white
    /// of ITU-R BT.2408; 1 to 10,000.
    public var peakLuminance: Double = 203
    /// The display an HDR movie was mastered on, written as its static metadata (SMPTE ST 2086); `nil`
    /// (the default) for none.
    public var masteringDisplay: MasteringDisplay?
    /// An HDR movie's MaxCLL and MaxFALL; `nil` (the default) to measure them from the pictures of a PQ
    /// movie (written where the container's description is written at the end: an MP4 or MOV that is
    /// not fragmented, a Matroska or WebM file).
    public var contentLight: ContentLight?
    /// The largest ``peakLuminance``: PQ's own ceiling, in nits.
    public static let peakLuminanceRange: ClosedRange<Double> = 1...10_000
    /// The Y'CbCr code range (limited by default, which is what players expect).
    public var colourRange: ColourRange = .limited
    /// Whether images are converted from the colour their files state (ICC profiles, PNG `cICP`,
    /// `sRGB`, `gAMA` and `cHRM`, HEIF `nclx`) into ``colourStandard``'s space (``ColourManagement/on``,
    /// the default), or their values taken as they are.
    public var colourManagement: ColourManagement = .on
    /// How colours outside the movie's gamut are brought into it (relative colorimetric with black-point
    /// compensation by default, as browsers convert photos).
    public var renderingIntent: RenderingIntent = .relativeColorimetric
    /// How scene-linear images (OpenEXR) are shown: the curve and the exposure (``ViewTransform/standard``,
    /// 0 EV, by default).
    public var viewTransform: ViewTransform = .standard
    /// The layer or part of multi-layer images (OpenEXR) to show: a layer's name (`ViewLayer.Combined`,
    /// `diffuse`) or a part's (`rgba_left`); `nil` for each file's default picture, its first part's `R`,
    /// `G`, `B` (and `A`), else a `Combined` layer, else its first picture. A file without the layer is
    /// refused with the names it has.
    public var layer: String?
    /// How camera raw files are white-balanced before their camera matrix (``WhiteBalance/camera`` by default).
    public var whiteBalance: WhiteBalance = .camera
    /// Flicker taken out of a sequence of image files (see ``Deflicker``); `nil` (the default) for none.
    public var deflicker: Deflicker? = nil
    /// Whether camera raw files give their embedded preview (the camera's own JPEG, quick to decode)
    /// instead of their developed sensor data (`false` by default).
    public var rawPreview = false
    /// Where the movie's timecode starts (``TimecodeStart/fromImageNumbers`` by default: the first
    /// image's number, when the images are numbered files). An MP4 or QuickTime movie holds it as a
    /// timecode track (`tmcd`), which editors read; Matroska as a `TIMECODE` tag. A fragmented movie and an
    /// animated image hold none: a timecode given for one is a usage error.
    public var timecode: TimecodeStart = .fromImageNumbers
    /// Text drawn into every picture after it is scaled, in the movie's colours (see ``BurnIn``); none
    /// by default.
    public var burnIns: [BurnIn] = []
    /// Values for the burn-ins' and the slate's fields, by key (`shot`, `version`): a key is letters,
    /// digits, `_` and `-`, and not a frame's own field name.
    public var fields: [String: String] = [:]
    /// The font of burn-ins and the slate: a TrueType or OpenType file; `nil` (the default) for DejaVu
    /// Sans (Debian's `fonts-dejavu-core`).
    public var fontFile: URL? = nil
    /// A card shown before the first picture (see ``Slate``); none by default.
    public var slate: Slate? = nil
    /// How far the pictures are turned clockwise when shown (``Rotation/upright`` by default): the
    /// video track's display matrix, as phones write it. The pictures are encoded as given, at
    /// ``width`` by ``height``.
    public var rotation: Rotation = .upright
    /// Lossless encoding (x264 at quantiser 0, High 4:4:4 Predictive profile), overriding ``crf``.
    ///
    /// The pictures are kept exactly as converted to 4:2:0, which is for testing colour accuracy;
    /// the files are large and not every player decodes that profile.
    public var lossless = false
    /// The quality of an animated image (``VideoCodec/gif``, ``VideoCodec/webp``), 1 (smallest) to
    /// 100 (best), default 90: for GIF, libimagequant's target quality of each frame's palette; for
    /// WebP, libwebp's lossy quality. Movie codecs take ``crf`` instead.
    public var quality = 90
    /// How many times an animated image plays: 0, the default, for ever; otherwise 1 to 65535 (the
    /// GIF's NETSCAPE2.0 loop count, the WebP's `ANIM` loop count).
    public var loopCount = 0
    /// How the encoder spends bits: constant quality at ``crf`` (the default), an average bit rate in
    /// one or two passes, or a size for the whole file. Two passes and a target size decode the images
    /// twice, so they are for ``MovieWriter/makeMovie(fromImagesAt:to:options:)``; a writer given frames
    /// one by one refuses them.
    public var rateControl: RateControl = .constantQuality
    /// A cap on the bit rate over a decoder's buffer (VBV), with any rate control; `nil` (the default) for none.
    public var rateLimit: RateLimit? = nil
    /// The longest distance between keyframes; `nil` (the default) lets the encoder choose (x264 and
    /// x265 250 frames). A fragmented movie also has a keyframe at least once a fragment.
    public var keyframeInterval: KeyframeInterval? = nil
    /// B-frames between reference pictures; 0 turns reordering off (decode order is presentation
    /// order), `nil` (the default) lets the encoder's preset choose. See ``VideoCodec/bFrameRange``.
    public var bFrames: Int? = nil
    /// The encoder's tuning for a kind of picture, such as x264's `stillimage` or `animation`; `nil`
    /// (the default) for none. See ``VideoCodec/tunes``.
    public var tune: String? = nil
    /// The H.264, HEVC or AV1 profile; `nil` (the default) chooses by ``bitDepth`` (H.264 High or High 10,
    /// HEVC Main or Main 10, AV1 Main). See ``VideoCodec/profiles``; ProRes takes ``proResProfile``.
    public var profile: CodecProfile? = nil
    /// The level the stream is marked with and kept within; `nil` (the default) lets the encoder mark it.
    public var level: CodecLevel? = nil
    /// Options handed to the encoder's own parser after Flipbook's, in order, overriding them.
    public var encoderParameters: [EncoderParameter] = []
    /// Which of two passes the encoder makes, and where its statistics go; `nil` for one pass.
    var pass: EncoderPass? = nil
    /// The longest time any ``reorderSpan`` frames in a row are on screen, when it is known before
    /// encoding (images held over the gaps in their numbers); `nil` when every frame lasts one
    /// nominal frame.
    var longestReorderSpan: MediaTime? = nil
    /// Writes a fragmented movie with fragments of about this length when set; `nil` (the default)
    /// writes a progressive movie with its index first ("faststart").
    ///
    /// A fragmented movie is written to disk fragment by fragment as it is encoded, so a crash or
    /// `kill -9` keeps every finished fragment: the hidden temporary file beside the destination
    /// plays as it is. The encoder places a keyframe at least this often and a fragment ends at a
    /// keyframe, so a fragment lasts between half of this length and all of it. One or two seconds is a good length; shorter
    /// fragments lose less in a crash but compress a little worse.
    public var fragmentDuration: MediaTime? = nil
    /// How many images ``MovieWriter/makeMovie(fromImagesAt:to:options:)``
    /// decodes and converts at once ahead of the encoder; 0 (the default) means one more than the
    /// cores, at least three (the one more keeps the cores busy while the encoder holds a picture
    /// back), and for ProRes, whose encoder keeps the cores busy itself, one for every four cores.
    /// Each holds one decoded image and one picture, so this also bounds that memory.
    /// With ``encoderThreads`` it shares the machine: lower both to leave cores for other work.
    public var decodeWorkers = 0

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - width: Width in pixels, even.
    ///   - height: Height in pixels, even.
    ///   - frameRate: Frames per second (30 by default).
    ///   - crf: Constant rate factor on the codec's scale; `nil` (the default) takes the codec's default.
    ///   - preset: Encoder preset (`medium` by default).
    ///   - encoderThreads: Encoder threads, 0 for automatic.
    ///   - timescale: Ticks a second of the movie's clock; `nil` chooses one (see ``timescale``).
    ///   - codec: The video codec (H.264 by default).
    ///   - bitDepth: 8 or 10 (H.264 High 10, HEVC Main 10, AV1); `nil` (the default) takes the codec's
    ///     first: 8, or 10 for ProRes.
    public init(
        width: Int, height: Int, frameRate: FrameRate = FrameRate(30), crf: Double? = nil,
        preset: EncoderPreset = .medium, encoderThreads: Int = 0, timescale: Int32? = nil, codec: VideoCodec = .h264,
        bitDepth: Int? = nil
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.codec = codec
        self.bitDepth = bitDepth ?? codec.bitDepths[0]
        self.crf = crf ?? codec.defaultCRF
        self.preset = preset
        self.encoderThreads = encoderThreads
        self.timescale = timescale
    }

    /// The movie's clock: ``timescale`` if set, otherwise chosen by this rule.
    ///
    /// Start from the least common multiple of the frame rate's numerator and 1000, so that every
    /// frame time (`i * d / n` seconds) and every whole millisecond is a whole number of ticks; then
    /// double it until it reaches at least 10000 ticks a second, as ffmpeg's MP4 muxer does (ffmpeg
    /// misjudges reordered frames' durations at small scales such as 600). 30 fps gives 12000
    /// (400 ticks a frame), 29.97 gives 30000 (1001 a frame), 25 gives 16000 (640 a frame).
    ///
    /// The doubling stops before sixteen frames reach 2^28 ticks: a reordered frame's
    /// composition offset is a few frames, and ffmpeg drops every offset of a track when one is past
    /// 2^28. That matters only for frames longer than about 17 minutes (a slideshow's hour-long
    /// images: 3600 s frames get 4000 ticks a second, not 16000).
    public var resolvedTimescale: Int32 {
        if let timescale { return timescale }
        let frame = frameRate.frameDuration
        return Self.timescale(exactFor: [frame], doublingWhile: { Self.offsetsFit(frame, atScale: $0) })
    }

    /// The frames a composition offset may span, reordering included, that the chosen clock keeps
    /// below 2^28 ticks: x264's and x265's deepest B-pyramids offset a frame by at most ten.
    static let reorderSpan = 16

    /// Whether the encoder may reorder frames (B-frames): only while ``reorderSpan`` frames stay
    /// below 2^28 ticks of the movie's clock, which even the coarsest exact clock (1000 ticks a
    /// second) cannot keep for frames of about 4.6 hours and more (a slideshow's longest images),
    /// nor a 29.97 fps clock across an image held over a gap of 2.5 hours (``longestReorderSpan``).
    /// Without reordering there are no composition offsets for ffmpeg to refuse.
    var reordersFrames: Bool {
        let scale = Int64(resolvedTimescale)
        guard Self.offsetsFit(frameRate.frameDuration, atScale: scale) else { return false }
        return longestReorderSpan.map { $0.seconds * Double(scale) < Double(1 << 28) } ?? true
    }

    /// Whether ``reorderSpan`` frames of `frame` stay below 2^28 ticks at `scale` ticks a second.
    static func offsetsFit(_ frame: MediaTime, atScale scale: Int64) -> Bool {
        frame.seconds * Double(scale) * Double(reorderSpan) < Double(1 << 28)
    }

    /// The smallest scale at least 10000 ticks a second, and a power-of-two multiple of the least
    /// common multiple of 1000 and the given times' reduced time scales, in which all of them are
    /// whole numbers of ticks; falls back to 90000 ticks a second if no such scale fits in 32 bits.
    public static func timescale(exactFor times: [MediaTime]) -> Int32 {
        timescale(exactFor: times, doublingWhile: { _ in true })
    }

    /// ``timescale(exactFor:)``, doubled toward 10000 ticks a second only while `allowed` takes the
    /// doubled scale (it never goes below the exact scale itself).
    private static func timescale(exactFor times: [MediaTime], doublingWhile allowed: (Int64) -> Bool) -> Int32 {
        var scale: Int64 = 1000
        for time in times {
            scale = lcm64(scale, Int64(time.reduced.timescale))
            if scale > Int64(Int32.max) { return 90000 }
        }
        while scale < 10000 && allowed(scale * 2) { scale *= 2 }
        return Int32(scale)
    }

    /// The constant rate factors x264 takes: 0 (best) to 51 (smallest); see ``VideoCodec/crfRange`` for each codec's.
    public static let crfRange: ClosedRange<Double> = 0...51
    /// Encoder threads and decode workers: 0 (automatic) to 128.
    public static let threadRange: ClosedRange<Int> = 0...128
    /// What to give instead of a count outside ``threadRange``, as the library and the tool say it.
    public static var threadRangeAdvice: String {
        "use \(threadRange.lowerBound) (automatic) to \(threadRange.upperBound)"
    }
    /// The sides a movie may have, in pixels; each must also be even.
    public static let sideRange: ClosedRange<Int> = 2...16384

    /// Throws `.invalidSettings` naming the first setting out of range; the one check of these rules,
    /// which the command line also applies to its options.
    public func validate() throws {
        guard size != nil else {
            throw FlipbookError.settingsHaveNoSize()
        }
        try codec.checkSize(width: width, height: height)
        try codec.checkFrameRate(frameRate)
        // A codec without a CRF (ProRes) ignores it; a codec of one depth (ProRes) is coded at it
        // whatever `bitDepth` says, so settings whose codec is changed after they are made stay valid.
        if codec.takesCRF { try codec.checkCRF(crf) }
        try codec.checkBitDepth(codec.bitDepths.count == 1 ? codec.bitDepths[0] : bitDepth, lossless: lossless)
        try codec.checkProfile(proResProfile, keepingAlpha: keepsAlpha)
        if keepsAlpha { try codec.checkAlpha(bitDepth: bitDepth) }
        try codec.checkRange(colourRange)
        if colourStandard.isHDR {
            guard pictureFormat.bitDepth == 10 else {
                throw FlipbookError.hdrNeedsTenBits(colourStandard, codec: codec, bitDepth: pictureFormat.bitDepth)
            }
            guard Self.peakLuminanceRange.contains(peakLuminance) else {
                throw FlipbookError.peakLuminanceOutOfRange(peakLuminance, range: Self.peakLuminanceRange)
            }
        } else if masteringDisplay != nil || contentLight != nil {
            throw FlipbookError.hdrMetadataWithoutHDR(colourStandard)
        }
        if let view = viewTransform.openColorIO {
            guard !colourStandard.isHDR else { throw FlipbookError.colourConfigWithHDR(colourStandard) }
            _ = try view.resolved()
        }
        if codec.isAnimatedImage { try codec.checkAnimation(quality: quality, loopCount: loopCount) }
        try validateEncoderChoices()
        if let timescale, timescale <= 0 {
            throw FlipbookError.timescaleNotPositive(timescale)
        }
        if let fragmentDuration, fragmentDuration.value <= 0 || fragmentDuration > MediaTime(value: 3600, timescale: 1)
        {
            throw FlipbookError.fragmentDurationOutOfRange(fragmentDuration)
        }
        try validateText()
        for (name, count) in [("encoder threads", encoderThreads), ("decode workers", decodeWorkers)]
        where !Self.threadRange.contains(count) {
            throw FlipbookError.threadCountOutOfRange(name, count, advice: Self.threadRangeAdvice)
        }
    }
}

extension VideoSettings {
    /// Checks how the file must come out: rate control, keyframes, B-frames, tune, profile, level and
    /// the encoder's parameters, each against the codec and the others.
    ///
    /// This is the part of ``validate()`` that settings without a size can be given already (as a
    /// command line checks its options before the first image is read); the level's picture-size limits
    /// are checked against ``width`` and ``height``, so only once the settings have a size.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings` naming the first choice the codec cannot
    ///   make: "bframes 0 goes with a CRF only for av1 …", "level 3.1 of h264 holds pictures of at most …".
    public func validateEncoderChoices() throws {
        try codec.checkRateControl(rateControl, limit: rateLimit)
        if let keyframeInterval { try codec.checkKeyframeInterval(keyframeInterval.frames(at: frameRate)) }
        if let bFrames {
            try codec.checkBFrames(bFrames)
            if bFrames > 0 && profile == .baseline {
                throw FlipbookError.bFramesInBaseline(bFrames)
            }
            if bFrames == 0 && rateControl != .constantQuality
                && codec.encoderRecord.has(.noReorderingNeedsConstantQuality)
            {
                throw FlipbookError.noReorderingNeedsCRF(codec: codec.name, encoder: codec.encoderName)
            }
        }
        if let tune { try codec.checkTune(tune) }
        if let profile { try codec.checkProfile(profile, bitDepth: bitDepth, lossless: isLossless) }
        if let level {
            try codec.checkLevel(
                level, width: width, height: height, frameRate: frameRate, bitrate: levelBitrate,
                profile: effectiveProfile)
        }
        try codec.checkEncoderParameters(encoderParameters)
    }

    /// Whether the stream is coded losslessly: ``lossless``, or H.264's CRF 0 at 8 bits, which x264
    /// codes at quantiser 0.
    var isLossless: Bool {
        lossless || (codec == .h264 && bitDepth == 8 && rateControl == .constantQuality && crf == 0)
    }

    /// The profile the stream is written in: ``profile``, or the codec's for the depth.
    var effectiveProfile: CodecProfile? { profile ?? codec.defaultProfile(bitDepth: bitDepth) }

    /// The rate a level must hold: the rate limit's, or else the average bit rate asked for.
    var levelBitrate: Int? {
        if let rateLimit { return rateLimit.maxBitrate }
        if case .averageBitrate(let rate, _) = rateControl { return rate }
        return nil
    }

    /// The longest keyframe distance in frames: the asked interval, shortened to a fragment's frames
    /// when fragmented; `nil` for the encoder's own.
    var keyframeFrames: Int? {
        let asked = keyframeInterval?.frames(at: frameRate)
        guard let fragment = framesPerFragment else { return asked }
        return min(asked ?? fragment, fragment)
    }

    /// The pictures this movie's encoder takes: ProRes's by its profile and ``keepsAlpha``, the
    /// others' 4:2:0 at ``bitDepth``, with alpha when the codec keeps it (VP9) and ``keepsAlpha``.
    var pictureFormat: PictureFormat {
        guard codec == .prores else { return codec.pictureFormat(bitDepth: bitDepth, keepingAlpha: keepsAlpha) }
        return PictureFormat(chroma: resolvedProResProfile.chromaFormat, bitDepth: 10, hasAlpha: keepsAlpha)
    }

    /// The ProRes profile the movie is written with: ``proResProfile``, or the default for ``keepsAlpha``.
    var resolvedProResProfile: ProResProfile {
        proResProfile ?? .default(keepingAlpha: keepsAlpha)
    }

    /// The number of frames in a fragment's target length, rounded up; `nil` when not fragmented.
    var framesPerFragment: Int? {
        guard let fragmentDuration else { return nil }
        // frames = duration * rate = (value / timescale) * (numerator / denominator), rounded up.
        let top = Int64(fragmentDuration.value) * Int64(frameRate.numerator)
        let bottom = Int64(fragmentDuration.timescale) * Int64(frameRate.denominator)
        return Int(max(1, min((top + bottom - 1) / bottom, 100_000)))
    }
}
