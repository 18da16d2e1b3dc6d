import MediaModel

extension ByteWriter {
    /// The fields every visual sample entry starts with (ISO/IEC 14496-12 §12.1.3: `SampleEntry` and
    /// `VisualSampleEntry`), the same for `avc1`, `hvc1` and `av01`. QuickTime reads the first
    /// reserved words as version, revision, vendor, temporal and spatial quality: Apple's codecs
    /// name `vendor` there; the others leave them zero, as ISO requires. `depth` is 24 for colour,
    /// 32 for colour with alpha.
    mutating func putVisualSampleEntryFields(
        width: Int, height: Int, compressorName: String, depth: UInt16 = 0x18, vendor: FourCC? = nil,
        spatialQuality: UInt32 = 0
    ) {
        putZeros(6)  // reserved
        putUInt16(1)  // data_reference_index
        putZeros(4)  // pre_defined, reserved (QuickTime: version, revision)
        if let vendor { putFourCC(vendor) } else { putUInt32(0) }  // pre_defined[0] (QuickTime: vendor)
        putUInt32(0)  // pre_defined[1] (QuickTime: temporal quality)
        putUInt32(spatialQuality)  // pre_defined[2] (QuickTime: spatial quality)
        putUInt16(UInt16(clamping: width))
        putUInt16(UInt16(clamping: height))
        putUInt32(0x0048_0000)  // horizresolution 72 dpi
        putUInt32(0x0048_0000)  // vertresolution 72 dpi
        putUInt32(0)  // reserved
        putUInt16(1)  // frame_count
        putBytes(SampleDescriptionBox.compressorNameField(compressorName))
        putUInt16(depth)
        putInt16(-1)  // pre_defined
    }
}

/// Checks shared by the visual sample entries: a size the fields can hold and a pixel shape with no zero term.
func validateVisualSampleEntry(width: Int, height: Int, pixelAspectRatio: PixelAspectRatio) throws {
    guard (1...65535).contains(width), (1...65535).contains(height) else {
        throw MuxingError.invalidTrack("picture size \(width)x\(height) is outside 1...65535")
    }
    guard pixelAspectRatio.hSpacing > 0, pixelAspectRatio.vSpacing > 0 else {
        throw MuxingError.invalidTrack("pixel aspect ratio \(pixelAspectRatio) has a zero term")
    }
}

/// What QuickTime states of an Apple codec's pictures beyond ISO's fields: the vendor, the spatial
/// quality and the field order (`fiel`).
package struct QuickTimeVideoDetails: Sendable, Equatable {
    /// The vendor code in the entry: `appl`.
    package var vendor: FourCC
    /// The spatial quality in the entry (0x200, `codecNormalQuality`, as Apple writes ProRes).
    package var spatialQuality: UInt32
    /// The field order written as `fiel`.
    package var fields: FieldHandling

    /// Apple's vendor code, normal quality, progressive frames: as Apple's writers describe ProRes.
    package static let appleProgressive = QuickTimeVideoDetails(
        vendor: "appl", spatialQuality: 0x200, fields: .progressive)
}
