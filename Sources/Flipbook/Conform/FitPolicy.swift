/// How an image of another size or shape is made the movie's size.
public enum FitPolicy: String, Sendable, Hashable, CaseIterable {
    /// Scale to fit inside the movie, keeping the aspect ratio, centred on the background colour
    /// (letterbox or pillarbox bands). The default.
    ///
    /// An image at most one pixel smaller than the movie on each side (such as a 641x361 image in a
    /// 642x362 movie, whose size was rounded up to even) is placed 1:1 rather than scaled by a
    /// fraction of a percent, so no pixel is blurred.
    case contain
    /// Scale to fill the movie, keeping the aspect ratio, and crop what overflows, centred.
    case cover
    /// Scale to fill the movie exactly, ignoring the aspect ratio.
    case stretch
}

/// An opaque 8-bit sRGB colour: the background behind letterbox bands and transparent pixels.
public struct RGBColour: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8

    /// Creates a colour from its channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Black, the default background.
    public static let black = RGBColour(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = RGBColour(red: 255, green: 255, blue: 255)

    /// The colour names the command line's `--background` accepts, with their CSS values.
    public static let named: [String: RGBColour] = [
        "black": .black, "white": .white,
        "red": RGBColour(red: 255, green: 0, blue: 0), "green": RGBColour(red: 0, green: 128, blue: 0),
        "lime": RGBColour(red: 0, green: 255, blue: 0), "blue": RGBColour(red: 0, green: 0, blue: 255),
        "gray": RGBColour(red: 128, green: 128, blue: 128), "grey": RGBColour(red: 128, green: 128, blue: 128),
        "silver": RGBColour(red: 192, green: 192, blue: 192), "yellow": RGBColour(red: 255, green: 255, blue: 0),
        "cyan": RGBColour(red: 0, green: 255, blue: 255), "aqua": RGBColour(red: 0, green: 255, blue: 255),
        "magenta": RGBColour(red: 255, green: 0, blue: 255), "fuchsia": RGBColour(red: 255, green: 0, blue: 255),
        "orange": RGBColour(red: 255, green: 165, blue: 0), "purple": RGBColour(red: 128, green: 0, blue: 128),
        "pink": RGBColour(red: 255, green: 192, blue: 203), "brown": RGBColour(red: 165, green: 42, blue: 42),
        "navy": RGBColour(red: 0, green: 0, blue: 128), "teal": RGBColour(red: 0, green: 128, blue: 128),
        "maroon": RGBColour(red: 128, green: 0, blue: 0), "olive": RGBColour(red: 128, green: 128, blue: 0),
    ]

    /// Parses a CSS-like colour: a name from ``named`` (any case), `#RRGGBB`, or `#RGB`.
    ///
    /// Returns `nil` for anything else.
    ///
    /// - Parameter text: The colour as written, such as `--background` takes it; spaces around it are ignored.
    public init?(parsing text: String) {
        let trimmed = text.trimmingWhitespace().lowercased()
        if let colour = RGBColour.named[trimmed] {
            self = colour
            return
        }
        guard trimmed.hasPrefix("#"), trimmed.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        var digits = Array(trimmed.dropFirst())
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6, let value = Int(String(digits), radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// `#RRGGBB`.
    public var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }
}

/// The colour standard the movie's pixels are encoded in and tagged with (primaries, transfer
/// characteristics and Y'CbCr matrix together).
public enum ColourStandard: String, Sendable, Hashable, CaseIterable {
    /// ITU-R BT.709, for HD video: the default.
    case bt709
    /// ITU-R BT.601 as SMPTE 170M (H.273 code 6 for primaries, transfer and matrix), for SD video.
    case bt601
    /// Display P3 (P3-D65, H.273 primaries 12) with BT.709's matrix and transfer tags: the gamut phones
    /// capture, shown as such by Apple's players and Safari. Images are converted into it.
    case displayP3 = "p3"
    /// ITU-R BT.2020 primaries (H.273 code 9) and its non-constant-luminance matrix, at 10 bits.
    case bt2020
    /// HDR10's signal: BT.2020 primaries and matrix with SMPTE ST 2084's perceptual quantizer (PQ, H.273
    /// transfer 16), at 10 bits. Display white of an image, or scene 1.0 of a render, is placed at
    /// ``VideoSettings/peakLuminance`` nits (203 by default, BT.2408's reference white).
    case pq
    /// ITU-R BT.2100 hybrid log-gamma (ARIB STD-B67, H.273 transfer 18) with BT.2020 primaries and matrix,
    /// at 10 bits: white at ``VideoSettings/peakLuminance`` nits on BT.2100's 1000-nit reference display
    /// (203 nits is 75% of the signal, as BT.2408 places it).
    case hlg

    /// Whether the standard is high dynamic range (``pq``, ``hlg``): 10 bits only.
    public var isHDR: Bool { self == .pq || self == .hlg }
}

/// The range of Y'CbCr code values.
public enum ColourRange: String, Sendable, Hashable, CaseIterable {
    /// Luma 16...235, chroma 16...240 ("TV" or "video" range): the default, what players expect.
    case limited
    /// 0...255 for luma and chroma ("PC" or "JPEG" range).
    case full
}
