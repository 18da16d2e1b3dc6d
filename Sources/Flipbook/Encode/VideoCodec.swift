import ISOBMFF

/// The video codec a movie is encoded with.
///
/// Each codec has its own encoder, its own quality scale and its own default quality:
///
/// | Codec | Encoder | Sample entry | CRF range | Default CRF |
/// |---|---|---|---|---|
/// | ``h264`` | x264 | `avc1` | 0-51 | 23 |
/// | ``hevc`` | x265 | `hvc1` (parameter sets in `hvcC`, as QuickTime, Safari and Photos require) | 0-51 | 28 |
/// | ``av1`` | SVT-AV1 | `av01` (sequence header in `av1C`) | 1-63 | 35 |
/// | ``vp9`` | libvpx | `vp09` (profile, level and colour in `vpcC`) | 0-63 | 32 |
/// | ``prores`` | prores_ks (libavcodec) | `apch`, `ap4h`, … by ``ProResProfile`` | none: the profile | — |
/// | ``ffv1`` | ffv1 (libavcodec) | `FFV1` (configuration in `glbl`), Matroska `V_FFV1` | none: lossless | — |
///
/// A codec may have more than one encoder (``encoderNames``, the default first): AV1 is made by SVT-AV1,
/// or by libaom through ``encoded(by:)`` (CRF 0-63, default 32, one pass).
///
/// VP9 is coded by libvpx at CRF 32 by default, its speed (`cpu-used`) chosen by ``EncoderPreset/vp9Speed``.
///
/// ProRes goes in QuickTime movies (`.mov`) only; every frame is a keyframe, 10-bit 4:2:2 or 4:4:4,
/// and ProRes 4444 keeps alpha (``VideoSettings/keepsAlpha``).
///
/// AV1 pictures are 64x64 to 16384x8704 pixels and HEVC pictures 16x16 to 16384x16384 (see ``widthRange``
/// and ``heightRange``); H.264 takes any even size from 2x2 to 16384x16384.
///
/// Every fact here is read from one record per codec, which also opens the codec's encoder, so the
/// command-line help, the error messages and the checks in ``VideoSettings/validate()`` all say the same.
public struct VideoCodec: Sendable, Hashable, CustomStringConvertible {
    /// H.264 (AVC), High profile: plays everywhere.
    public static let h264 = VideoCodec(VideoCodecs.h264)
    /// H.265 (HEVC), Main or Main 10: about half the bytes of H.264 at the same quality.
    public static let hevc = VideoCodec(VideoCodecs.hevc)
    /// AV1, Main profile: the newest browsers' codec, smaller again.
    public static let av1 = VideoCodec(VideoCodecs.av1)
    /// VP9, profile 0 (8-bit) or 2 (10-bit): royalty-free, played by browsers; keeps alpha (8-bit) in
    /// WebM and Matroska files only.
    public static let vp9 = VideoCodec(VideoCodecs.vp9)
    /// Apple ProRes (422 Proxy to 4444 XQ, see ``ProResProfile``): every frame a keyframe, for editing;
    /// in QuickTime movies only.
    public static let prores = VideoCodec(VideoCodecs.prores)
    /// FFV1 version 3 (libavcodec): lossless, for archives; the images' own RGB at 8 bits (a decoded
    /// frame is the source's pixels exactly), 4:4:4 at 10 bits, alpha with ``VideoSettings/keepsAlpha``;
    /// in Matroska and QuickTime movies.
    public static let ffv1 = VideoCodec(VideoCodecs.ffv1)

    /// An animated GIF's frames (`.gif` files only): a palette a frame from libimagequant, Flipbook's
    /// own LZW; quality by ``VideoSettings/quality``, 1-bit alpha with ``VideoSettings/keepsAlpha``.
    public static let gif = VideoCodec(VideoCodecs.gif)
    /// An animated WebP's frames (`.webp` files only), by libwebp's animation encoder: lossy at
    /// ``VideoSettings/quality`` or ``VideoSettings/lossless``, alpha with ``VideoSettings/keepsAlpha``.
    public static let webp = VideoCodec(VideoCodecs.webp)

    /// Every codec Flipbook encodes, in the order help text lists them.
    public static let allCases: [VideoCodec] = [.h264, .hevc, .av1, .vp9, .prores, .ffv1, .gif, .webp]

    /// The record that describes the codec's bitstream.
    let record: VideoCodecRecord
    /// The record of the encoder that makes it: the codec's default, or the one ``encoded(by:)`` chose.
    let encoderRecord: VideoEncoderRecord

    private init(_ record: VideoCodecRecord) {
        self.record = record
        encoderRecord = record.encoders[0]
    }

    /// The codec whose name (as `--codec` takes it and ffprobe gives it: `h264`, `hevc`, `av1`) is
    /// `name`, compared case-insensitively; `nil` for another.
    public init?(name: String) {
        guard let codec = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = codec
    }

    /// The same codec made by the encoder named `encoder` (as `--encoder` takes it: `svt-av1` or `libaom`
    /// for AV1), compared case-insensitively.
    ///
    /// Every fact of the encoder (its CRF scale, presets, rate control, sizes) then answers for this value.
    /// - Throws: ``FlipbookError`` with `.invalidSettings` naming the codec's encoders when it has none of
    ///   that name: "encoder x264 is not one of av1's encoders; use svt-av1 (the default) or libaom".
    public func encoded(by encoder: String) throws -> VideoCodec {
        guard let chosen = record.encoders.first(where: { $0.name == encoder.lowercased() }) else {
            throw FlipbookError.unknownEncoder(encoder, of: self)
        }
        return VideoCodec(record: record, encoder: chosen)
    }

    private init(record: VideoCodecRecord, encoder: VideoEncoderRecord) {
        self.record = record
        encoderRecord = encoder
    }

    /// The codec's short name, as `--codec` takes it and ffprobe gives it: `h264`, `hevc`, `av1`.
    public var name: String { record.name }
    /// The codec's name as people write it: `H.264`, `HEVC`, `AV1`.
    public var displayName: String { record.displayName }
    /// The library that encodes it, as people write it: `x264`, `x265`, `SVT-AV1`, `libaom`.
    public var encoderName: String { encoderRecord.displayName }
    /// The encoder's name as `--encoder` takes it: `x264`, `svt-av1`, `libaom`.
    public var encoder: String { encoderRecord.name }
    /// The names of every encoder of the codec, as `--encoder` takes them, the default first.
    public var encoderNames: [String] { record.encoders.map(\.name) }
    /// Whether the encoder is the codec's default one.
    public var isDefaultEncoder: Bool { encoderRecord.name == record.encoders[0].name }
    public var description: String { name }

    /// The constant rate factors the codec's encoder takes.
    public var crfRange: ClosedRange<Double> { encoderRecord.crfRange }
    /// The encoder's own default CRF: 23 for x264, 28 for x265, 35 for SVT-AV1, 32 for libvpx (VP9) and libaom.
    public var defaultCRF: Double { encoderRecord.defaultCRF }
    /// The widths the codec's encoder takes: 2 to 16384 pixels; 16 to 16384 for HEVC (x265's smallest
    /// coding block), 64 to 16384 for AV1 (SVT-AV1's limits).
    public var widthRange: ClosedRange<Int> { encoderRecord.widthRange }
    /// The heights the codec's encoder takes: 2 to 16384 pixels; 16 to 16384 for HEVC, 64 to 8704 for AV1.
    public var heightRange: ClosedRange<Int> { encoderRecord.heightRange }
    /// The most frames a second the encoder takes, or `nil` for no limit of its own (SVT-AV1 takes 240).
    public var maximumFrameRate: Int? { encoderRecord.maximumFrameRate }
    /// The bit depths the codec is encoded at: 8 or 10 (H.264 High 10, HEVC Main 10, AV1 Main, VP9 profile 2).
    public var bitDepths: [Int] { encoderRecord.bitDepths }
    /// The chroma formats the codec is encoded in: 4:2:0 for H.264, HEVC and AV1; 4:2:2 and 4:4:4 for ProRes.
    public var chromaFormats: [ChromaFormat] { encoderRecord.chromaFormats }
    /// Whether the codec carries a transparency (alpha) plane: ProRes 4444 does, and VP9 in WebM and Matroska.
    public var carriesAlpha: Bool { record.capability(.alpha) != nil && encoderRecord.has(.alpha) }
    /// Whether the codec's quality is set by a constant rate factor (``VideoSettings/crf``); ProRes's
    /// is set by its profile.
    public var takesCRF: Bool { encoderRecord.has(.constantRateFactor) }
    /// Whether the codec's encoder has speed presets (``VideoSettings/preset``); ProRes's has none.
    public var takesPreset: Bool { encoderRecord.has(.presets) }
    /// What sets the quality of a codec that takes no CRF, as the end of a sentence: "its quality is
    /// its --profile (proxy, lt, standard, hq, 4444 or 4444xq)" for ProRes; `nil` for a codec with a CRF.
    public var qualityNote: String? { encoderRecord.qualityNote }
    /// Whether the codec can be encoded losslessly (``VideoSettings/lossless``) at 8 bits.
    public var encodesLosslessly: Bool { encoderRecord.has(.lossless) }
    /// Whether the codec is an animated image's (GIF, WebP): RGBA frames, a quality of 1-100 instead
    /// of a CRF, written only in its own kind of file (every container it goes in is an animated image).
    public var isAnimatedImage: Bool { record.containers.allSatisfy(\.isAnimatedImage) }
    /// The containers a movie of this codec can be written as.
    public var containers: [MovieContainer] { record.containers }

    /// Whether `(lhs, rhs)` are the same codec, whichever encoder makes each.
    public static func == (lhs: VideoCodec, rhs: VideoCodec) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Every codec's name as a person reads a list of them: `h264, hevc or av1`.
    public static var nameList: String { spokenList(allCases.map(\.name), joinedBy: "or") }
}

/// Joins `items` as a sentence does: `a, b or c`.
func spokenList(_ items: [String], joinedBy word: String) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(word) " + items.last!
}
