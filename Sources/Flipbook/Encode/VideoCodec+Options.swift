/// What a codec takes that a caller asks before choosing settings, so that a front end (the
/// command-line tool) keeps no rule of its own about codecs: which profiles name ProRes flavours,
/// and the bit depth a colour standard is encoded at.
extension VideoCodec {
    /// The ProRes flavours ``VideoSettings/proResProfile`` takes for this codec: every
    /// ``ProResProfile`` for ProRes, none for the others (whose profiles are ``profiles``).
    public var proResProfiles: [ProResProfile] { self == .prores ? ProResProfile.allCases : [] }

    /// The bit depth a movie in `colourStandard` is encoded at when none is asked for: the standard's
    /// own (``ColourStandard/bitDepth``: 10 for BT.2020) when the codec has it, else the codec's first
    /// (8, or 10 for ProRes).
    ///
    /// - Parameter colourStandard: The standard the movie is converted into and tagged as.
    public func defaultBitDepth(for colourStandard: ColourStandard) -> Int {
        if let depth = colourStandard.bitDepth, bitDepths.contains(depth) { return depth }
        return bitDepths[0]
    }
}

extension ColourStandard {
    /// The bit depth the standard's movies are encoded at, when it has one of its own: 10 for BT.2020,
    /// whose transfer is tagged as the 10-bit system's, and for PQ and HLG, which are 10-bit only; `nil`
    /// for a standard of any depth.
    public var bitDepth: Int? { self == .bt2020 || isHDR ? 10 : nil }
}
