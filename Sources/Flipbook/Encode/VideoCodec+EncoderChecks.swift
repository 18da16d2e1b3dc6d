/// The checks a codec makes of how the file must come out: rate control, keyframes, B-frames, tune,
/// profile, level and the encoder's own parameters. Each failure is worded once; the command-line
/// tool shows the same sentence with its option as the subject.
extension VideoCodec {
    /// Whether the encoder takes a bit rate, a size budget and a rate limit (ProRes's rate is its profile's).
    public var takesRateControl: Bool { record.takesRateControl }
    /// The names ``VideoSettings/tune`` takes for this codec.
    public var tunes: [String] { record.tunes }
    /// The profiles ``VideoSettings/profile`` takes for this codec.
    public var profiles: [CodecProfile] { record.profiles }
    /// Whether the codec's encoder makes two passes (see ``RateControl/averageBitrate(_:passes:)``); a target
    /// size without them is reached by one-pass encodes, each corrected by the last.
    public var takesTwoPasses: Bool { record.takesTwoPasses }
    /// The B-frame counts ``VideoSettings/bFrames`` takes for this codec; `nil` when none can be chosen.
    public var bFrameRange: ClosedRange<Int>? { record.bFrameRange }
    /// The levels ``VideoSettings/level`` takes for this codec, from the lowest.
    public var levels: [CodecLevel] { LevelLimits.levels(of: self).map(\.level) }

    /// Checks a rate control and a rate limit.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "bitrate 0 b/s is out of range; use 1k to 1000M",
    ///   "prores has no rate control: its profile sets the rate".
    public func checkRateControl(_ rateControl: RateControl, limit: RateLimit?) throws {
        if rateControl != .constantQuality || limit != nil, !takesRateControl {
            throw FlipbookError(.invalidSettings, "\(name) has no rate control: its profile sets the rate")
        }
        let range = RateControl.bitrateRange
        func check(_ what: String, _ rate: Int) throws {
            guard range.contains(rate) else {
                throw FlipbookError(
                    .invalidSettings,
                    "\(what) \(Self.rate(rate)) is out of range; use \(Self.rate(range.lowerBound)) to "
                        + Self.rate(range.upperBound))
            }
        }
        switch rateControl {
        case .constantQuality: break
        case .averageBitrate(let rate, let passes):
            try check("bitrate", rate)
            guard (1...2).contains(passes) else {
                throw FlipbookError(.invalidSettings, "passes \(passes) is out of range; use 1 or 2")
            }
            if passes == 2 && !record.takesTwoPasses {
                throw FlipbookError(
                    .invalidSettings,
                    "bitrate \(Self.rate(rate)) in two passes is not available for \(name) (\(encoderName) makes no "
                        + "playable second pass here); use one pass, or a target size, which corrects one-pass encodes")
            }
        case .targetSize(let bytes):
            let smallest = RateControl.smallestTargetSize(frames: 1)
            guard bytes >= smallest else {
                throw FlipbookError(
                    .invalidSettings,
                    "target size \(bytes) bytes is too small for any movie; use at least \(smallest) bytes")
            }
        }
        if let limit {
            try check("max bitrate", limit.maxBitrate)
            guard (1000...2_000_000_000).contains(limit.bufferSize) else {
                throw FlipbookError(
                    .invalidSettings,
                    "buffer size \(Self.rate(limit.bufferSize)) bits is out of range; use 1k to 2000M")
            }
            if case .averageBitrate(let rate, _) = rateControl, rate > limit.maxBitrate {
                throw FlipbookError(
                    .invalidSettings,
                    "bitrate \(Self.rate(rate)) is above the max bitrate \(Self.rate(limit.maxBitrate)); raise the "
                        + "max bitrate or lower the bitrate")
            }
        }
    }

    /// Checks the longest keyframe interval, in frames.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "keyframe interval 0 is out of range; use 1 frame or more".
    public func checkKeyframeInterval(_ frames: Int) throws {
        guard (1...100_000).contains(frames) else {
            throw FlipbookError(
                .invalidSettings, "keyframe interval \(frames) is out of range; use 1 to 100000 frames")
        }
        if !takesRateControl && frames != 1 {
            throw FlipbookError(
                .invalidSettings,
                "keyframe interval \(frames) is not available for \(name), whose every frame is a keyframe")
        }
    }

    /// Checks a number of B-frames.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "bframes 20 is out of range for h264; use 0 to 16".
    public func checkBFrames(_ count: Int) throws {
        guard let range = bFrameRange else {
            throw FlipbookError(.invalidSettings, "bframes is not available for \(name), which has no B-frames")
        }
        guard range.contains(count) else {
            let use =
                range.count == 1
                ? "only \(range.lowerBound) (no reordering)" : "\(range.lowerBound) to \(range.upperBound)"
            throw FlipbookError(.invalidSettings, "bframes \(count) is out of range for \(name); use \(use)")
        }
    }

    /// Checks a tune name.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "tune stillimage is not available for hevc; use psnr, …".
    public func checkTune(_ tune: String) throws {
        guard !tunes.contains(tune) else { return }
        guard !tunes.isEmpty else {
            throw FlipbookError(.invalidSettings, "tune \(tune) is not available for \(name), which has no tunes")
        }
        throw FlipbookError(
            .invalidSettings,
            "tune \(tune) is not available for \(name); use \(spokenList(tunes, joinedBy: "or"))")
    }

    /// Checks that the codec writes `profile` at `bitDepth`, losslessly when `lossless`.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "profile main10 is not available for h264; use
    ///   baseline, main, high or high10", "profile high10 is 10-bit; set bit depth 10".
    public func checkProfile(_ profile: CodecProfile, bitDepth: Int, lossless: Bool = false) throws {
        guard profiles.contains(profile) else {
            let names = profiles.map(\.name)
            throw FlipbookError(
                .invalidSettings,
                "profile \(profile.name) is not available for \(name)"
                    + (names.isEmpty ? "" : "; use \(spokenList(names, joinedBy: "or"))"))
        }
        if let depth = profile.bitDepth(for: self), depth != bitDepth {
            throw FlipbookError(
                .invalidSettings, "profile \(profile.name) is \(depth)-bit, and the bit depth is \(bitDepth)")
        }
        if lossless {
            throw FlipbookError(
                .invalidSettings, "profile \(profile.name) cannot code losslessly; lossless needs High 4:4:4 Predictive"
            )
        }
    }

    /// Checks that `level` exists for the codec and holds a `width` by `height` movie at `frameRate`
    /// and, when given, `bitrate` bits a second.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "level 3.1 of h264 holds pictures of at most
    ///   921600 luma samples, and 1920x1080 has 2088960; use level 4 or higher".
    public func checkLevel(_ level: CodecLevel, width: Int, height: Int, frameRate: FrameRate, bitrate: Int?) throws {
        let all = LevelLimits.levels(of: self)
        guard !all.isEmpty else {
            throw FlipbookError(.invalidSettings, "level \(level) is not available for \(name), which has no levels")
        }
        guard let limits = all.first(where: { $0.level == level }) else {
            throw FlipbookError(
                .invalidSettings,
                "level \(level) is not a level of \(name); use \(spokenList(all.map(\.level.description), joinedBy: "or"))"
            )
        }
        guard
            let exceeded = limits.exceeded(
                width: width, height: height, frameRate: frameRate, bitrate: bitrate, codec: self)
        else { return }
        let fitting = all.first {
            $0.exceeded(width: width, height: height, frameRate: frameRate, bitrate: bitrate, codec: self) == nil
        }
        throw FlipbookError(
            .invalidSettings,
            "level \(level) of \(name) holds \(exceeded); "
                + (fitting.map { "use level \($0.level) or higher" } ?? "no level of \(name) holds it"))
    }

    /// Checks parameters with the encoder's own parser.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "x264 does not know the parameter foo".
    public func checkEncoderParameters(_ parameters: [EncoderParameter]) throws {
        guard !parameters.isEmpty else { return }
        guard let check = record.checkParameters else {
            throw FlipbookError(.invalidSettings, "encoder parameters are not available for \(name)")
        }
        try check(parameters)
    }

    /// A rate as people write it: `800k`, `2.5M`, `1200`.
    static func rate(_ bits: Int) -> String {
        if bits >= 1_000_000 && bits % 100_000 == 0 { return number(Double(bits) / 1_000_000) + "M" }
        if bits >= 1000 && bits % 100 == 0 { return number(Double(bits) / 1000) + "k" }
        return String(bits)
    }
}
