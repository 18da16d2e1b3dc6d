import Flipbook
import Foundation

/// How the file comes out: `--bitrate`, `--two-pass`, `--target-size`, `--max-bitrate`,
/// `--buffer-size`, `--keyint`, `--bframes`, `--tune`, `--level` and `--encoder-params`, shown in
/// `--help` after `--crf`.
let rateControlOptionTable: [OptionSpec] = [
    OptionSpec(
        names: ["--bitrate"], value: "RATE",
        help: "An average video bit rate instead of a CRF, in bits a second such as 800k or 2.5M; one pass lands "
            + "within about 10%, --two-pass within about 3%."
    ) { options, text in
        options.rateControl = .averageBitrate(try bitRate(text, option: "--bitrate"), passes: 1)
        options.rateOptions.append("--bitrate")
    },
    OptionSpec(
        names: ["--two-pass"], value: nil,
        help:
            "Encode twice with --bitrate (h264, hevc): a quick first pass measures the pictures so the second spends the bits "
            + "where they count (the images are decoded twice)."
    ) { options, _ in options.twoPass = true },
    OptionSpec(
        names: ["--target-size"], value: "SIZE",
        help: "Make the whole file (pictures, sound, container) land at or just under this size, such as 8MB, "
            + "25MiB or 500k: two passes at the rate that fits, another try if one lands over; a .gif or .webp "
            + "searches its --quality instead, never over the size."
    ) { options, text in
        options.rateControl = .targetSize(bytes: try byteSize(text, option: "--target-size"))
        options.rateOptions.append("--target-size")
    },
    OptionSpec(
        names: ["--max-bitrate"], value: "RATE",
        help:
            "Cap the video's bit rate over a decoder's buffer (VBV), with --crf or --bitrate (av1: --crf only; vp9: none); "
            + "needs --buffer-size."
    ) { options, text in options.maxBitrate = try bitRate(text, option: "--max-bitrate") },
    OptionSpec(
        names: ["--buffer-size"], value: "BITS",
        help: "The decoder's buffer for --max-bitrate, in bits such as 2M (one or two seconds of the cap is usual)."
    ) { options, text in
        options.bufferSize = try require(
            scaledNumber(text, units: bitUnits).flatMap { Int(exactly: $0) },
            "--buffer-size \(text) is not a size in bits; use such as 4M (twice a 2M max bitrate).")
    },
    OptionSpec(
        names: ["--keyint"], value: "N",
        help: "The longest distance between keyframes, in frames (250) or seconds (2s) (default: the encoder's, "
            + "250 frames for h264 and hevc, 128 for vp9; fragments also cut at keyframes)."
    ) { options, text in
        if text.hasSuffix("s"), let time = MediaTime(parsingSeconds: String(text.dropLast())), time.value > 0 {
            options.keyframeInterval = .duration(time)
        } else {
            options.keyframeInterval = .frames(
                try require(
                    Int(text).flatMap { $0 > 0 ? $0 : nil },
                    "--keyint \(text) is not an interval; use frames such as 250, or seconds such as 2s."))
        }
    },
    OptionSpec(
        names: ["--bframes"], value: "N",
        help: "B-frames between reference frames; 0 turns reordering off (decode order is display order) "
            + "(default: the preset's; av1 takes only 0, its low-delay structure)."
    ) { options, text in
        options.bFrames = try require(
            Int(text).flatMap { $0 >= 0 ? $0 : nil }, "--bframes \(text) is not a count; use 0 to 16.")
    },
    OptionSpec(
        names: ["--tune"], value: "NAME",
        help: "Tune the encoder for a kind of picture: "
            + VideoCodec.allCases.filter { !$0.tunes.isEmpty }.map {
                "\($0.name) \($0.tunes.joined(separator: ", "))"
            }
            .joined(separator: "; ") + " (default none)."
    ) { options, text in options.tune = text.lowercased() },
    OptionSpec(
        names: ["--level"], value: "N",
        help: "The level the stream is marked with and kept within, such as 3.1, 4 or 5.1; a size, frame rate or "
            + "bit rate it cannot hold is an error naming the limit (default: the encoder's)."
    ) { options, text in
        options.level = try require(
            CodecLevel(parsing: text), "--level \(text) is not a level; use a number such as 3.1, 4 or 5.1.")
    },
    OptionSpec(
        names: ["--encoder-params"], value: "K=V:K=V",
        help: "Options for the encoder's own parser (x264, x265 or SVT-AV1 names), such as aq-mode=3:psy-rd=1.0; "
            + "they override Flipbook's (default none)."
    ) { options, text in
        options.encoderParameters += try require(
            EncoderParameter.list(parsing: text),
            "--encoder-params \(text) is not a list of key=value pairs; use such as aq-mode=3:deblock=-1,-1.")
    },
]

/// The units of a rate or a buffer in bits: powers of 1000.
let bitUnits: [String: Double] = ["": 1, "k": 1000, "m": 1_000_000, "g": 1_000_000_000]

/// A rate or a buffer in bits: a number with an optional k, M or G (powers of 1000): `800k`, `2.5M`.
func bitRate(_ text: String, option: String) throws -> Int {
    try require(
        scaledNumber(text, units: bitUnits).flatMap { Int(exactly: $0) },
        "\(option) \(text) is not a rate; use bits a second such as 800k, 2.5M or 1500000.")
}

/// A size in bytes: a number with an optional unit, k/KB, M/MB and G/GB in powers of 1000, KiB, MiB and GiB in
/// powers of 1024: `8MB`, `25MiB`, `500k`.
func byteSize(_ text: String, option: String) throws -> Int64 {
    let units: [String: Double] = [
        "": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "kib": 1024,
        "mib": 1_048_576, "gib": 1_073_741_824,
    ]
    return try require(
        scaledNumber(text, units: units).flatMap { Int64(exactly: $0) },
        "\(option) \(text) is not a size; use bytes such as 8MB, 25MiB or 500k.")
}

/// A non-negative number followed by one of `units` (case-insensitive), times the unit, rounded to
/// a whole number; `nil` when it is none.
func scaledNumber(_ text: String, units: [String: Double]) -> Double? {
    let lowered = text.lowercased()
    guard let split = lowered.firstIndex(where: { !($0.isNumber || $0 == ".") }) ?? Optional(lowered.endIndex),
        let value = Double(lowered[..<split]), value.isFinite, value >= 0, let unit = units[String(lowered[split...])],
        value * unit < 1e15
    else { return nil }
    return (value * unit).rounded()
}

extension CommandLineOptions {
    /// The ProRes profile `--profile` names, if it names one.
    var proResProfile: ProResProfile? { profileName.flatMap { ProResProfile(name: $0) } }
    /// The H.264, HEVC or AV1 profile `--profile` names, if it names one.
    var codecProfile: CodecProfile? { profileName.flatMap { CodecProfile(rawValue: $0) } }
    /// The movie's bit depth: `--bit-depth`, or the profile's, or the codec's default for the colour standard.
    var effectiveBitDepth: Int {
        bitDepth ?? codecProfile?.bitDepth(for: codec) ?? codec.defaultBitDepth(for: colourStandard)
    }

    /// The rate control the options ask for: `--two-pass` makes `--bitrate` two passes.
    var resolvedRateControl: RateControl {
        if twoPass, case .averageBitrate(let rate, _) = rateControl { return .averageBitrate(rate, passes: 2) }
        return rateControl
    }

    /// Checks `--bitrate`, `--two-pass`, `--target-size`, `--max-bitrate` and `--buffer-size`.
    func validateRateControl() throws {
        let chosen = (crf != nil ? ["--crf"] : []) + rateOptions
        if chosen.count > 1 {
            throw UsageError(description: "\(chosen[0]) and \(chosen[1]) cannot be used together; pick one.")
        }
        if twoPass && rateControl.averageRate == nil {
            throw UsageError(
                description: "--two-pass needs --bitrate RATE (--target-size makes two passes by itself).")
        }
        if (maxBitrate == nil) != (bufferSize == nil) {
            throw UsageError(
                description: maxBitrate == nil
                    ? "--buffer-size goes with --max-bitrate; add --max-bitrate RATE."
                    : "--max-bitrate needs --buffer-size SIZE, such as twice the rate.")
        }
        if resolvedRateControl.passes == 2 {
            let how = twoPass ? "--two-pass" : "--target-size"
            if follow || inputs == ["-"] {
                throw UsageError(
                    description: "\(how) encodes the images twice, so it needs image files, not "
                        + (follow
                            ? "--follow" : "\(standardInput == .images ? "images" : "raw frames") on standard input")
                        + ".")
            }
            if case .targetSize = rateControl, segment != nil {
                throw UsageError(
                    description: "--target-size is for a whole movie; give each --segment the same --bitrate instead.")
            }
        }
        let limit = maxBitrate.map { RateLimit(maxBitrate: $0, bufferSize: bufferSize ?? 0) }
        let (subject, option) =
            rateControl.averageRate == nil ? ("target size", "--target-size") : ("bitrate", "--bitrate")
        try UsageError.rephrasing(subject, as: option) {
            try codec.checkRateControl(resolvedRateControl, limit: nil)
        }
        if let limit {
            try UsageError.rephrasing("max bitrate", as: "--max-bitrate") {
                try codec.checkRateControl(.constantQuality, limit: limit)
            }
            try UsageError.rephrasing("bitrate", as: "--bitrate") {
                try codec.checkRateControl(resolvedRateControl, limit: limit)
            }
        }
    }

    /// Checks `--keyint`, `--bframes`, `--tune`, `--level` and `--encoder-params` against the codec.
    func validateEncoderChoices() throws {
        if let keyframeInterval {
            try UsageError.rephrasing("keyframe interval", as: "--keyint") {
                try codec.checkKeyframeInterval(keyframeInterval.frames(at: frameRate))
            }
        }
        if let bFrames {
            try UsageError.rephrasing("bframes", as: "--bframes") { try codec.checkBFrames(bFrames) }
        }
        if let tune {
            try UsageError.rephrasing("tune", as: "--tune") { try codec.checkTune(tune) }
        }
        if let level {
            try UsageError.rephrasing("level", as: "--level") {
                // The size is --size, or --raw-size rounded up; from image files it is the first image's,
                // which the movie's own check covers once it is known.
                let size = self.size ?? rawSize?.roundedUpToEven ?? FrameSize(width: 2, height: 2)
                let profile = codecProfile ?? codec.defaultProfile(bitDepth: effectiveBitDepth)
                try codec.checkLevel(
                    level, width: size.width, height: size.height, frameRate: levelFrameRate,
                    bitrate: maxBitrate ?? resolvedRateControl.averageRate, profile: profile)
            }
        }
        try UsageError.rephrasing("", as: "--encoder-params") { try codec.checkEncoderParameters(encoderParameters) }
        // What depends on more than one option: the library's own check of them together.
        var settings = videoSettings
        if let size = size ?? rawSize?.roundedUpToEven { settings.size = size }
        settings.frameRate = levelFrameRate
        let subjects = [
            ("bframes", "--bframes"), ("max bitrate", "--max-bitrate"), ("profile", "--profile"), ("level", "--level"),
            ("bitrate", "--bitrate"), ("target size", "--target-size"),
        ]
        do {
            try settings.validateEncoderChoices()
        } catch let error as FlipbookError {
            let (subject, option) =
                subjects.first { error.message.hasPrefix($0.0 + " ") } ?? ("", "--codec \(codec.name)")
            try UsageError.rephrasing(subject, as: option) { throw error }
        }
    }

    /// The frames a second a level must hold: one image each `--duration` in a slideshow, else `--fps`.
    private var levelFrameRate: FrameRate {
        guard let imageDuration, !repeatFrames, imageDuration.value > 0 else { return frameRate }
        let duration = imageDuration.reduced
        return FrameRate(Int(duration.timescale), Int(duration.value))
    }
}
