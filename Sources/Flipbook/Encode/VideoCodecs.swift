import ISOBMFF

/// One record per codec Flipbook writes. A new codec is a record here, its encoder's record in
/// ``VideoEncoderRecords`` with its funnel under `Interop/`, its entry type in `ISOBMFF`'s
/// ``VisualCodecs`` and its CodecID in Matroska's table.
enum VideoCodecs {
    static let h264 = VideoCodecRecord(
        name: "h264", displayName: "H.264", strength: "plays everywhere", sampleEntryType: "avc1",
        containers: [.mp4, .m4v, .mov, .mkv], capabilities: [.fullRange: .everywhere],
        profiles: [.baseline, .main, .high, .high10], levels: LevelLimits.h264, levelsCountMacroblocks: true,
        // Level 5.2: 36,864 macroblocks a picture.
        decoderLimit: "H.264 past 4096x2304 (level 5.2)",
        isPastDecoderLimit: { width, height in ((width + 15) / 16) * ((height + 15) / 16) > 36_864 },
        encoders: [VideoEncoderRecords.x264])

    static let hevc = VideoCodecRecord(
        name: "hevc", displayName: "HEVC", strength: "tagged hvc1 for Apple players, about half the size",
        sampleEntryType: "hvc1", containers: [.mp4, .m4v, .mov, .mkv], capabilities: [.fullRange: .everywhere],
        profiles: [.main, .main10], levels: LevelLimits.hevc,
        // Level 5.1: 8,912,896 samples a picture.
        decoderLimit: "HEVC past 4096x2176 (level 5.1)",
        isPastDecoderLimit: { width, height in width * height > 8_912_896 }, encoders: [VideoEncoderRecords.x265])

    static let av1 = VideoCodecRecord(
        name: "av1", displayName: "AV1", strength: "the newest browsers", sampleEntryType: "av01",
        containers: [.mp4, .m4v, .mov, .webm, .mkv], capabilities: [.fullRange: .everywhere], profiles: [.main],
        levels: LevelLimits.av1, decoderLimit: "AV1 past 4096x2176 (level 5.1)",
        isPastDecoderLimit: { width, height in width * height > 8_912_896 },
        encoders: [VideoEncoderRecords.svtAV1, VideoEncoderRecords.libaom])

    /// VP9 keeps alpha at 8 bits (as ffmpeg's `yuva420p`) as a Matroska BlockAdditional: in WebM and Matroska only.
    static let vp9 = VideoCodecRecord(
        name: "vp9", displayName: "VP9", strength: "browsers, royalty-free", sampleEntryType: "vp09",
        containers: [.mp4, .webm, .mkv],
        capabilities: [.fullRange: .everywhere, .alpha: CapabilityScope(bitDepths: [8], containers: [.webm, .mkv])],
        // Level 5.1: 8,912,896 samples a picture, at most 8384 a side.
        decoderLimit: "VP9 past 4096x2176 (level 5.1)",
        isPastDecoderLimit: { width, height in width * height > 8_912_896 || max(width, height) > 8384 },
        encoders: [VideoEncoderRecords.libvpx])

    /// ProRes is video range only; 4444 and 4444 XQ keep alpha.
    static let prores = VideoCodecRecord(
        name: "prores", displayName: "ProRes",
        strength: "for editing: every frame a keyframe, 4444 keeps alpha; .mov and .mkv", sampleEntryType: "apch",
        containers: [.mov, .mkv], capabilities: [.alpha: .everywhere],
        // Apple's decoders take ProRes up to 8K (8192x4320).
        decoderLimit: "ProRes past 8192x4320", isPastDecoderLimit: { width, height in width > 8192 || height > 4320 },
        encoders: [VideoEncoderRecords.proresKS])

    /// FFV1 version 3: lossless, every frame a keyframe; written as ffmpeg's muxers write it: `V_FFV1` in
    /// Matroska, `FFV1` with its configuration in `glbl` in QuickTime (ffmpeg 5.1 writes no FFV1 in MP4).
    static let ffv1 = VideoCodecRecord(
        name: "ffv1", displayName: "FFV1", strength: "lossless archives: every pixel kept; .mkv and .mov",
        sampleEntryType: "FFV1", containers: [.mkv, .mov],
        capabilities: [.fullRange: .everywhere, .alpha: .everywhere],
        // No hardware decodes FFV1; software decoders keep up with 4K on a few cores.
        decoderLimit: "FFV1 past 4096x2160, decoded in software only,",
        isPastDecoderLimit: { width, height in width * height > 4096 * 2160 }, encoders: [VideoEncoderRecords.ffv1])

    /// An animated image's record: its own kind of file, alpha kept 1-bit (GIF) or 8-bit (WebP), heavy
    /// past 960x540.
    static func animatedImage(
        name: String, displayName: String, strength: String, entryType: FourCC, container: MovieContainer,
        encoder: VideoEncoderRecord
    ) -> VideoCodecRecord {
        var record = VideoCodecRecord(
            name: name, displayName: displayName, strength: strength, sampleEntryType: entryType,
            containers: [container], capabilities: [.fullRange: .everywhere, .alpha: .everywhere],
            decoderLimit:
                "a \(displayName) past 960x540, each frame a still image, loads slowly in chats and web pages",
            isPastDecoderLimit: { width, height in width * height > 960 * 540 }, encoders: [encoder])
        record.heavySize = ((960, 540), (640, 360))
        return record
    }

    static let gif = animatedImage(
        name: "gif", displayName: "GIF", strength: "an animated GIF, for chats and READMEs", entryType: "gif ",
        container: .gif, encoder: VideoEncoderRecords.libimagequant)

    static let webp = animatedImage(
        name: "webp", displayName: "WebP", strength: "an animated WebP, smaller than a GIF, lossy or lossless",
        entryType: "webp", container: .webp, encoder: VideoEncoderRecords.libwebp)
}
