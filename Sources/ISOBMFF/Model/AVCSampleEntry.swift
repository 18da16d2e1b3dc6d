/// The H.264 visual sample entry (`avc1`, ISO/IEC 14496-15 §5.4.2): picture size, parameter sets
/// (`avcC`), colour (`colr`) and pixel shape (`pasp`).
package struct AVCSampleEntry: SampleEntry, Equatable {
    /// The picture width in pixels, written in `tkhd` (as 16.16 fixed point) and in `avc1`.
    package var width: Int
    /// The picture height in pixels, written in `tkhd` (as 16.16 fixed point) and in `avc1`.
    package var height: Int
    /// The H.264 parameter sets and format, written as `avcC`.
    package var decoderConfiguration: AVCDecoderConfiguration
    /// The colour tags, written as `colr`.
    package var colour: ColourDescription
    /// The shape of a pixel, written as `pasp`.
    package var pixelAspectRatio: PixelAspectRatio
    /// The encoder's name, written in the `avc1` compressorname field (at most 31 UTF-8 bytes; longer is cut).
    package var compressorName: String

    /// Creates the sample entry.
    ///
    /// - Parameters:
    ///   - width: Picture width in pixels, 1 through 65535.
    ///   - height: Picture height in pixels, 1 through 65535.
    ///   - decoderConfiguration: The H.264 parameter sets.
    ///   - colour: The colour tags; BT.709 limited range by default.
    ///   - pixelAspectRatio: The pixel shape; square by default.
    ///   - compressorName: The encoder's name.
    package init(
        width: Int, height: Int, decoderConfiguration: AVCDecoderConfiguration,
        colour: ColourDescription = .bt709, pixelAspectRatio: PixelAspectRatio = .square,
        compressorName: String = "Flipbook H.264"
    ) {
        self.width = width
        self.height = height
        self.decoderConfiguration = decoderConfiguration
        self.colour = colour
        self.pixelAspectRatio = pixelAspectRatio
        self.compressorName = compressorName
    }

    package var media: MediaKind { .video(width: width, height: height) }

    package var compatibleBrand: FourCC? { "avc1" }

    /// Writes `avc1` with its `avcC`, `colr` and `pasp`.
    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box("avc1") { w in
            w.putVisualSampleEntryFields(width: width, height: height, compressorName: compressorName)
            AVCConfigurationBox(configuration: decoderConfiguration).write(to: &w)
            ColourInformationBox(colour: colour, isQuickTime: isQuickTime).write(to: &w)
            PixelAspectRatioBox(pixelAspectRatio).write(to: &w)
        }
    }

    /// Throws if the entry cannot be described in the file's fields.
    package func validate() throws {
        try validateVisualSampleEntry(width: width, height: height, pixelAspectRatio: pixelAspectRatio)
        try decoderConfiguration.validate()
    }
}

/// The shape of a pixel: horizontal spacing to vertical spacing, as in the `pasp` box.
package struct PixelAspectRatio: Sendable, Equatable, CustomStringConvertible {
    /// The relative width of a pixel.
    package var hSpacing: UInt32
    /// The relative height of a pixel.
    package var vSpacing: UInt32

    /// Square pixels, 1:1.
    package static let square = PixelAspectRatio(hSpacing: 1, vSpacing: 1)

    /// Creates a pixel aspect ratio.
    ///
    /// - Parameters:
    ///   - hSpacing: The relative width of a pixel.
    ///   - vSpacing: The relative height of a pixel.
    package init(hSpacing: UInt32, vSpacing: UInt32) {
        self.hSpacing = hSpacing
        self.vSpacing = vSpacing
    }

    package var description: String { "\(hSpacing):\(vSpacing)" }
}
