/// The checks a codec makes of settings, each failure worded once: ``VideoSettings/validate()``
/// throws these, and the command-line tool shows the same sentence with its option's name as the
/// subject (`--crf 52 is out of range for h264; …`).
extension VideoCodec {
    /// Checks that `crf` is on the codec's scale.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "CRF 52 is out of range for h264; use 0
    ///   (best) to 51 (smallest)".
    public func checkCRF(_ crf: Double) throws {
        guard crf.isFinite, crfRange.contains(crf) else {
            throw FlipbookError.crfOutOfRange(crf, of: self)
        }
    }

    /// Checks that the codec's encoder takes pictures of `width` by `height`, whole in its chroma format (even sides for 4:2:0).
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "size 8x8 is outside what hevc encodes:
    ///   16x16 to 16384x16384", or "size 7x5 has an odd side; 4:2:0 video needs even sides, such as 8x6".
    public func checkSize(width: Int, height: Int) throws {
        guard widthRange.contains(width), heightRange.contains(height) else {
            throw FlipbookError.sizeOutsideEncoder(width: width, height: height, of: self)
        }
        let chroma = chromaFormats[0]
        guard chroma.fitsWhole(width: width, height: height) else {
            throw FlipbookError.sizeNotWhole(width: width, height: height, chroma: chroma)
        }
    }

    /// Checks that the codec's encoder takes `frameRate`.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "av1 (SVT-AV1) takes at most 240 frames a
    ///   second, and this movie is 300 fps".
    public func checkFrameRate(_ frameRate: FrameRate) throws {
        guard let most = maximumFrameRate, Int64(frameRate.numerator) > Int64(most) * Int64(frameRate.denominator)
        else { return }
        throw FlipbookError.frameRateTooHigh(frameRate, most: most, of: self)
    }

    /// Checks that the codec encodes `bitDepth`-bit pictures, losslessly when `lossless`.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "bit depth 12 is not available for h264; use 8 or 10".
    public func checkBitDepth(_ bitDepth: Int, lossless: Bool = false) throws {
        guard bitDepths.contains(bitDepth) else {
            throw FlipbookError.bitDepthUnavailable(bitDepth, of: self)
        }
        if lossless && !(encodesLosslessly && bitDepth == 8) {
            throw FlipbookError.losslessUnavailable()
        }
    }

    /// Checks that the codec takes a ProRes `profile` (ProRes only) and keeps alpha when `keepingAlpha`
    /// (ProRes 4444 and 4444 XQ only).
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "profile 4444xq is for prores, not hevc",
    ///   "alpha is kept only by vp9 (in .webm or .mkv) or prores (profile 4444 or 4444xq); h264 has no
    ///   alpha channel".
    public func checkProfile(_ profile: ProResProfile?, keepingAlpha: Bool) throws {
        let alphaProfiles = spokenList(ProResProfile.allCases.filter(\.carriesAlpha).map(\.name), joinedBy: "or")
        if let profile, self != .prores {
            throw FlipbookError.proResProfileOfAnotherCodec(profile, codec: self)
        }
        guard keepingAlpha else { return }
        guard carriesAlpha else {
            // Each keeper with where it keeps alpha: ProRes in its profiles, VP9 in its containers.
            let keepers = Self.allCases.filter(\.carriesAlpha).map { codec in
                if codec.isAnimatedImage { return "." + codec.containers[0].fileExtensions[0] + " output" }
                return codec == .prores
                    ? "\(codec.name) (profile \(alphaProfiles))"
                    : codec.name
                        + (codec.record.capability(.alpha)?.containers.map {
                            " (in " + spokenList($0.map { "." + $0.fileExtensions[0] }, joinedBy: "or") + ")"
                        }
                            ?? "")
            }
            throw FlipbookError.alphaNotCarried(by: self, keepers: keepers)
        }
        if let profile, !profile.carriesAlpha {
            throw FlipbookError.proResProfileHasNoAlpha(profile)
        }
    }

    /// Checks that the codec keeps alpha at `bitDepth` and in `container` (VP9: 8-bit, in WebM and
    /// Matroska only); call it only when keeping alpha, after ``checkProfile(_:keepingAlpha:)``.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "alpha is kept by vp9 at 8 bits only, and the
    ///   bit depth is 10"; with `.unsupportedOutput`: "vp9 keeps alpha only in .webm and .mkv files, not in .mp4".
    public func checkAlpha(bitDepth: Int, in container: MovieContainer? = nil) throws {
        let scope = record.capability(.alpha)
        if let depths = scope?.bitDepths, !depths.contains(bitDepth) {
            throw FlipbookError.alphaBitDepth(bitDepth, kept: depths, by: self)
        }
        if let container, let keepers = scope?.containers, !keepers.contains(container) {
            throw FlipbookError.alphaContainer(container, kept: keepers, by: self)
        }
    }

    /// Checks that the codec carries code values of `range`.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "range full is not available for prores,
    ///   which is video range only; use limited".
    public func checkRange(_ range: ColourRange) throws {
        guard range == .full && record.capability(.fullRange) == nil else { return }
        throw FlipbookError.fullRangeUnavailable(for: self)
    }

    /// Checks that the codec goes in `container`.
    ///
    /// - Throws: ``FlipbookError`` with `.unsupportedOutput`: "prores goes in a QuickTime movie; name
    ///   the output .mov, .qt or .mkv".
    public func checkContainer(_ container: MovieContainer) throws {
        guard !containers.contains(container) else { return }
        throw FlipbookError.codecNotInContainer(self, container)
    }

    /// Checks an animated image's quality (1-100) and loop count (0 for ever, or 1-65535).
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings`: "quality 0 is out of range; use 1 (smallest)
    ///   to 100 (best)".
    public func checkAnimation(quality: Int, loopCount: Int) throws {
        guard (1...100).contains(quality) else {
            throw FlipbookError.qualityOutOfRange(quality)
        }
        guard (0...65535).contains(loopCount) else {
            throw FlipbookError.loopCountOutOfRange(loopCount)
        }
    }

    /// Where most hardware decoders stop, when a `width` by `height` picture is past it: "H.264 past
    /// 4096x2304 (level 5.2)", for advice; `nil` when the size is within it.
    public func decoderLimit(width: Int, height: Int) -> String? {
        record.isPastDecoderLimit(width, height) ? record.decoderLimit : nil
    }

    /// What to choose the codec for, in a few words: "plays everywhere".
    public var strength: String { record.strength }

    /// A CRF worth knowing on the codec's scale ("18 looks lossless"), or `nil`.
    public var crfNote: String? { encoderRecord.crfNote }

    /// What ``EncoderPreset`` names mean for the codec's encoder when they are not its own names, or `nil`.
    public var presetNote: String? { encoderRecord.presetNote }

    /// The pictures the codec's encoder takes for `bitDepth`: its first chroma format, with alpha
    /// when it carries one and `keepingAlpha`.
    func pictureFormat(bitDepth: Int, keepingAlpha: Bool) -> PictureFormat {
        if encoderRecord.has(.rgbaPictures), bitDepth == 8 { return .rgba(hasAlpha: keepingAlpha) }
        return PictureFormat(chroma: chromaFormats[0], bitDepth: bitDepth, hasAlpha: carriesAlpha && keepingAlpha)
    }

    /// A number as a person writes it: `52`, `20.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
