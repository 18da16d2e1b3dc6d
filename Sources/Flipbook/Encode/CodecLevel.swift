/// A level of H.264, HEVC or AV1 (`3.1`, `4.0`, `5.1`): the largest picture, sample rate and bit rate
/// a decoder of that level handles. A movie written at a level stays within its limits.
public struct CodecLevel: Sendable, Hashable, CustomStringConvertible {
    /// The number before the point.
    public var major: Int
    /// The number after it.
    public var minor: Int

    /// Creates a level, such as `CodecLevel(major: 4, minor: 1)` for 4.1.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// Parses `4`, `4.0` or `4.1`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let major = Int(parts[0]), (0...9).contains(major),
            parts[0].allSatisfy(\.isNumber)
        else { return nil }
        var minor = 0
        if parts.count == 2 {
            guard parts[1].count == 1, let value = Int(parts[1]) else { return nil }
            minor = value
        }
        self.init(major: major, minor: minor)
    }

    /// `4.1`; a whole level is written `4`.
    public var description: String { minor == 0 ? "\(major)" : "\(major).\(minor)" }

    /// The number H.264 and SVT-AV1 take (`level_idc`, ten times the level: 41).
    var tenTimes: Int { major * 10 + minor }
}

/// What a level holds, for one codec: the limits of H.264 Table A-1, HEVC Table A.8 (Main tier) and
/// AV1 Annex A.3 (Main tier), in the units each counts. Each codec's record holds its table.
struct LevelLimits: Sendable {
    let level: CodecLevel
    /// Luma samples in a picture (H.264 counts 16x16 macroblocks, converted here).
    let pictureSamples: Int
    /// The widest and tallest picture in luma samples.
    let maxWidth: Int
    let maxHeight: Int
    /// Luma samples a second.
    let sampleRate: Int
    /// The highest bit rate (bits a second) of the baseline profile: H.264's Main, HEVC's Main, AV1's
    /// Main tier; ``bitrate(for:)`` scales it for H.264's High profiles.
    let bitrate: Int
    /// The largest coded picture buffer in bits (H.264's MaxCPB), when the table has one.
    var buffer: Int? = nil

    /// H.264: MaxFS (macroblocks), MaxMBPS (macroblocks a second), MaxBR and MaxCPB (1000 bits); a side
    /// is at most sqrt(8 · MaxFS) macroblocks.
    static let h264: [LevelLimits] = [
        (1, 0, 99, 1485, 64, 175), (1, 1, 396, 3000, 192, 500), (1, 2, 396, 6000, 384, 1000),
        (1, 3, 396, 11880, 768, 2000), (2, 0, 396, 11880, 2000, 2000), (2, 1, 792, 19800, 4000, 4000),
        (2, 2, 1620, 20250, 4000, 4000), (3, 0, 1620, 40500, 10000, 10000), (3, 1, 3600, 108_000, 14000, 14000),
        (3, 2, 5120, 216_000, 20000, 20000), (4, 0, 8192, 245_760, 20000, 25000), (4, 1, 8192, 245_760, 50000, 62500),
        (4, 2, 8704, 522_240, 50000, 62500), (5, 0, 22080, 589_824, 135_000, 135_000),
        (5, 1, 36864, 983_040, 240_000, 240_000), (5, 2, 36864, 2_073_600, 240_000, 240_000),
        (6, 0, 139_264, 4_177_920, 240_000, 240_000), (6, 1, 139_264, 8_355_840, 480_000, 480_000),
        (6, 2, 139_264, 16_711_680, 800_000, 800_000),
    ].map { major, minor, frame, rate, bitrate, buffer in
        let side = Int(Double(8 * frame).squareRoot()) * 16
        return LevelLimits(
            level: CodecLevel(major: major, minor: minor), pictureSamples: frame * 256, maxWidth: side,
            maxHeight: side, sampleRate: rate * 256, bitrate: bitrate * 1000, buffer: buffer * 1000)
    }

    /// HEVC, Main tier: MaxLumaPs, MaxLumaSr, MaxBR (1000 bits a second); a side is at most
    /// sqrt(8 · MaxLumaPs). x265 keeps its own stream within the level's buffer.
    static let hevc: [LevelLimits] = [
        (1, 0, 36864, 552_960, 128), (2, 0, 122_880, 3_686_400, 1500), (2, 1, 245_760, 7_372_800, 3000),
        (3, 0, 552_960, 16_588_800, 6000), (3, 1, 983_040, 33_177_600, 10000), (4, 0, 2_228_224, 66_846_720, 12000),
        (4, 1, 2_228_224, 133_693_440, 20000), (5, 0, 8_912_896, 267_386_880, 25000),
        (5, 1, 8_912_896, 534_773_760, 40000), (5, 2, 8_912_896, 1_069_547_520, 60000),
        (6, 0, 35_651_584, 1_069_547_520, 60000), (6, 1, 35_651_584, 2_139_095_040, 120_000),
        (6, 2, 35_651_584, 4_278_190_080, 240_000),
    ].map { major, minor, samples, rate, bitrate in
        let side = Int(Double(8 * samples).squareRoot())
        return LevelLimits(
            level: CodecLevel(major: major, minor: minor), pictureSamples: samples, maxWidth: side, maxHeight: side,
            sampleRate: rate, bitrate: bitrate * 1000)
    }

    /// AV1, Main tier: MaxPicSize, MaxHSize, MaxVSize, MaxDisplayRate, MainMbps (in 100 000 bits a second).
    static let av1: [LevelLimits] = [
        (2, 0, 147_456, 2048, 1152, 4_423_680, 15), (2, 1, 278_784, 2816, 1584, 8_363_520, 30),
        (3, 0, 665_856, 4352, 2448, 19_975_680, 60), (3, 1, 1_065_024, 5504, 3096, 31_950_720, 100),
        (4, 0, 2_359_296, 6144, 3456, 70_778_880, 120), (4, 1, 2_359_296, 6144, 3456, 141_557_760, 200),
        (5, 0, 8_912_896, 8192, 4352, 267_386_880, 300), (5, 1, 8_912_896, 8192, 4352, 534_773_760, 400),
        (5, 2, 8_912_896, 8192, 4352, 1_069_547_520, 600), (5, 3, 8_912_896, 8192, 4352, 1_069_547_520, 600),
        (6, 0, 35_651_584, 16384, 8704, 1_069_547_520, 600), (6, 1, 35_651_584, 16384, 8704, 2_139_095_040, 1000),
        (6, 2, 35_651_584, 16384, 8704, 4_278_190_080, 1600), (6, 3, 35_651_584, 16384, 8704, 4_278_190_080, 1600),
    ].map { major, minor, samples, width, height, rate, bitrate in
        LevelLimits(
            level: CodecLevel(major: major, minor: minor), pictureSamples: samples, maxWidth: width,
            maxHeight: height, sampleRate: rate, bitrate: bitrate * 100_000)
    }

    /// H.264's factor for the High profiles' rates and buffers (cpbBrVclFactor over Main's): 1.25 for
    /// High, 3 for High 10; 1 for every other profile and codec.
    static func rateFactor(_ profile: CodecProfile?, codec: VideoCodec) -> Double {
        guard codec == .h264 else { return 1 }
        switch profile {
        case .high?: return 1.25
        case .high10?: return 3
        default: return 1
        }
    }

    /// The first limit of this level that a `width` by `height` movie at `frameRate` (and `bitrate`
    /// bits a second, when one is set, against the level's rate times `rateFactor`) passes, in words;
    /// `nil` when the level holds it. `macroblocks` rounds the sides up to whole 16x16 blocks, as H.264 counts.
    func exceeded(
        width: Int, height: Int, frameRate: FrameRate, bitrate: Int?, rateFactor: Double, macroblocks: Bool
    ) -> String? {
        let (w, h) = macroblocks ? ((width + 15) / 16 * 16, (height + 15) / 16 * 16) : (width, height)
        if w * h > pictureSamples {
            return "pictures of at most \(pictureSamples) luma samples, and \(width)x\(height) has \(w * h)"
        }
        if w > maxWidth || h > maxHeight {
            return "pictures of at most \(maxWidth)x\(maxHeight), and this one is \(width)x\(height)"
        }
        let rate = Double(w * h) * Double(frameRate.numerator) / Double(frameRate.denominator)
        if rate > Double(sampleRate) {
            return "at most \(sampleRate) luma samples a second, and \(width)x\(height) at \(frameRate) fps needs "
                + "\(Int(rate.rounded(.up)))"
        }
        let most = Int(Double(self.bitrate) * rateFactor)
        if let bitrate, bitrate > most {
            return "at most \(most / 1000) kb/s, and the movie asks for \(bitrate / 1000) kb/s"
        }
        return nil
    }
}
