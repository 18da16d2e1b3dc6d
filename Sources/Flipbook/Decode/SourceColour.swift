/// The colour an image's file says its pixels are in, as its decoder read it: an ICC profile (JPEG
/// APP2, PNG `iCCP`, WebP `ICCP`, TIFF tag 34675, HEIF `colr`), H.273 code points (PNG `cICP`, HEIF
/// `nclx`), and PNG's `gAMA`, `cHRM` and `sRGB` chunks.
///
/// Carried by every decoded image (``Frame``, ``YCbCrPlanes``, ``DeepImage``) to the preparation,
/// whose ``ColourTransform`` is the one place it is acted on.
package struct SourceColour: Sendable, Hashable, CustomStringConvertible {
    /// H.273 code points: colour primaries, transfer characteristics, matrix coefficients and range.
    package struct CodePoints: Sendable, Hashable {
        package var primaries: Int
        package var transfer: Int
        package var matrix: Int
        package var fullRange: Bool

        package init(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool) {
            self.primaries = primaries
            self.transfer = transfer
            self.matrix = matrix
            self.fullRange = fullRange
        }
    }

    /// The embedded ICC profile, whole.
    package var iccProfile: [UInt8]?
    /// The code points the file states (PNG `cICP`, HEIF `nclx`).
    package var codePoints: CodePoints?
    /// PNG `gAMA`: the exponent the samples were encoded with (0.45455 for 1/2.2).
    package var gamma: Double?
    /// PNG `cHRM`: white point x, y, then red, green and blue x, y.
    package var chromaticities: [Double]?
    /// Whether a PNG `sRGB` chunk says the samples are sRGB.
    package var statesSRGB = false
    /// Whether the frame's four bytes a pixel are a CMYK JPEG's inverted CMYK, not RGBA, left for
    /// ``ColourTransform`` to convert through the ICC profile.
    package var pixelsAreCMYK = false
    /// Whether the pixels were converted into the movie's space already.
    package var isInMovieSpace = false
    /// The image's file or position, for a warning; not part of the colour (ignored by `==`).
    package var imageName: String?
    /// Whether the picture is a scene-linear one shown through the view while it was decoded, so the
    /// view's exposure (and a ``Deflicker``'s change) is in it already; not part of the colour (ignored by `==`).
    package var viewExposed = false

    /// Pixels already converted into the movie's space.
    package static let inMovieSpace: SourceColour = {
        var colour = SourceColour()
        colour.isInMovieSpace = true
        return colour
    }()

    /// A file that says nothing about its colour: taken as sRGB, as every viewer takes it.
    package static let unstated = SourceColour()

    package init(
        iccProfile: [UInt8]? = nil, codePoints: CodePoints? = nil, gamma: Double? = nil,
        chromaticities: [Double]? = nil, statesSRGB: Bool = false
    ) {
        self.iccProfile = iccProfile
        self.codePoints = codePoints
        self.gamma = gamma
        self.chromaticities = chromaticities
        self.statesSRGB = statesSRGB
    }

    /// Whether the file says nothing about its colour.
    package var isUnstated: Bool { self == .unstated }

    package static func == (left: SourceColour, right: SourceColour) -> Bool {
        left.iccProfile == right.iccProfile && left.codePoints == right.codePoints && left.gamma == right.gamma
            && left.chromaticities == right.chromaticities && left.statesSRGB == right.statesSRGB
            && left.pixelsAreCMYK == right.pixelsAreCMYK && left.isInMovieSpace == right.isInMovieSpace
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(iccProfile)
        hasher.combine(codePoints)
        hasher.combine(gamma)
        hasher.combine(chromaticities)
        hasher.combine(statesSRGB)
        hasher.combine(pixelsAreCMYK)
        hasher.combine(isInMovieSpace)
    }

    /// The space the file states when it is not sRGB, named for a person (`Display P3`, `Adobe RGB
    /// (1998)`, `BT.2020`, or "a space other than sRGB"); `nil` for sRGB, for one stated only as a
    /// gamma, and for nothing stated. An ICC profile decides when there is one (as colour-managed
    /// viewers do), then the code points, then PNG chromaticities.
    package var nonSRGBSpace: String? {
        if statesSRGB { return nil }
        if let iccProfile, ColourProfile.colorants(of: iccProfile) != nil {
            return ColourProfile.nonSRGBSpace(ofICCProfile: iccProfile)
        }
        if let codePoints {
            switch codePoints.primaries {
            case 9: return "BT.2020"
            case 11: return "DCI-P3"
            case 12: return "Display P3"
            default: return nil
            }
        }
        if let chromaticities, chromaticities.count == 8 {
            func matches(_ known: [Double]) -> Bool { zip(chromaticities, known).allSatisfy { abs($0 - $1) <= 0.01 } }
            guard let known = Self.knownChromaticities.first(where: { matches($0.values) }) else {
                return "a space other than sRGB"
            }
            return known.name == "sRGB" ? nil : known.name
        }
        return nil
    }

    /// White point then red, green and blue primaries (x, y) of well-known spaces, as `cHRM` states them.
    static let knownChromaticities: [(name: String, values: [Double])] = [
        ("sRGB", [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]),
        ("Display P3", [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]),
        ("Adobe RGB (1998)", [0.3127, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06]),
        ("BT.2020", [0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046]),
    ]

    package var description: String {
        var parts: [String] = []
        if let iccProfile { parts.append("ICC profile of \(iccProfile.count) bytes") }
        if let codePoints {
            parts.append(
                "code points \(codePoints.primaries)/\(codePoints.transfer)/\(codePoints.matrix)"
                    + (codePoints.fullRange ? " full range" : ""))
        }
        if let gamma { parts.append("gamma \(gamma)") }
        if chromaticities != nil { parts.append("chromaticities") }
        if statesSRGB { parts.append("sRGB") }
        return parts.isEmpty ? "unstated (taken as sRGB)" : parts.joined(separator: ", ")
    }
}

extension DecodedImage {
    /// The colour the image's file states.
    package var sourceColour: SourceColour {
        switch self {
        case .frame(let frame): frame.sourceColour
        case .planes(let planes): planes.sourceColour
        case .deep(let image): image.sourceColour
        }
    }

    /// The same image, saying its file states `colour` (its pixels stay CMYK if they were).
    func withSourceColour(_ stated: SourceColour) -> DecodedImage {
        var colour = stated
        colour.pixelsAreCMYK = sourceColour.pixelsAreCMYK
        colour.imageName = colour.imageName ?? sourceColour.imageName
        colour.viewExposed = colour.viewExposed || sourceColour.viewExposed
        switch self {
        case .frame(var frame):
            frame.sourceColour = colour
            return .frame(frame)
        case .planes(var planes):
            planes.sourceColour = colour
            return .planes(planes)
        case .deep(var image):
            image.sourceColour = colour
            return .deep(image)
        }
    }
}
