extension ByteWriter {
    /// The fields every visual sample entry starts with (ISO/IEC 14496-12 §12.1.3: `SampleEntry` and
    /// `VisualSampleEntry`), the same for `avc1`, `hvc1` and `av01`.
    mutating func putVisualSampleEntryFields(width: Int, height: Int, compressorName: String) {
        putZeros(6)  // reserved
        putUInt16(1)  // data_reference_index
        putZeros(16)  // pre_defined, reserved, pre_defined[3]
        putUInt16(UInt16(clamping: width))
        putUInt16(UInt16(clamping: height))
        putUInt32(0x0048_0000)  // horizresolution 72 dpi
        putUInt32(0x0048_0000)  // vertresolution 72 dpi
        putUInt32(0)  // reserved
        putUInt16(1)  // frame_count
        putBytes(SampleDescriptionBox.compressorNameField(compressorName))
        putUInt16(0x0018)  // depth: colour, no alpha
        putInt16(-1)  // pre_defined
    }
}

/// Checks shared by the visual sample entries: a size the fields can hold and a pixel shape with no zero term.
func validateVisualSampleEntry(width: Int, height: Int, pixelAspectRatio: PixelAspectRatio) throws {
    guard (1...65535).contains(width), (1...65535).contains(height) else {
        throw ISOBMFFError(.invalidTrack, "picture size \(width)x\(height) is outside 1...65535")
    }
    guard pixelAspectRatio.hSpacing > 0, pixelAspectRatio.vSpacing > 0 else {
        throw ISOBMFFError(.invalidTrack, "pixel aspect ratio \(pixelAspectRatio) has a zero term")
    }
}
