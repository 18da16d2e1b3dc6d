/// One record per encoder Flipbook drives. A new encoder is a record here and its funnel under `Interop/`;
/// its codec's record lists it.
enum VideoEncoderRecords {
    static let x264 = VideoEncoderRecord(
        name: "x264", displayName: "x264", features: EncoderFeature.usual.union([.twoPasses, .lossless]),
        crfRange: 0...51, defaultCRF: 23, crfNote: "18 looks lossless", bitDepths: [8, 10], chromaFormats: [.yuv420],
        tunes: ["film", "animation", "grain", "stillimage", "psnr", "ssim", "fastdecode", "zerolatency"],
        bFrameRange: 0...8, checkParameters: { try X264Encoder.check($0) },
        makeEncoder: { try X264Encoder(settings: $0, colour: $1) })

    static let x265 = VideoEncoderRecord(
        name: "x265", displayName: "x265", features: EncoderFeature.usual.union([.twoPasses]), crfRange: 0...51,
        defaultCRF: 28, widthRange: 16...16384, heightRange: 16...16384, bitDepths: [8, 10], chromaFormats: [.yuv420],
        tunes: ["psnr", "ssim", "grain", "zerolatency", "fastdecode", "animation"], bFrameRange: 0...8,
        checkParameters: { try X265Encoder.check($0) }, makeEncoder: { try X265Encoder(settings: $0, colour: $1) })

    static let svtAV1 = VideoEncoderRecord(
        name: "svt-av1", displayName: "SVT-AV1",
        features: EncoderFeature.usual.union([
            .wholeConstantRateFactor, .capsConstantQualityOnly, .noReorderingNeedsConstantQuality,
        ]),
        crfRange: 1...63, defaultCRF: 35, widthRange: 64...16384, heightRange: 64...8704, maximumFrameRate: 240,
        bitDepths: [8, 10], chromaFormats: [.yuv420],
        presetNote: presetNote("for av1 these are SVT-AV1 presets", \.svtAV1Preset),
        // SVT-AV1 reorders in its own hierarchy; 0 asks for its low-delay structure (no reordering).
        tunes: ["vq", "psnr"], shortestKeyframeInterval: 2, highestBitrate: 100_000_000, bFrameRange: 0...0,
        checkParameters: { try SVTAV1Encoder.check($0) }, makeEncoder: { try SVTAV1Encoder(settings: $0, colour: $1) })

    /// libaom, AV1's reference encoder, through its own API: slower than SVT-AV1, one pass.
    static let libaom = VideoEncoderRecord(
        name: "libaom", displayName: "libaom",
        features: [.constantRateFactor, .wholeConstantRateFactor, .presets, .rateControl],
        crfRange: 0...63, defaultCRF: 32, widthRange: 16...16384, heightRange: 16...16384, bitDepths: [8, 10],
        chromaFormats: [.yuv420],
        presetNote: presetNote("for av1 with --encoder libaom these are libaom speeds (cpu-used)", \.libaomSpeed),
        makeEncoder: { try LibaomEncoder(settings: $0, colour: $1) })

    static let libvpx = VideoEncoderRecord(
        name: "libvpx", displayName: "libvpx",
        features: [.constantRateFactor, .wholeConstantRateFactor, .presets, .rateControl, .alpha],
        crfRange: 0...63, defaultCRF: 32, widthRange: 2...16384, heightRange: 2...16384, bitDepths: [8, 10],
        chromaFormats: [.yuv420],
        presetNote: presetNote("for vp9 these are libvpx speeds (cpu-used)", \.vp9Speed),
        makeEncoder: { try VP9Encoder(settings: $0, colour: $1) })

    static let proresKS = VideoEncoderRecord(
        name: "prores_ks", displayName: "prores_ks", features: [.alpha, .keepsCoresBusy], bitDepths: [10],
        chromaFormats: [.yuv422, .yuv444], qualityNote: "its quality is its --profile (\(ProResProfile.nameList))",
        presetNote: "prores has no presets: its --profile sets the quality",
        makeEncoder: { try ProResEncoder(settings: $0, colour: $1) })

    static let ffv1 = VideoEncoderRecord(
        name: "ffv1", displayName: "libavcodec ffv1", features: [.lossless, .alpha, .rgbaPictures], bitDepths: [8, 10],
        chromaFormats: [.yuv444], qualityNote: "it is lossless: every frame keeps every pixel",
        presetNote: "ffv1 has no presets: every frame is lossless",
        makeEncoder: { try FFV1Encoder(settings: $0, colour: $1) })

    /// An animated image's frame encoder: RGBA pictures of any size up to `side`, a quality instead of a
    /// CRF, no presets, no rate control; its container's session encodes the frames.
    static func animatedImage(name: String, displayName: String, side: Int, lossless: Bool) -> VideoEncoderRecord {
        VideoEncoderRecord(
            name: name, displayName: displayName,
            features: lossless ? [.alpha, .rgbaPictures, .lossless] : [.alpha, .rgbaPictures],
            widthRange: 1...side, heightRange: 1...side, bitDepths: [8], chromaFormats: [.yuv444],
            makeEncoder: { settings, _ in AnimationFrameEncoder(settings: settings) })
    }

    /// What `--preset`'s names stand for with an encoder whose speeds are numbers: `intro`, then the
    /// number of each name from ultrafast to veryslow, and placebo's.
    static func presetNote(_ intro: String, _ number: (EncoderPreset) -> Int) -> String {
        "\(intro) " + EncoderPreset.allCases.dropLast().map { String(number($0)) }.joined(separator: ", ")
            + " (placebo \(number(.placebo)))"
    }

    static let libimagequant = animatedImage(
        name: "libimagequant", displayName: "libimagequant", side: 65535, lossless: false)
    static let libwebp = animatedImage(name: "libwebp", displayName: "libwebp", side: 16383, lossless: true)
}
