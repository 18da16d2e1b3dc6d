/// What one encoder of a codec can make and how to open it: its quality scale, the pictures and sizes it
/// takes, the rate control and structure it offers. A codec's bitstream facts are in its
/// ``VideoCodecRecord``; a codec may have several encoders (``VideoCodecRecord/encoders``), the first its
/// default, chosen with ``VideoCodec/encoded(by:)`` (`--encoder NAME`).
struct VideoEncoderRecord: Sendable {
    /// The name `--encoder` takes: `x264`, `svt-av1`, `libaom`.
    let name: String
    /// The encoding library as people write it, in messages: `x264`, `SVT-AV1`, `libaom`.
    let displayName: String
    /// What the encoder offers, asked for by name: ``has(_:)``.
    var features: Set<EncoderFeature>
    /// The constant rate factors the encoder takes, its own default, and one worth knowing ("18 looks lossless").
    var crfRange: ClosedRange<Double> = 0...0
    var defaultCRF: Double = 0
    var crfNote: String? = nil
    /// Sizes and rates the encoder takes.
    var widthRange = VideoSettings.sideRange
    var heightRange = VideoSettings.sideRange
    var maximumFrameRate: Int? = nil
    /// The bit depths and chroma formats of the pictures it encodes, the first chroma format its own.
    let bitDepths: [Int]
    let chromaFormats: [ChromaFormat]
    /// What sets the quality of an encoder that takes no CRF, as the end of a sentence ("its quality is
    /// its --profile (proxy, …)"); `nil` for one with a CRF.
    var qualityNote: String? = nil
    /// What `--preset` names mean for this encoder, when they are not its own (for help text).
    var presetNote: String? = nil
    /// The `--tune` names the encoder knows.
    var tunes: [String] = []
    /// The shortest keyframe interval the encoder keeps, in frames (SVT-AV1 has no all-keyframe mode: 2).
    var shortestKeyframeInterval = 1
    /// The highest average or capped bit rate the encoder takes (SVT-AV1: 100 Mb/s).
    var highestBitrate = RateControl.bitrateRange.upperBound
    /// The B-frames (pictures reordered between keyframes) the encoder may be asked for; `nil` when
    /// the number cannot be chosen.
    var bFrameRange: ClosedRange<Int>? = nil
    /// Checks `--encoder-params` with the encoder's own parser, throwing `.invalidSettings` naming a
    /// key or value it refuses; `nil` when the encoder takes none.
    var checkParameters: (@Sendable ([EncoderParameter]) throws -> Void)? = nil
    /// Opens the encoder for pictures converted with `colour`.
    let makeEncoder: @Sendable (_ settings: VideoSettings, _ colour: ColourMatrix) throws -> any VideoEncoder

    /// Whether the encoder offers `feature`.
    func has(_ feature: EncoderFeature) -> Bool { features.contains(feature) }
}

/// Something an encoder may offer, asked for by name rather than kept as a field of every record.
enum EncoderFeature: Sendable, Hashable {
    /// Quality set by a constant rate factor; ProRes's is its profile, FFV1's lossless.
    case constantRateFactor
    /// Whole CRFs only (SVT-AV1's and libvpx's quantisers), so that a search of the CRF tries whole numbers.
    case wholeConstantRateFactor
    /// Speed presets.
    case presets
    /// A bit rate, a size budget and a rate limit; ProRes's rate is its profile's.
    case rateControl
    /// Two passes over the pictures, a first that writes statistics for the second.
    case twoPasses
    /// A cap on the bit rate over a decoder's buffer (VBV); libvpx keeps no such cap.
    case rateLimit
    /// A cap of constant quality only (SVT-AV1's `max_bit_rate`), not of an average rate.
    case capsConstantQualityOnly
    /// A structure without reordering that takes constant quality only (SVT-AV1's low-delay prediction has no VBR).
    case noReorderingNeedsConstantQuality
    /// Streams marked with the level asked for (``VideoSettings/level``).
    case levels
    /// Lossless coding at 8 bits.
    case lossless
    /// An alpha plane, where the codec carries one (``CodecCapability/alpha``).
    case alpha
    /// Packed RGBA pictures at 8 bits (``PictureFormat/rgba(hasAlpha:)``): the animated images' and FFV1's.
    case rgbaPictures
    /// Keeps every core busy for far longer than a frame takes to decode (ProRes's frame threads), so that
    /// few images need be decoded ahead of it.
    case keepsCoresBusy

    /// What most encoders with a CRF offer: quality by CRF, presets, rate control and a rate limit.
    static let usual: Set<EncoderFeature> = [.constantRateFactor, .presets, .rateControl, .rateLimit, .levels]
}
