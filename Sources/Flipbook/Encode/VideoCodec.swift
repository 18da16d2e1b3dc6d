/// The video codec a movie is encoded with.
///
/// Each codec has its own encoder, its own quality scale and its own default quality:
///
/// | Codec | Encoder | Sample entry | CRF range | Default CRF |
/// |---|---|---|---|---|
/// | ``h264`` | x264 | `avc1` | 0-51 | 23 |
/// | ``hevc`` | x265 | `hvc1` (parameter sets in `hvcC`, as QuickTime, Safari and Photos require) | 0-51 | 28 |
/// | ``av1`` | SVT-AV1 | `av01` (sequence header in `av1C`) | 1-63 | 35 |
///
/// AV1 pictures are 64x64 to 16384x8704 pixels and HEVC pictures 16x16 to 16384x16384 (see ``widthRange``
/// and ``heightRange``); H.264 takes any even size from 2x2 to 16384x16384.
public enum VideoCodec: String, Sendable, Hashable, CaseIterable {
    /// H.264 (AVC), High profile: plays everywhere.
    case h264
    /// H.265 (HEVC), Main or Main 10: about half the bytes of H.264 at the same quality.
    case hevc
    /// AV1, Main profile: the newest browsers' codec, smaller again.
    case av1

    /// The constant rate factors the codec's encoder takes.
    public var crfRange: ClosedRange<Double> {
        switch self {
        case .h264, .hevc: 0...51
        case .av1: 1...63
        }
    }

    /// The encoder's own default CRF: 23 for x264, 28 for x265, 35 for SVT-AV1.
    public var defaultCRF: Double {
        switch self {
        case .h264: 23
        case .hevc: 28
        case .av1: 35
        }
    }

    /// The widths the codec's encoder takes: 2 to 16384 pixels; 16 to 16384 for HEVC (x265's smallest
    /// coding block), 64 to 16384 for AV1 (SVT-AV1's limits).
    public var widthRange: ClosedRange<Int> {
        switch self {
        case .h264: VideoSettings.sideRange
        case .hevc: 16...16384
        case .av1: 64...16384
        }
    }

    /// The heights the codec's encoder takes: 2 to 16384 pixels; 16 to 16384 for HEVC, 64 to 8704 for AV1.
    public var heightRange: ClosedRange<Int> {
        switch self {
        case .h264: VideoSettings.sideRange
        case .hevc: 16...16384
        case .av1: 64...8704
        }
    }

    /// The bit depths the codec is encoded at: 8 or 10 (H.264 High 10, HEVC Main 10, AV1 Main).
    public var bitDepths: [Int] { [8, 10] }

    /// The name ffprobe gives the codec.
    var probeName: String {
        switch self {
        case .h264: "h264"
        case .hevc: "hevc"
        case .av1: "av1"
        }
    }
}
