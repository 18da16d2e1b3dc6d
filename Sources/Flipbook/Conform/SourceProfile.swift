/// What an image's stated colour (``SourceColour``) means as a profile to convert from, in the order
/// colour-managed viewers take it: an embedded ICC profile, then H.273 code points (PNG `cICP`, HEIF
/// `nclx`), then PNG's `sRGB` chunk, then `gAMA` and `cHRM` (a profile built from them).
enum SourceProfile {
    /// D65 as x, y.
    static let d65 = [0.3127, 0.3290]
    /// Red, green and blue x, y of the spaces H.273 code points and the movie standards name.
    static let sRGBPrimaries = [0.64, 0.33, 0.30, 0.60, 0.15, 0.06]
    static let displayP3Primaries = [0.680, 0.320, 0.265, 0.690, 0.150, 0.060]
    static let bt2020Primaries = [0.708, 0.292, 0.170, 0.797, 0.131, 0.046]

    /// The profile of sRGB, as Flipbook builds it (lcms2's own sRGB is the same primaries and curve).
    static let sRGB = LittleCMS.Profile.rgb(white: d65, primaries: sRGBPrimaries, curve: .sRGB)

    /// What `colour` states, resolved.
    enum Resolved: Equatable {
        /// sRGB, or nothing stated: the values are taken as sRGB.
        case sRGB
        /// A profile to convert from, read from pixels of `layout` kind (RGB unless CMYK or grey), named for counts.
        case profile(LittleCMS.Profile, kind: LittleCMS.ProfileKind, name: String)
        /// A statement Flipbook cannot use, with the reason for the warning.
        case unusable(String)
    }

    static func resolve(_ colour: SourceColour) -> Resolved {
        if let icc = colour.iccProfile {
            guard let kind = LittleCMS.kind(ofICCProfile: icc) else {
                return .unusable("its ICC profile is damaged or not one Little CMS reads")
            }
            if kind == .other { return .unusable("its ICC profile is not an RGB, CMYK or grey profile") }
            return .profile(.icc(icc), kind: kind, name: colour.nonSRGBSpace ?? iccName(kind))
        }
        if let points = colour.codePoints {
            return resolve(points)
        }
        if colour.statesSRGB { return .sRGB }
        guard colour.gamma != nil || colour.chromaticities != nil else { return .sRGB }
        var white = d65
        var primaries = sRGBPrimaries
        if let values = colour.chromaticities {
            guard values.count == 8, values.allSatisfy({ $0 > 0 && $0 < 1 }) else {
                return .unusable("its cHRM chunk states impossible chromaticities")
            }
            white = Array(values[0..<2])
            primaries = Array(values[2...])
        }
        var curve = ToneCurve.sRGB
        if let gamma = colour.gamma {
            guard gamma > 0.01, gamma < 10 else { return .unusable("its gAMA chunk states an impossible gamma") }
            // 1/2.2 as gAMA writes it (45455) is how PNG writers say sRGB; Skia and Chrome read it so too.
            if abs(gamma - 0.45455) > 0.00001 { curve = .power(1 / gamma) }
        }
        if curve == .sRGB && zip(white + primaries, d65 + sRGBPrimaries).allSatisfy({ abs($0 - $1) <= 0.0005 }) {
            return .sRGB
        }
        return .profile(.rgb(white: white, primaries: primaries, curve: curve), kind: .rgb, name: pngName(colour))
    }

    private static func resolve(_ points: SourceColour.CodePoints) -> Resolved {
        let primaries: (white: [Double], rgb: [Double], name: String)? =
            switch points.primaries {
            case 1, 2: (d65, sRGBPrimaries, "BT.709")
            case 5: (d65, [0.64, 0.33, 0.29, 0.60, 0.15, 0.06], "BT.601 (625)")
            case 6: (d65, [0.630, 0.340, 0.310, 0.595, 0.155, 0.070], "BT.601 (525)")
            case 9: (d65, bt2020Primaries, "BT.2020")
            case 11: ([0.314, 0.351], displayP3Primaries, "DCI-P3")
            case 12: (d65, displayP3Primaries, "Display P3")
            default: nil
            }
        let curve: ToneCurve? =
            switch points.transfer {
            case 13, 2: .sRGB
            case 1, 6, 14, 15: .bt709
            case 4: .power(2.2)
            case 5: .power(2.8)
            case 8: .power(1)
            default: nil
            }
        guard let primaries else {
            return .unusable("it states colour primaries \(points.primaries), which Flipbook does not convert")
        }
        guard let curve else {
            return .unusable(
                "it states transfer characteristics \(points.transfer) (HDR or another curve), which Flipbook does not convert"
            )
        }
        if primaries.rgb == sRGBPrimaries && curve == .sRGB { return .sRGB }
        let curveName = curve == .sRGB ? "" : curve == .bt709 ? " (BT.709 curve)" : " (gamma \(curve.parameters[0]))"
        return .profile(
            .rgb(white: primaries.white, primaries: primaries.rgb, curve: curve), kind: .rgb,
            name: primaries.name + curveName)
    }

    private static func iccName(_ kind: LittleCMS.ProfileKind) -> String {
        switch kind {
        case .cmyk: "CMYK profile"
        case .grey: "grey profile"
        default: "ICC profile"
        }
    }

    private static func pngName(_ colour: SourceColour) -> String {
        if let space = colour.nonSRGBSpace { return space + " (gAMA/cHRM)" }
        if let gamma = colour.gamma { return "gamma \(1 / gamma) (gAMA)" }
        return "PNG chromaticities (cHRM)"
    }

    /// The profile of the space a movie of `standard` is encoded in: sRGB's curve on the standard's
    /// primaries (BT.709 and BT.601 movies hold sRGB values, as Flipbook has always written them).
    static func destination(_ standard: ColourStandard) -> LittleCMS.Profile {
        switch standard {
        case .bt709, .bt601: sRGB
        case .displayP3: .rgb(white: d65, primaries: displayP3Primaries, curve: .sRGB)
        // HDR movies are converted to BT.2020 with sRGB's curve first; ``HDRTransfer`` then codes them.
        case .bt2020, .pq, .hlg: .rgb(white: d65, primaries: bt2020Primaries, curve: .sRGB)
        }
    }

    /// The profile of pixels a caller says are in `space`.
    static func codePoints(of space: FrameColourSpace) -> SourceColour.CodePoints {
        switch space {
        case .sRGB: SourceColour.CodePoints(primaries: 1, transfer: 13, matrix: 0, fullRange: true)
        case .displayP3: SourceColour.CodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true)
        case .linearSRGB: SourceColour.CodePoints(primaries: 1, transfer: 8, matrix: 0, fullRange: true)
        }
    }
}
