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

    /// Writes `avc1` with its `avcC`, `colr` and `pasp`.
    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box("avc1") { w in
            w.putZeros(6)  // reserved
            w.putUInt16(1)  // data_reference_index
            w.putZeros(16)  // pre_defined, reserved, pre_defined[3]
            w.putUInt16(UInt16(clamping: width))
            w.putUInt16(UInt16(clamping: height))
            w.putUInt32(0x0048_0000)  // horizresolution 72 dpi
            w.putUInt32(0x0048_0000)  // vertresolution 72 dpi
            w.putUInt32(0)  // reserved
            w.putUInt16(1)  // frame_count
            w.putBytes(SampleDescriptionBox.compressorNameField(compressorName))
            w.putUInt16(0x0018)  // depth: colour, no alpha
            w.putInt16(-1)  // pre_defined
            AVCConfigurationBox(configuration: decoderConfiguration).write(to: &w)
            ColourInformationBox(colour: colour, isQuickTime: isQuickTime).write(to: &w)
            PixelAspectRatioBox(pixelAspectRatio).write(to: &w)
        }
    }

    /// Throws if the entry cannot be described in the file's fields.
    package func validate() throws {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw ISOBMFFError(.invalidTrack, "picture size \(width)x\(height) is outside 1...65535")
        }
        guard pixelAspectRatio.hSpacing > 0, pixelAspectRatio.vSpacing > 0 else {
            throw ISOBMFFError(.invalidTrack, "pixel aspect ratio \(pixelAspectRatio) has a zero term")
        }
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
