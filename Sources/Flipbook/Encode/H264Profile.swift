/// Which H.264 profile a movie is encoded in: a rule of Flipbook's, kept apart from the x264 wrapper
/// that applies it.
enum H264Profile: String {
    /// Constrained Baseline: no B-frames, no CABAC.
    case baseline
    /// Main: B-frames and CABAC, 4x4 transforms only.
    case main
    /// 8-bit 4:2:0 with B-frames and 8x8 transforms: what every player decodes.
    case high
    /// High 4:4:4 Predictive: needed for lossless coding (quantiser 0, which x264 also uses for
    /// CRF 0), even for 4:2:0.
    case high444
    /// High 10: 10-bit 4:2:0, for `bitDepth` 10.
    case high10

    /// The profile for `settings`.
    init(for settings: VideoSettings) {
        if let profile = settings.profile, let asked = H264Profile(rawValue: profile.rawValue) {
            self = asked
        } else if settings.bitDepth == 10 {
            self = .high10
        } else {
            self = settings.isLossless ? .high444 : .high
        }
    }
}
