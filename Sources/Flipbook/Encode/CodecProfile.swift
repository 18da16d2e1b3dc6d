/// A profile of H.264, HEVC or AV1: the coding tools and sample depth a decoder must have, for
/// movies that must play on a given device.
public enum CodecProfile: String, Sendable, CaseIterable {
    /// H.264 Constrained Baseline: no B-frames and no CABAC, for the oldest phones and video calls.
    case baseline
    /// H.264 Main or HEVC Main (8-bit), or AV1 Main (8 or 10-bit).
    case main
    /// H.264 High: 8x8 transforms, what every current player decodes (H.264's default).
    case high
    /// H.264 High 10: 10-bit samples.
    case high10
    /// HEVC Main 10: 10-bit samples.
    case main10

    /// The name the command line takes: `high10`.
    public var name: String { rawValue }

    /// The bit depth the profile asks for with `codec`, or `nil` when it takes 8 or 10 (AV1 Main).
    public func bitDepth(for codec: VideoCodec) -> Int? {
        switch self {
        case .high10, .main10: 10
        case .main where codec == .av1: nil
        case .baseline, .main, .high: 8
        }
    }
}
