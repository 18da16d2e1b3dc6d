/// The failures of a codec's and its encoder's checks, one wording each; the command-line tool shows the
/// same sentences as usage errors.
extension FlipbookError {
    /// `--encoder` named an encoder the codec does not have.
    static func unknownEncoder(_ encoder: String, of codec: VideoCodec, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        let names = codec.encoderNames.enumerated().map { $0.offset == 0 ? "\($0.element) (the default)" : $0.element }
        return Self(
            .invalidSettings,
            "encoder \(encoder) is not one of \(codec.name)'s encoders; use \(spokenList(names, joinedBy: "or"))",
            fileID: fileID,
            line: line)
    }

    /// A level asked of an encoder that does not mark its streams with one.
    static func levelNotMarked(_ level: CodecLevel, by codec: VideoCodec, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        let markers = spokenList(
            codec.record.encoders.filter { $0.has(.levels) }.map { "--encoder \($0.name)" }, joinedBy: "or")
        return Self(
            .invalidSettings,
            "level \(level) is not available for \(codec.name) made by \(codec.encoderName), which marks no level; "
                + "use \(markers)", fileID: fileID, line: line)
    }
}

/// The checks of what a codec's bitstream and encoder take: sizes, rates, depths, alpha, range, container.
extension FlipbookError {
    /// A CRF off the encoder's scale.
    static func crfOutOfRange(_ crf: Double, of codec: VideoCodec, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        let range = codec.crfRange
        return Self(
            .invalidSettings,
            "CRF \(VideoCodec.number(crf)) is out of range for \(codec.name); use \(VideoCodec.number(range.lowerBound)) "
                + "(best) to \(VideoCodec.number(range.upperBound)) (smallest)", fileID: fileID, line: line)
    }

    /// A picture size outside what the encoder takes.
    static func sizeOutsideEncoder(
        width: Int, height: Int, of codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "size \(width)x\(height) is outside what \(codec.name) encodes: \(codec.widthRange.lowerBound)x"
                + "\(codec.heightRange.lowerBound) to \(codec.widthRange.upperBound)x\(codec.heightRange.upperBound)",
            fileID: fileID, line: line)
    }

    /// A picture size whose sides the chroma format does not divide.
    static func sizeNotWhole(
        width: Int, height: Int, chroma: ChromaFormat, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        let (blockWidth, blockHeight) = (1 << chroma.horizontalShift, 1 << chroma.verticalShift)
        func up(_ side: Int, _ block: Int) -> Int { (side + block - 1) / block * block }
        return Self(
            .invalidSettings,
            "size \(width)x\(height) has an odd side; \(chroma) video needs even sides, such as "
                + "\(up(width, blockWidth))x\(up(height, blockHeight))", fileID: fileID, line: line)
    }

    /// A frame rate past the encoder's own limit.
    static func frameRateTooHigh(
        _ frameRate: FrameRate, most: Int, of codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "\(codec.name) (\(codec.encoderName)) takes at most \(most) frames a second, and this movie is "
                + "\(frameRate) fps", fileID: fileID, line: line)
    }

    /// A bit depth the encoder does not make.
    static func bitDepthUnavailable(_ depth: Int, of codec: VideoCodec, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            "bit depth \(depth) is not available for \(codec.name); use "
                + spokenList(codec.bitDepths.map(String.init), joinedBy: "or"), fileID: fileID, line: line)
    }

    /// An HDR colour standard asked of a movie coded at fewer than 10 bits.
    static func hdrNeedsTenBits(
        _ standard: ColourStandard, codec: VideoCodec, bitDepth: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        let tenBit = VideoCodec.allCases.filter { $0.bitDepths.contains(10) }.map(\.name)
        return Self(
            .invalidSettings,
            "--colour \(standard.rawValue) is high dynamic range, coded at 10 bits, and this \(codec.name) movie is "
                + "\(bitDepth)-bit; use \(spokenList(tenBit, joinedBy: "or")) at --bit-depth 10", fileID: fileID,
            line: line)
    }

    /// HDR metadata (a mastering display, a content light level) asked of a movie that is not HDR.
    static func hdrMetadataWithoutHDR(
        _ standard: ColourStandard, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "--mastering-display and --max-cll describe an HDR movie, and this one is --colour "
                + "\(standard.rawValue); use them with --colour pq or hlg", fileID: fileID, line: line)
    }

    /// A reference white outside 1 to 10,000 nits.
    static func peakLuminanceOutOfRange(
        _ nits: Double, range: ClosedRange<Double>, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "--peak \(nits) is not a luminance from \(Int(range.lowerBound)) to \(Int(range.upperBound)) nits",
            fileID: fileID, line: line)
    }

    /// Lossless coding asked of an encoder or depth that has none.
    static func losslessUnavailable(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        let lossless = VideoCodec.allCases.filter(\.encodesLosslessly).map(\.name)
        return Self(
            .invalidSettings, "lossless encoding is available for 8-bit \(spokenList(lossless, joinedBy: "or")) only",
            fileID: fileID, line: line)
    }

    /// A ProRes profile asked of another codec.
    static func proResProfileOfAnotherCodec(
        _ profile: ProResProfile, codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "profile \(profile.name) is for prores, not \(codec.name)", fileID: fileID, line: line)
    }

    /// Alpha asked of a codec that has none; `keepers` says who keeps it and where.
    static func alphaNotCarried(
        by codec: VideoCodec, keepers: [String], fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "alpha is kept only by \(spokenList(keepers, joinedBy: "or")); \(codec.name) has no alpha channel",
            fileID: fileID, line: line)
    }

    /// Alpha asked of a ProRes profile without it.
    static func proResProfileHasNoAlpha(_ profile: ProResProfile, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        let alphaProfiles = spokenList(ProResProfile.allCases.filter(\.carriesAlpha).map(\.name), joinedBy: "or")
        return Self(
            .invalidSettings, "profile \(profile.name) has no alpha channel; use \(alphaProfiles) to keep alpha",
            fileID: fileID, line: line)
    }

    /// Alpha at a depth the codec keeps none at.
    static func alphaBitDepth(
        _ depth: Int, kept: [Int], by codec: VideoCodec, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "alpha is kept by \(codec.name) at \(spokenList(kept.map(String.init), joinedBy: "or")) bits only, and "
                + "the bit depth is \(depth)", fileID: fileID, line: line)
    }

    /// Alpha in a container the codec keeps none in.
    static func alphaContainer(
        _ container: MovieContainer, kept: [MovieContainer], by codec: VideoCodec, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        let names = kept.map { "." + $0.fileExtensions[0] }
        return Self(
            .unsupportedOutput,
            "\(codec.name) keeps alpha only in \(spokenList(names, joinedBy: "and")) files, not "
                + "in .\(container.fileExtensions[0])", fileID: fileID, line: line)
    }

    /// Full range asked of a codec that is video range only.
    static func fullRangeUnavailable(for codec: VideoCodec, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings, "range full is not available for \(codec.name), which is video range only; use limited",
            fileID: fileID, line: line)
    }

    /// A codec in a container that does not take it.
    static func codecNotInContainer(
        _ codec: VideoCodec, _ container: MovieContainer, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        let names = codec.containers.flatMap(\.fileExtensions).map { "." + $0 }
        return Self(
            .unsupportedOutput,
            "\(codec.name) does not go in .\(container.fileExtensions[0]) files; name the output "
                + spokenList(names, joinedBy: "or"), fileID: fileID, line: line)
    }

    /// An animated image's quality off its 1-100 scale.
    static func qualityOutOfRange(_ quality: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "quality \(quality) is out of range; use 1 (smallest) to 100 (best)", fileID: fileID,
            line: line)
    }

    /// An animated image's loop count off its scale.
    static func loopCountOutOfRange(_ count: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "loop \(count) is out of range; use 0 (for ever) or a count of 1 to 65535",
            fileID: fileID, line: line)
    }
}
