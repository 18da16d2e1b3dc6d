/// The EXIF orientation of a JPEG (TIFF tag 0x0112 in IFD0 of the APP1 `Exif` segment): how the
/// stored pixels must be turned to appear upright, as browsers and image viewers apply it.
///
/// Parsing is pure Swift over the file's bytes and checks every offset: malformed, truncated or
/// hostile metadata means "no orientation", never a trap.
enum ExifOrientation {
    /// The orientation, 1...8, or `nil` when the JPEG has no valid orientation tag; only the segments
    /// before the first scan are read.
    static func read<Bytes: RandomAccessCollection>(fromJPEG bytes: Bytes) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        ExifTIFF.first(inJPEG: bytes, orientation)
    }

    /// The orientation in an APP1 segment's payload (`Exif\0\0` then a TIFF structure).
    static func fromExifSegment(_ segment: [UInt8]) -> Int? {
        ExifTIFF(segment: segment).flatMap(orientation)
    }

    /// The orientation tag of IFD0: SHORT (type 3), one value, in the first two bytes of the value field.
    private static func orientation(_ tiff: ExifTIFF) -> Int? {
        guard let ifd = tiff.firstIFD, let entry = tiff.entries(at: ifd).first(where: { $0.tag == 0x0112 }),
            entry.type == 3, entry.count == 1, let value = tiff.u16(entry.field), (1...8).contains(value)
        else { return nil }
        return value
    }
}

extension Frame {
    /// The frame turned upright for an EXIF orientation (1 = as stored, 2 = mirrored, 3 = rotated
    /// 180°, 4 = flipped, 5 = transposed, 6 = needs 90° clockwise, 7 = transversed, 8 = needs 90°
    /// counter-clockwise). Orientations 5 to 8 swap width and height.
    func oriented(_ orientation: Int) throws -> Frame {
        guard (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        return try Frame(
            width: swaps ? height : width, height: swaps ? width : height, format: format,
            pixels: PixelKernels.orient(self, orientation: orientation))
    }
}
