/// SMPTE ST 2086's mastering display colour volume: the display an HDR programme was graded on, as
/// CIE 1931 chromaticities of its primaries and white, and its luminance range in nits.
///
/// Each container and encoder writes it in its own units and order: `mdcv` (G, B, R; x and y in
/// 0.00002, luminance in 0.0001 nits), `SmDm` (R, G, B; 0.16 and 24.8/18.14 fixed point), Matroska's
/// `MasteringMetadata` (floats), x265's `master-display` (as `mdcv`).
package struct MasteringDisplayColourVolume: Sendable, Equatable {
    /// Red, green, blue and white x, y.
    package var red: Chromaticity
    package var green: Chromaticity
    package var blue: Chromaticity
    package var white: Chromaticity
    /// The display's peak luminance, in nits.
    package var maxLuminance: Double
    /// The display's black, in nits.
    package var minLuminance: Double

    /// A point on the CIE 1931 chromaticity diagram.
    package struct Chromaticity: Sendable, Equatable {
        package var x: Double
        package var y: Double

        package init(_ x: Double, _ y: Double) {
            self.x = x
            self.y = y
        }
    }

    package init(
        red: Chromaticity, green: Chromaticity, blue: Chromaticity, white: Chromaticity, maxLuminance: Double,
        minLuminance: Double
    ) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
        self.maxLuminance = maxLuminance
        self.minLuminance = minLuminance
    }

    /// A chromaticity coordinate in units of 0.00002, as `mdcv` and HEVC's SEI hold it.
    package static func fiftyThousandths(_ value: Double) -> UInt16 {
        UInt16(clamping: Int((value * 50_000).rounded()))
    }

    /// A luminance in units of 0.0001 nits, as `mdcv` and HEVC's SEI hold it.
    package static func tenThousandths(_ nits: Double) -> UInt32 {
        UInt32(clamping: Int64((nits * 10_000).rounded()))
    }
}

/// CTA-861.3's content light level: MaxCLL, the brightest pixel of the programme (its brightest channel),
/// and MaxFALL, the brightest picture's mean of that, in nits.
package struct ContentLightLevel: Sendable, Equatable {
    package var maxCLL: Int
    package var maxFALL: Int

    package init(maxCLL: Int, maxFALL: Int) {
        self.maxCLL = maxCLL
        self.maxFALL = maxFALL
    }
}
