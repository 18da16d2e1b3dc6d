import Foundation

/// What an image's stated colour means for the movie, said as a warning: Flipbook converts every
/// image as if it were sRGB (BT.709 primaries), so a photo in a wider space (Adobe RGB from a camera,
/// Display P3 from a phone) comes out less saturated than a colour-managed viewer shows it.
///
/// A profile's red, green and blue colorants (`rXYZ`, `gXYZ`, `bXYZ`, D50-adapted, ICC.1 §9.2) are
/// compared with sRGB's and with a few well-known spaces'. Parsing checks every offset: a malformed
/// profile means "nothing to say", never a trap.
enum ColourProfile {
    /// A warning for the image `image` (its path, for the message) whose file states `colour`, when
    /// that is a space other than sRGB (see ``SourceColour/nonSRGBSpace``); `nil` otherwise.
    static func warning(for colour: SourceColour, of image: String) -> String? {
        guard let space = colour.nonSRGBSpace else { return nil }
        return "\(image) has a colour profile of \(space); with colour management off every image is read as sRGB, "
            + "so the movie's colours are less saturated than a colour-managed viewer shows the photos (leave colour "
            + "management on, or export them as sRGB, to keep them)"
    }

    /// The colorants of well-known RGB spaces, D50-adapted as ICC profiles store them.
    static let knownSpaces: [(name: String, colorants: [Double])] = [
        ("sRGB", [0.4361, 0.2225, 0.0139, 0.3851, 0.7169, 0.0971, 0.1431, 0.0606, 0.7141]),
        ("Display P3", [0.5151, 0.2412, -0.0011, 0.2919, 0.6922, 0.0419, 0.1571, 0.0666, 0.7841]),
        ("Adobe RGB (1998)", [0.6097, 0.3111, 0.0195, 0.2053, 0.6257, 0.0609, 0.1492, 0.0632, 0.7446]),
        ("ProPhoto RGB", [0.7977, 0.2880, 0.0000, 0.1352, 0.7119, 0.0000, 0.0313, 0.0001, 0.8249]),
        ("BT.2020", [0.6734, 0.2790, -0.0019, 0.1656, 0.6753, 0.0300, 0.1251, 0.0456, 0.7973]),
    ]

    /// The name of the space an RGB ICC profile's colorants describe when it is not sRGB's: a
    /// well-known one within 0.01 in every value, else "a space other than sRGB". `nil` for sRGB, a
    /// profile without colorants (grey, CMYK, lookup tables only) or a malformed one.
    static func nonSRGBSpace(ofICCProfile profile: [UInt8]) -> String? {
        guard let colorants = colorants(of: profile) else { return nil }
        func matches(_ known: [Double]) -> Bool { zip(colorants, known).allSatisfy { abs($0 - $1) <= 0.01 } }
        guard let known = knownSpaces.first(where: { matches($0.colorants) }) else { return "a space other than sRGB" }
        return known.name == "sRGB" ? nil : known.name
    }

    /// The ICC profile a JPEG's metadata holds in its `ICC_PROFILE` APP2 segments, put together in
    /// their sequence order. `nil` when there is none or a chunk is missing.
    static func iccProfile<Bytes: RandomAccessCollection>(ofJPEG bytes: Bytes) -> [UInt8]?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let marker = Array("ICC_PROFILE".utf8) + [0]
        var chunks: [Int: Bytes.SubSequence] = [:]
        var expected = 0
        JPEGSegments.walk(bytes) { kind, payload in
            let header = payload.lowerBound + marker.count
            if kind == 0xE2, payload.count > marker.count + 2, bytes[payload.lowerBound..<header].elementsEqual(marker)
            {
                expected = Int(bytes[header + 1])
                chunks[Int(bytes[header])] = bytes[(header + 2)..<payload.upperBound]
            }
            return true
        }
        guard expected > 0, (1...expected).allSatisfy({ chunks[$0] != nil }) else { return nil }
        return (1...expected).flatMap { chunks[$0]! }
    }

    /// The nine colorant values (red, green, blue; X, Y, Z each) of an RGB display or input profile.
    static func colorants(of profile: [UInt8]) -> [Double]? {
        func u32(_ at: Int) -> UInt32? {
            guard at >= 0, at + 4 <= profile.count else { return nil }
            return profile[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        func signature(_ text: String) -> UInt32 { text.utf8.reduce(0) { $0 << 8 | UInt32($1) } }
        guard u32(16) == signature("RGB "), let count = u32(128), count <= 1000 else { return nil }
        var tags: [UInt32: Int] = [:]
        for index in 0..<Int(count) {
            let entry = 132 + index * 12
            guard let tag = u32(entry), let offset = u32(entry + 4) else { return nil }
            tags[tag] = Int(offset)
        }
        var values: [Double] = []
        for name in ["rXYZ", "gXYZ", "bXYZ"] {
            guard let offset = tags[signature(name)], u32(offset) == signature("XYZ ") else { return nil }
            for component in 0..<3 {
                guard let raw = u32(offset + 8 + component * 4) else { return nil }
                values.append(Double(Int32(bitPattern: raw)) / 65536)
            }
        }
        return values
    }
}
