import ISOBMFF

/// Everything Flipbook knows about one video codec, in one place: its names, the encoder's limits
/// and quality scale, what pictures it takes, where it may go, what players decode, and how to open
/// its encoder. ``VideoCodec`` reads it; ``VideoCodecs`` holds one per codec.
struct VideoCodecRecord: Sendable {
    /// The short name: `--codec`'s value and ffprobe's name.
    let name: String
    /// The name as people write it.
    let displayName: String
    /// The encoding library.
    let encoderName: String
    /// What to choose it for, in a few words, for help text.
    let strength: String
    /// The sample entry type it is written with; ``VisualCodecs`` says the rest.
    let sampleEntryType: FourCC
    /// Whether the encoder's quality is a constant rate factor; ProRes's is its profile.
    var takesCRF = true
    /// Whether the encoder has speed presets; ProRes has none.
    var takesPreset = true
    /// What sets the quality of a codec that takes no CRF, as the end of a sentence ("its quality is
    /// its --profile (proxy, …)"); `nil` for a codec with a CRF.
    var qualityNote: String? = nil
    /// Whether the codec carries full-range code values; ProRes is video range only.
    var takesFullRange = true
    /// Whether the encoder alone keeps every core busy for far longer than a frame takes to decode
    /// (ProRes's frame threads), so that few images need be decoded ahead of it.
    var encoderKeepsCoresBusy = false
    /// The constant rate factors the encoder takes, and its own default.
    let crfRange: ClosedRange<Double>
    let defaultCRF: Double
    /// A CRF worth knowing on the codec's scale, for help text ("18 looks lossless"), or `nil`.
    let crfNote: String?
    /// Sizes and rates the encoder takes.
    let widthRange: ClosedRange<Int>
    let heightRange: ClosedRange<Int>
    let maximumFrameRate: Int?
    /// Pictures it encodes.
    let bitDepths: [Int]
    let chromaFormats: [ChromaFormat]
    let carriesAlpha: Bool
    /// Whether it encodes losslessly at 8 bits.
    let encodesLosslessly: Bool
    /// The containers it may be written as.
    let containers: [MovieContainer]
    /// What `--preset` names mean for this encoder, when they are not its own (for help text).
    let presetNote: String?
    /// The largest picture most hardware decoders take, as a sentence's subject ("H.264 past
    /// 4096x2304 (level 5.2)"), and whether a size is past it.
    let decoderLimit: String
    let isPastDecoderLimit: @Sendable (_ width: Int, _ height: Int) -> Bool
    /// Opens the encoder for pictures converted with `colour`.
    let makeEncoder: @Sendable (_ settings: VideoSettings, _ colour: ColourMatrix) throws -> any VideoEncoder
    /// Whether the encoder takes a bit rate, a size budget and a rate limit; ProRes's rate is its profile's.
    var takesRateControl = true
    /// Whether the encoder makes two passes over the pictures, a first that writes statistics for the second.
    var takesTwoPasses = false
    /// Whether the encoder caps the bit rate over a decoder's buffer (VBV); libvpx keeps no such cap.
    var takesRateLimit = true
    /// The bit depths at which the codec keeps alpha, when not every one it encodes (VP9: 8, as
    /// ffmpeg's `yuva420p`); `nil` for all of them.
    var alphaBitDepths: [Int]? = nil
    /// The containers that carry the codec's alpha, when not every one it goes in (VP9's alpha is a
    /// Matroska BlockAdditional); `nil` for all of them.
    var alphaContainers: [MovieContainer]? = nil
    /// The `--tune` names the encoder knows.
    var tunes: [String] = []
    /// The profiles of ``CodecProfile`` the encoder writes, when asked for one.
    var profiles: [CodecProfile] = []
    /// The levels the codec's streams are marked with, from the lowest, and whether their picture
    /// sizes count whole 16x16 macroblocks (H.264).
    var levels: [LevelLimits] = []
    var levelsCountMacroblocks = false
    /// The shortest keyframe interval the encoder keeps, in frames (SVT-AV1 has no all-keyframe mode: 2).
    var shortestKeyframeInterval = 1
    /// The highest average or capped bit rate the encoder takes (SVT-AV1: 100 Mb/s).
    var highestBitrate = RateControl.bitrateRange.upperBound
    /// Whether the encoder caps the rate of constant quality only (SVT-AV1's `max_bit_rate`), not an average.
    var capsConstantQualityOnly = false
    /// Whether the encoder's structure without reordering takes constant quality only (SVT-AV1's
    /// low-delay prediction has no VBR).
    var noReorderingNeedsConstantQuality = false
    /// The B-frames (pictures reordered between keyframes) the encoder may be asked for; `nil` when
    /// the number cannot be chosen.
    var bFrameRange: ClosedRange<Int>? = nil
    /// Checks `--encoder-params` with the encoder's own parser, throwing `.invalidSettings` naming a
    /// key or value it refuses; `nil` when the encoder takes none.
    var checkParameters: (@Sendable ([EncoderParameter]) throws -> Void)? = nil
    /// Whether the encoder takes whole CRFs only (SVT-AV1's and libvpx's quantisers), so that a search
    /// of the CRF tries whole numbers.
    var takesWholeCRF = false
    /// Whether the encoder takes packed RGBA pictures (``PictureFormat/rgba(hasAlpha:)``) at 8 bits: the
    /// animated images' (GIF, WebP: a quality of 1-100 instead of a CRF, their container's session
    /// encodes the frames) and FFV1's (the images' own pixels, losslessly).
    var takesRGBA = false
    /// The widths and heights past which the file is heavy for what it is used for (an animated
    /// image in a chat or a web page), and the box a smaller size is advised within; `nil` for none.
    var heavySize: (limit: (width: Int, height: Int), advised: (width: Int, height: Int))? = nil

    /// ffprobe's name for the codec, from the sample entry's record.
    var probeName: String { VisualCodecs.record(forEntryType: sampleEntryType.description)?.probeName ?? name }
}

/// One record per codec Flipbook encodes. A new codec is a record here, its encoder under
/// `Interop/`, its configuration record and entry type in `ISOBMFF`, and its library in `Package.swift`.
enum VideoCodecs {
    static let h264 = VideoCodecRecord(
        name: "h264", displayName: "H.264", encoderName: "x264", strength: "plays everywhere", sampleEntryType: "avc1",
        crfRange: 0...51, defaultCRF: 23, crfNote: "18 looks lossless", widthRange: VideoSettings.sideRange,
        heightRange: VideoSettings.sideRange,
        maximumFrameRate: nil, bitDepths: [8, 10], chromaFormats: [.yuv420], carriesAlpha: false,
        encodesLosslessly: true, containers: [.mp4, .m4v, .mov, .mkv], presetNote: nil,
        // Level 5.2: 36,864 macroblocks a picture.
        decoderLimit: "H.264 past 4096x2304 (level 5.2)",
        isPastDecoderLimit: { width, height in ((width + 15) / 16) * ((height + 15) / 16) > 36_864 },
        makeEncoder: { try X264Encoder(settings: $0, colour: $1) },
        takesTwoPasses: true,
        tunes: ["film", "animation", "grain", "stillimage", "psnr", "ssim", "fastdecode", "zerolatency"],
        profiles: [.baseline, .main, .high, .high10], levels: LevelLimits.h264, levelsCountMacroblocks: true,
        bFrameRange: 0...8,
        checkParameters: { try X264Encoder.check($0) })

    static let hevc = VideoCodecRecord(
        name: "hevc", displayName: "HEVC", encoderName: "x265",
        strength: "tagged hvc1 for Apple players, about half the size", sampleEntryType: "hvc1",
        crfRange: 0...51, defaultCRF: 28, crfNote: nil, widthRange: 16...16384, heightRange: 16...16384,
        maximumFrameRate: nil,
        bitDepths: [8, 10], chromaFormats: [.yuv420], carriesAlpha: false, encodesLosslessly: false,
        containers: [.mp4, .m4v, .mov, .mkv], presetNote: nil,
        // Level 5.1: 8,912,896 samples a picture.
        decoderLimit: "HEVC past 4096x2176 (level 5.1)",
        isPastDecoderLimit: { width, height in width * height > 8_912_896 },
        makeEncoder: { try X265Encoder(settings: $0, colour: $1) },
        takesTwoPasses: true, tunes: ["psnr", "ssim", "grain", "zerolatency", "fastdecode", "animation"],
        profiles: [.main, .main10], levels: LevelLimits.hevc, bFrameRange: 0...8,
        checkParameters: { try X265Encoder.check($0) })

    static let av1 = VideoCodecRecord(
        name: "av1", displayName: "AV1", encoderName: "SVT-AV1", strength: "the newest browsers",
        sampleEntryType: "av01", crfRange: 1...63, defaultCRF: 35, crfNote: nil, widthRange: 64...16384,
        heightRange: 64...8704,
        maximumFrameRate: 240, bitDepths: [8, 10], chromaFormats: [.yuv420], carriesAlpha: false,
        encodesLosslessly: false, containers: [.mp4, .m4v, .mov, .webm, .mkv],
        presetNote: "for av1 these are SVT-AV1 presets "
            + EncoderPreset.allCases.dropLast().map { String($0.svtAV1Preset) }.joined(separator: ", ")
            + " (placebo \(EncoderPreset.placebo.svtAV1Preset))",
        decoderLimit: "AV1 past 4096x2176 (level 5.1)",
        isPastDecoderLimit: { width, height in width * height > 8_912_896 },
        makeEncoder: { try SVTAV1Encoder(settings: $0, colour: $1) },
        // SVT-AV1 reorders in its own hierarchy; 0 asks for its low-delay structure (no reordering).
        tunes: ["vq", "psnr"], profiles: [.main], levels: LevelLimits.av1, shortestKeyframeInterval: 2,
        highestBitrate: 100_000_000,
        capsConstantQualityOnly: true,
        noReorderingNeedsConstantQuality: true, bFrameRange: 0...0,
        checkParameters: { try SVTAV1Encoder.check($0) }, takesWholeCRF: true)

    static let vp9: VideoCodecRecord = {
        var record = VideoCodecRecord(
            name: "vp9", displayName: "VP9", encoderName: "libvpx", strength: "browsers, royalty-free",
            sampleEntryType: "vp09", crfRange: 0...63, defaultCRF: 32, crfNote: nil, widthRange: 2...16384,
            heightRange: 2...16384, maximumFrameRate: nil, bitDepths: [8, 10], chromaFormats: [.yuv420],
            carriesAlpha: true, encodesLosslessly: false, containers: [.mp4, .webm, .mkv],
            presetNote: "for vp9 these are libvpx speeds (cpu-used) "
                + EncoderPreset.allCases.dropLast().map { String($0.vp9Speed) }.joined(separator: ", ")
                + " (placebo \(EncoderPreset.placebo.vp9Speed))",
            // Level 5.1: 8,912,896 samples a picture, at most 8384 a side.
            decoderLimit: "VP9 past 4096x2176 (level 5.1)",
            isPastDecoderLimit: { width, height in width * height > 8_912_896 || max(width, height) > 8384 },
            makeEncoder: { try VP9Encoder(settings: $0, colour: $1) })
        record.takesWholeCRF = true
        record.takesRateLimit = false
        record.alphaBitDepths = [8]
        record.alphaContainers = [.webm, .mkv]
        return record
    }()

    /// An animated image's record: RGBA pictures of any size up to `side`, a quality instead of a
    /// CRF, no presets, no rate control, alpha kept 1-bit (GIF) or 8-bit (WebP).
    static func animatedImage(
        name: String, displayName: String, encoderName: String, strength: String, entryType: FourCC, side: Int,
        lossless: Bool, container: MovieContainer
    ) -> VideoCodecRecord {
        var record = VideoCodecRecord(
            name: name, displayName: displayName, encoderName: encoderName, strength: strength,
            sampleEntryType: entryType, crfRange: 0...0,
            defaultCRF: 0, crfNote: nil, widthRange: 1...side, heightRange: 1...side, maximumFrameRate: nil,
            bitDepths: [8], chromaFormats: [.yuv444], carriesAlpha: true, encodesLosslessly: lossless,
            containers: [container], presetNote: nil,
            decoderLimit:
                "a \(displayName) past 960x540, each frame a still image, loads slowly in chats and web pages",
            isPastDecoderLimit: { width, height in width * height > 960 * 540 },
            makeEncoder: { settings, _ in AnimationFrameEncoder(settings: settings) })
        record.takesCRF = false
        record.takesPreset = false
        record.takesRateControl = false
        record.takesRGBA = true
        record.heavySize = ((960, 540), (640, 360))
        return record
    }

    static let gif = animatedImage(
        name: "gif", displayName: "GIF", encoderName: "libimagequant",
        strength: "an animated GIF, for chats and READMEs",
        entryType: "gif ", side: 65535, lossless: false, container: .gif)

    static let webp = animatedImage(
        name: "webp", displayName: "WebP", encoderName: "libwebp",
        strength: "an animated WebP, smaller than a GIF, lossy or lossless", entryType: "webp", side: 16383,
        lossless: true,
        container: .webp)

    static let prores: VideoCodecRecord = {
        var record = VideoCodecRecord(
            name: "prores", displayName: "ProRes", encoderName: "prores_ks",
            strength: "for editing: every frame a keyframe, 4444 keeps alpha; .mov and .mkv", sampleEntryType: "apch",
            crfRange: 0...0, defaultCRF: 0, crfNote: nil, widthRange: VideoSettings.sideRange,
            heightRange: VideoSettings.sideRange, maximumFrameRate: nil, bitDepths: [10],
            chromaFormats: [.yuv422, .yuv444], carriesAlpha: true, encodesLosslessly: false, containers: [.mov, .mkv],
            presetNote: "prores has no presets: its --profile sets the quality",
            // Apple's decoders take ProRes up to 8K (8192x4320).
            decoderLimit: "ProRes past 8192x4320",
            isPastDecoderLimit: { width, height in width > 8192 || height > 4320 },
            makeEncoder: { try ProResEncoder(settings: $0, colour: $1) })
        record.takesCRF = false
        record.takesPreset = false
        record.takesFullRange = false
        record.qualityNote = "its quality is its --profile (\(ProResProfile.nameList))"
        record.encoderKeepsCoresBusy = true
        record.takesRateControl = false
        return record
    }()

    /// FFV1 version 3 by libavcodec: lossless, every frame a keyframe; the images' own RGB at 8 bits,
    /// 4:4:4 at 10; alpha kept. Written as ffmpeg's muxers write it: `V_FFV1` in Matroska, `FFV1` with
    /// its configuration in `glbl` in QuickTime (ffmpeg 5.1 writes no FFV1 in MP4).
    static let ffv1: VideoCodecRecord = {
        var record = VideoCodecRecord(
            name: "ffv1", displayName: "FFV1", encoderName: "libavcodec ffv1",
            strength: "lossless archives: every pixel kept; .mkv and .mov", sampleEntryType: "FFV1",
            crfRange: 0...0, defaultCRF: 0, crfNote: nil, widthRange: VideoSettings.sideRange,
            heightRange: VideoSettings.sideRange, maximumFrameRate: nil, bitDepths: [8, 10], chromaFormats: [.yuv444],
            carriesAlpha: true, encodesLosslessly: true, containers: [.mkv, .mov],
            presetNote: "ffv1 has no presets: every frame is lossless",
            // No hardware decodes FFV1; software decoders keep up with 4K on a few cores.
            decoderLimit: "FFV1 past 4096x2160, decoded in software only,",
            isPastDecoderLimit: { width, height in width * height > 4096 * 2160 },
            makeEncoder: { try FFV1Encoder(settings: $0, colour: $1) })
        record.takesCRF = false
        record.takesPreset = false
        record.takesRateControl = false
        record.qualityNote = "it is lossless: every frame keeps every pixel"
        record.takesRGBA = true
        return record
    }()
}
