import MediaModel

/// A visual sample entry (ISO/IEC 14496-12 §12.1.3) for any codec: the entry type (`avc1`, `hvc1`,
/// `av01`, `apch`), picture size, the codec's configuration record as a child box (none for ProRes,
/// whose frames describe themselves), colour (`colr`), the field order (`fiel`, for QuickTime codecs
/// that state it) and pixel shape (`pasp`).
///
/// The codec is only the entry type and the ``CodecConfiguration``; what the type means (its brand,
/// ffprobe's name) is in ``VisualCodecs``. `hvc1`, not `hev1`, for HEVC: parameter sets only in the
/// sample entry, which is what QuickTime, Safari and Photos require.
package struct VideoSampleEntry: SampleEntry, Equatable {
    /// The sample entry type.
    package var format: FourCC
    /// The picture width in pixels, written in `tkhd` (as 16.16 fixed point) and in the entry.
    package var width: Int
    /// The picture height in pixels, written in `tkhd` (as 16.16 fixed point) and in the entry.
    package var height: Int
    /// The codec configuration record, written as the entry's first child; `nil` for a codec
    /// without one (ProRes).
    package var configuration: CodecConfiguration?
    /// Whether the pictures carry an alpha channel, written as the entry's depth (32 rather than 24).
    package var hasAlpha = false
    /// The QuickTime fields a codec of Apple's states (ProRes: the vendor `appl`, a `fiel` box for
    /// progressive frames); `nil` for the others.
    package var quickTimeDetails: QuickTimeVideoDetails?
    /// The colour tags, written as `colr`.
    package var colour: ColourDescription
    /// The shape of a pixel, written as `pasp`.
    package var pixelAspectRatio: PixelAspectRatio
    /// The encoder's name, written in the compressorname field (at most 31 UTF-8 bytes; longer is cut).
    package var compressorName: String

    /// Creates the sample entry.
    ///
    /// - Parameters:
    ///   - format: The sample entry type, such as `avc1`.
    ///   - width: Picture width in pixels, 1 through 65535.
    ///   - height: Picture height in pixels, 1 through 65535.
    ///   - configuration: The codec configuration record.
    ///   - colour: The colour tags; BT.709 limited range by default.
    ///   - pixelAspectRatio: The pixel shape; square by default.
    ///   - compressorName: The encoder's name.
    package init(
        format: FourCC, width: Int, height: Int, configuration: CodecConfiguration?,
        colour: ColourDescription = .bt709, pixelAspectRatio: PixelAspectRatio = .square, compressorName: String
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.configuration = configuration
        self.colour = colour
        self.pixelAspectRatio = pixelAspectRatio
        self.compressorName = compressorName
    }

    /// An H.264 entry, `avc1` with its `avcC`.
    package static func avc(
        width: Int, height: Int, decoderConfiguration: AVCDecoderConfiguration, colour: ColourDescription = .bt709,
        pixelAspectRatio: PixelAspectRatio = .square, compressorName: String = "Flipbook H.264"
    ) -> VideoSampleEntry {
        VideoSampleEntry(
            format: "avc1", width: width, height: height, configuration: decoderConfiguration.codecConfiguration,
            colour: colour, pixelAspectRatio: pixelAspectRatio, compressorName: compressorName)
    }

    /// An HEVC entry, `hvc1` with its `hvcC`.
    package static func hevc(
        width: Int, height: Int, decoderConfiguration: HEVCDecoderConfiguration, colour: ColourDescription = .bt709,
        pixelAspectRatio: PixelAspectRatio = .square, compressorName: String = "Flipbook HEVC"
    ) -> VideoSampleEntry {
        VideoSampleEntry(
            format: "hvc1", width: width, height: height, configuration: decoderConfiguration.codecConfiguration,
            colour: colour, pixelAspectRatio: pixelAspectRatio, compressorName: compressorName)
    }

    /// An AV1 entry, `av01` with its `av1C`. The samples are temporal units without temporal
    /// delimiters; every sync sample starts with a key frame and carries the sequence header again,
    /// as AV1-ISOBMFF requires.
    package static func av1(
        width: Int, height: Int, configuration: AV1CodecConfiguration, colour: ColourDescription = .bt709,
        pixelAspectRatio: PixelAspectRatio = .square, compressorName: String = "Flipbook AV1"
    ) -> VideoSampleEntry {
        VideoSampleEntry(
            format: "av01", width: width, height: height, configuration: configuration.codecConfiguration,
            colour: colour, pixelAspectRatio: pixelAspectRatio, compressorName: compressorName)
    }

    /// A VP9 entry, `vp09` with its `vpcC`. The samples are VP9 frames, each shown once: a superframe
    /// carries any hidden frame with the frame shown after it.
    package static func vp9(
        width: Int, height: Int, configuration: VPCodecConfiguration, pixelAspectRatio: PixelAspectRatio = .square,
        compressorName: String = "Flipbook VP9"
    ) -> VideoSampleEntry {
        VideoSampleEntry(
            format: "vp09", width: width, height: height, configuration: configuration.codecConfiguration,
            colour: configuration.colour, pixelAspectRatio: pixelAspectRatio, compressorName: compressorName)
    }

    package var media: MediaKind { .video(width: width, height: height) }

    /// The brand ``VisualCodecs`` gives the entry type.
    package var compatibleBrand: FourCC? { VisualCodecs.record(forEntryType: format.description)?.compatibleBrand }

    /// ffprobe's name for the codec, or the entry type for one ``VisualCodecs`` does not hold.
    package var codecName: String {
        VisualCodecs.record(forEntryType: format.description)?.probeName
            ?? format.description.trimmingCharacters(in: .whitespaces)
    }

    /// A ProRes entry (`apch`, `ap4h`, …): no configuration record, the vendor `appl`, progressive
    /// frames stated in `fiel`, depth 32 when the frames carry alpha.
    package static func proRes(
        format: FourCC, width: Int, height: Int, hasAlpha: Bool, colour: ColourDescription = .bt709,
        compressorName: String
    ) -> VideoSampleEntry {
        var entry = VideoSampleEntry(
            format: format, width: width, height: height, configuration: nil, colour: colour,
            compressorName: compressorName)
        entry.hasAlpha = hasAlpha
        entry.quickTimeDetails = .appleProgressive
        return entry
    }

    /// Writes the entry with its configuration, `colr`, HDR metadata (when stated), `fiel` (when stated) and `pasp`.
    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box(format) { w in
            w.putVisualSampleEntryFields(
                width: width, height: height, compressorName: compressorName, depth: hasAlpha ? 0x20 : 0x18,
                vendor: quickTimeDetails?.vendor, spatialQuality: quickTimeDetails?.spatialQuality ?? 0)
            configuration?.write(to: &w)
            ColourInformationBox(colour: colour, isQuickTime: isQuickTime).write(to: &w)
            HDRMetadataBoxes.write(colour, vp9: format == "vp09", to: &w)
            if let fields = quickTimeDetails?.fields { FieldHandlingBox(fields).write(to: &w) }
            PixelAspectRatioBox(pixelAspectRatio).write(to: &w)
        }
    }

    /// Throws if the entry cannot be described in the file's fields or its configuration does not hold the picture.
    package func validate() throws {
        try validateVisualSampleEntry(width: width, height: height, pixelAspectRatio: pixelAspectRatio)
        guard let configuration else { return }
        if let problem = configuration.problem { throw MuxingError.invalidTrack(problem) }
        if let limit = configuration.maximumSize, limit.width < width || limit.height < height {
            throw MuxingError.invalidTrack(
                "the \(configuration.boxType) configuration allows at most \(limit.width)x\(limit.height), "
                    + "smaller than the track's \(width)x\(height)")
        }
    }
}
