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
