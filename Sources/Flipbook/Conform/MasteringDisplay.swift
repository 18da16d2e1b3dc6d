import Foundation
import MediaModel

/// The display an HDR movie was mastered on (SMPTE ST 2086): its primaries and white as CIE 1931
/// chromaticities, and its luminance range in nits. Flipbook writes it where each reader looks, in
/// each one's units: the encoder's SEI or metadata (x265, x264, SVT-AV1), `mdcv` in MP4 and MOV, `SmDm`
/// for VP9 in MP4, Matroska's `MasteringMetadata`.
public struct MasteringDisplay: Sendable, Hashable, CustomStringConvertible {
    /// Red, green, blue and white (x, y).
    public var red: (x: Double, y: Double) { (values[0], values[1]) }
    public var green: (x: Double, y: Double) { (values[2], values[3]) }
    public var blue: (x: Double, y: Double) { (values[4], values[5]) }
    public var white: (x: Double, y: Double) { (values[6], values[7]) }
    /// The peak luminance, in nits.
    public var maxLuminance: Double { values[8] }
    /// The black level, in nits.
    public var minLuminance: Double { values[9] }

    /// Red x, y, green x, y, blue x, y, white x, y, max and min luminance.
    private let values: [Double]

    /// A display of the given primaries, white and luminance range.
    public init(
        red: (x: Double, y: Double), green: (x: Double, y: Double), blue: (x: Double, y: Double),
        white: (x: Double, y: Double), maxLuminance: Double, minLuminance: Double
    ) {
        values = [red.x, red.y, green.x, green.y, blue.x, blue.y, white.x, white.y, maxLuminance, minLuminance]
    }

    /// A P3-D65 display (the usual grading monitor) from 0.0001 to 1000 nits.
    public static let p3D65 = MasteringDisplay(
        red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: (0.3127, 0.3290), maxLuminance: 1000,
        minLuminance: 0.0001)
    /// A BT.2020 display from 0.0001 to 1000 nits.
    public static let bt2020 = MasteringDisplay(
        red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: (0.3127, 0.3290), maxLuminance: 1000,
        minLuminance: 0.0001)

    /// Parses `P3-D65` or `BT2020` (1000 nits to 0.0001), either followed by `L(max,min)`, or the whole
    /// of `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)` with chromaticities as plain numbers (0.265) and
    /// luminance in nits; `nil` for anything else, or values no display has.
    public init?(parsing text: String) {
        let compact = text.replacingOccurrences(of: " ", with: "").uppercased()
        var parts: [String: [Double]] = [:]
        var rest = Substring(compact)
        for preset in [
            ("P3-D65", Self.p3D65), ("P3D65", Self.p3D65), ("BT2020", Self.bt2020), ("BT.2020", Self.bt2020),
        ]
        where rest.hasPrefix(preset.0) {
            let display = preset.1
            parts = [
                "R": [display.values[0], display.values[1]], "G": [display.values[2], display.values[3]],
                "B": [display.values[4], display.values[5]], "WP": [display.values[6], display.values[7]],
                "L": [display.values[8], display.values[9]],
            ]
            rest = rest.dropFirst(preset.0.count)
            break
        }
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")"), open < close else {
                return nil
            }
            let name = String(rest[..<open])
            let numbers = rest[rest.index(after: open)..<close].split(separator: ",").compactMap { Double($0) }
            guard ["R", "G", "B", "WP", "L"].contains(name), numbers.count == 2, numbers.allSatisfy(\.isFinite)
            else { return nil }
            parts[name] = numbers
            rest = rest[rest.index(after: close)...]
        }
        guard let r = parts["R"], let g = parts["G"], let b = parts["B"], let w = parts["WP"], let l = parts["L"],
            (r + g + b + w).allSatisfy({ $0 > 0 && $0 < 1 }), l[0] > l[1], l[1] >= 0, l[0] <= 10_000
        else { return nil }
        self.init(
            red: (r[0], r[1]), green: (g[0], g[1]), blue: (b[0], b[1]), white: (w[0], w[1]), maxLuminance: l[0],
            minLuminance: l[1])
    }

    /// `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)` in plain numbers.
    public var description: String {
        func pair(_ point: (x: Double, y: Double)) -> String { "(\(point.x),\(point.y))" }
        return "G\(pair(green))B\(pair(blue))R\(pair(red))WP\(pair(white))L(\(maxLuminance),\(minLuminance))"
    }

    /// `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)` in HEVC's units (chromaticity in 0.00002, luminance in
    /// 0.0001 nits), as x265's `master-display` takes it.
    var hevcUnits: String {
        typealias Volume = MasteringDisplayColourVolume
        func pair(_ point: (x: Double, y: Double)) -> String {
            "(\(Volume.fiftyThousandths(point.x)),\(Volume.fiftyThousandths(point.y)))"
        }
        return "G\(pair(green))B\(pair(blue))R\(pair(red))WP\(pair(white))"
            + "L(\(Volume.tenThousandths(maxLuminance)),\(Volume.tenThousandths(minLuminance)))"
    }

    /// The description the containers write.
    var volume: MasteringDisplayColourVolume {
        typealias Point = MasteringDisplayColourVolume.Chromaticity
        return MasteringDisplayColourVolume(
            red: Point(red.x, red.y), green: Point(green.x, green.y), blue: Point(blue.x, blue.y),
            white: Point(white.x, white.y), maxLuminance: maxLuminance, minLuminance: minLuminance)
    }
}

/// An HDR movie's content light level (CTA-861.3), in nits: MaxCLL, its brightest pixel's brightest
/// channel, and MaxFALL, its brightest picture's mean of that. Flipbook measures both from the pictures
/// it codes unless they are given.
public struct ContentLight: Sendable, Hashable {
    /// MaxCLL, in nits.
    public var maxCLL: Int
    /// MaxFALL, in nits.
    public var maxFALL: Int

    /// A content light level.
    public init(maxCLL: Int, maxFALL: Int) {
        self.maxCLL = maxCLL
        self.maxFALL = maxFALL
    }

    /// Parses `CLL,FALL` in nits (0 to 65,535 each, FALL no more than CLL); `nil` for anything else.
    public init?(parsing text: String) {
        let numbers = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 2, let cll = numbers[0], let fall = numbers[1], (0...65_535).contains(cll),
            (0...cll).contains(fall)
        else { return nil }
        self.init(maxCLL: cll, maxFALL: fall)
    }

    var level: ContentLightLevel { ContentLightLevel(maxCLL: maxCLL, maxFALL: maxFALL) }
}
