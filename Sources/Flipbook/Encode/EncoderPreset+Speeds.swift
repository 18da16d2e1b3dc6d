extension EncoderPreset {
    /// The libvpx speed (`cpu-used`, 0 slowest to 5 fastest in its good-quality mode) this name means
    /// for VP9: ultrafast and superfast 5, veryfast and faster 4, fast 3, medium 2, slow and slower 1,
    /// veryslow and placebo 0.
    public var vp9Speed: Int {
        switch self {
        case .ultrafast, .superfast: 5
        case .veryfast, .faster: 4
        case .fast: 3
        case .medium: 2
        case .slow, .slower: 1
        case .veryslow, .placebo: 0
        }
    }
}

extension EncoderPreset {
    /// The libaom speed (`cpu-used` in its good-quality mode, 0 slowest to 6 fastest: it treats 7 to 9
    /// as 6) this name means for AV1 made by libaom: ultrafast, superfast and veryfast 6, faster and
    /// fast 5, medium 4, slow 3, slower 2, veryslow 1, placebo 0.
    public var libaomSpeed: Int {
        switch self {
        case .ultrafast, .superfast, .veryfast: 6
        case .faster, .fast: 5
        case .medium: 4
        case .slow: 3
        case .slower: 2
        case .veryslow: 1
        case .placebo: 0
        }
    }
}
