/// The checks a codec makes of how the file must come out: rate control, keyframes, B-frames, tune,
/// profile, level and the encoder's own parameters. Each failure is worded once; the command-line
/// tool shows the same sentence with its option as the subject.
extension VideoCodec {
    /// Whether the encoder takes a bit rate, a size budget and a rate limit (ProRes's rate is its profile's).
    public var takesRateControl: Bool { encoderRecord.has(.rateControl) }
    /// The names ``VideoSettings/tune`` takes for this codec.
    public var tunes: [String] { encoderRecord.tunes }
    /// The profiles ``VideoSettings/profile`` takes for this codec.
    public var profiles: [CodecProfile] { record.profiles }
    /// The highest bit rate the codec's encoder takes, in bits a second.
    public var highestBitrate: Int { encoderRecord.highestBitrate }
    /// Whether the codec's encoder makes two passes (see ``RateControl/averageBitrate(_:passes:)``); a target
    /// size without them is reached by one-pass encodes, each corrected by the last.
    public var takesTwoPasses: Bool { encoderRecord.has(.twoPasses) }
    /// The B-frame counts ``VideoSettings/bFrames`` takes for this codec; `nil` when none can be chosen.
    public var bFrameRange: ClosedRange<Int>? { encoderRecord.bFrameRange }
    /// The levels ``VideoSettings/level`` takes for this codec, from the lowest.
    public var levels: [CodecLevel] { record.levels.map(\.level) }

    /// The profile a stream of `bitDepth` is written in when none is asked for: H.264 High or High 10,
    /// HEVC Main or Main 10, AV1 Main; `nil` for ProRes, whose profiles are ``ProResProfile``.
    public func defaultProfile(bitDepth: Int) -> CodecProfile? {
        switch self {
        case .h264: bitDepth == 10 ? .high10 : .high
        case .hevc: bitDepth == 10 ? .main10 : .main
        case .av1: .main
        default: nil
        }
    }

    /// Checks a rate control and a rate limit.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "bitrate 0 b/s is out of range; use 1k to 1000M",
    ///   "prores has no rate control: its profile sets the rate", "max bitrate 2M is not available for vp9 …".
    public func checkRateControl(_ rateControl: RateControl, limit: RateLimit?) throws {
        // An animated image reaches a target size by its quality; it has no rate to set.
        var sizeByQuality = false
        if case .targetSize = rateControl, limit == nil, isAnimatedImage { sizeByQuality = true }
        if rateControl != .constantQuality || limit != nil, !takesRateControl, !sizeByQuality {
            throw FlipbookError.noRateControl(for: self)
        }
        let range = RateControl.bitrateRange.lowerBound...highestBitrate
        func check(_ what: String, _ rate: Int) throws {
            guard range.contains(rate) else {
                throw FlipbookError.rateOutOfRange(what, rate, range: range, of: self)
            }
        }
        switch rateControl {
        case .constantQuality: break
        case .averageBitrate(let rate, let passes):
            try check("bitrate", rate)
            guard (1...2).contains(passes) else {
                throw FlipbookError.passesOutOfRange(passes)
            }
            if passes == 2 && !takesTwoPasses {
                throw FlipbookError.twoPassesUnavailable(rate: rate, for: self)
            }
        case .targetSize(let bytes):
            let smallest = RateControl.smallestTargetSize(frames: 1)
            guard bytes >= smallest else {
                throw FlipbookError.targetSizeTooSmall(bytes, smallest: smallest)
            }
        }
        if let limit {
            guard encoderRecord.has(.rateLimit) else {
                throw FlipbookError.rateLimitUnavailable(limit, for: self)
            }
            try check("max bitrate", limit.maxBitrate)
            if rateControl != .constantQuality && encoderRecord.has(.capsConstantQualityOnly) {
                throw FlipbookError.rateLimitNeedsConstantQuality(limit, for: self)
            }
            guard (1000...2_000_000_000).contains(limit.bufferSize) else {
                throw FlipbookError.bufferSizeOutOfRange(limit.bufferSize)
            }
            if case .averageBitrate(let rate, _) = rateControl, rate > limit.maxBitrate {
                throw FlipbookError.bitrateAboveLimit(rate, limit: limit.maxBitrate)
            }
        }
    }

    /// Checks the longest keyframe interval, in frames.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "keyframe interval 0 is out of range; use 1 frame or more".
    public func checkKeyframeInterval(_ frames: Int) throws {
        let shortest = encoderRecord.shortestKeyframeInterval
        guard (shortest...100_000).contains(frames) else {
            throw FlipbookError.keyframeIntervalOutOfRange(frames, shortest: shortest, of: self)
        }
        if !takesRateControl && frames != 1 {
            throw FlipbookError.keyframeIntervalUnavailable(frames, for: self)
        }
    }

    /// Checks a number of B-frames.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "bframes 20 is out of range for h264; use 0 to 16".
    public func checkBFrames(_ count: Int) throws {
        guard let range = bFrameRange else {
            throw FlipbookError.bFramesUnavailable(for: self)
        }
        guard range.contains(count) else {
            throw FlipbookError.bFramesOutOfRange(count, range: range, of: self)
        }
    }

    /// Checks a tune name.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "tune stillimage is not available for hevc; use psnr, …".
    public func checkTune(_ tune: String) throws {
        guard !tunes.contains(tune) else { return }
        throw FlipbookError.tuneUnavailable(tune, for: self)
    }

    /// Checks that the codec writes `profile` at `bitDepth`, losslessly when `lossless`.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "profile main10 is not available for h264; use
    ///   baseline, main, high or high10", "profile high10 is 10-bit; set bit depth 10".
    public func checkProfile(_ profile: CodecProfile, bitDepth: Int, lossless: Bool = false) throws {
        guard profiles.contains(profile) else {
            throw FlipbookError.profileUnavailable(profile, for: self)
        }
        if let depth = profile.bitDepth(for: self), depth != bitDepth {
            throw FlipbookError.profileBitDepth(profile, depth: depth, bitDepth: bitDepth)
        }
        if lossless {
            throw FlipbookError.profileNotLossless(profile)
        }
    }

    /// Checks that `level` exists for the codec and holds a `width` by `height` movie at `frameRate`
    /// and, when given, `bitrate` bits a second, in `profile` (H.264's High profiles may go faster).
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "level 3.1 of h264 holds pictures of at most
    ///   921600 luma samples, and 1920x1080 has 2088960; use level 4 or higher".
    public func checkLevel(
        _ level: CodecLevel, width: Int, height: Int, frameRate: FrameRate, bitrate: Int?, profile: CodecProfile? = nil
    ) throws {
        let all = record.levels
        guard !all.isEmpty else {
            throw FlipbookError.levelsUnavailable(level, for: self)
        }
        guard encoderRecord.has(.levels) else { throw FlipbookError.levelNotMarked(level, by: self) }
        guard let limits = all.first(where: { $0.level == level }) else {
            throw FlipbookError.levelUnknown(level, of: self, levels: all.map(\.level))
        }
        let factor = LevelLimits.rateFactor(profile, codec: self)
        func limitPassed(_ limits: LevelLimits) -> String? {
            limits.exceeded(
                width: width, height: height, frameRate: frameRate, bitrate: bitrate, rateFactor: factor,
                macroblocks: record.levelsCountMacroblocks)
        }
        guard let passed = limitPassed(limits) else { return }
        let fitting = all.first { limitPassed($0) == nil }
        throw FlipbookError.levelTooLow(level, of: self, passed: passed, fitting: fitting?.level)
    }

    /// The highest bit rate and buffer (bits) `level` allows in `profile`, for a stream kept within it;
    /// `nil` for a level the codec does not have.
    func levelRate(_ level: CodecLevel, profile: CodecProfile?) -> (bitrate: Int, buffer: Int?)? {
        guard let limits = record.levels.first(where: { $0.level == level }) else { return nil }
        let factor = LevelLimits.rateFactor(profile, codec: self)
        return (Int(Double(limits.bitrate) * factor), limits.buffer.map { Int(Double($0) * factor) })
    }

    /// Checks parameters with the encoder's own parser.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "x264 does not know the parameter foo".
    public func checkEncoderParameters(_ parameters: [EncoderParameter]) throws {
        guard !parameters.isEmpty else { return }
        guard let check = encoderRecord.checkParameters else {
            throw FlipbookError.parametersUnavailable(for: self)
        }
        for parameter in parameters {
            if let instead = Self.parametersFlipbookSets[parameter.key.lowercased()] {
                throw FlipbookError.parameterFlipbookSets(parameter.key, instead: instead)
            }
        }
        try check(parameters)
    }

    /// The encoders' parameters that Flipbook sets itself, because the file depends on them or an
    /// option of its own says them, and what to do instead.
    static let parametersFlipbookSets: [String: String] = {
        var table: [String: String] = [:]
        let options: [(String, [String])] = [
            ("use --bitrate", ["bitrate", "b", "tbr"]), ("use --crf", ["crf", "qp", "q"]),
            ("use --two-pass", ["pass", "passes", "stats", "slow-firstpass"]),
            ("use --max-bitrate", ["vbv-maxrate", "vbv-max-bitrate", "mbr"]),
            ("use --buffer-size", ["vbv-bufsize", "vbv-buffer-size"]),
            ("use --keyint", ["keyint", "min-keyint", "keyint-min", "intra-period-length", "irefresh-type"]),
            ("use --bframes", ["bframes", "b-pyramid", "pred-struct"]), ("use --profile", ["profile"]),
            ("use --level", ["level", "level-idc"]), ("use --preset", ["preset"]), ("use --tune", ["tune"]),
            ("use --fps", ["fps", "input-rate"]), ("use --bit-depth", ["input-depth", "output-depth"]),
            ("use --threads", ["threads", "pools", "frame-threads", "lp"]),
            (
                "Flipbook writes the stream for MP4 (length-prefixed, headers apart, closed GOPs)",
                ["annexb", "repeat-headers", "open-gop", "input-csp", "input-res", "csp"]
            ),
        ]
        for (instead, keys) in options { for key in keys { table[key] = instead } }
        return table
    }()

    /// A rate as people write it: `800k`, `2.5M`, `1200`.
    static func rate(_ bits: Int) -> String {
        if bits >= 1_000_000 && bits % 100_000 == 0 { return number(Double(bits) / 1_000_000) + "M" }
        if bits >= 1000 && bits % 100 == 0 { return number(Double(bits) / 1000) + "k" }
        return String(bits)
    }
}
