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
        var orientation: Int?
        JPEGSegments.walk(bytes) { marker, payload in
            if marker == 0xE1 { orientation = fromExifSegment(Array(bytes[payload])) }
            return orientation == nil
        }
        return orientation
    }

    /// The orientation in an APP1 segment's payload (`Exif\0\0` then a TIFF structure).
    static func fromExifSegment(_ segment: [UInt8]) -> Int? {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard segment.count >= header.count + 8, Array(segment.prefix(6)) == header else { return nil }
        let tiff = Array(segment.dropFirst(6))
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): bigEndian = true  // "MM"
        case (0x49, 0x49): bigEndian = false  // "II"
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return bigEndian ? Int(tiff[at]) << 8 | Int(tiff[at + 1]) : Int(tiff[at + 1]) << 8 | Int(tiff[at])
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return bigEndian ? first << 16 | second : second << 16 | first
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2), let values = u32(at + 4) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (type 3), one value, stored in the first two bytes of the value field.
            guard type == 3, values == 1, let value = u16(at + 8), (1...8).contains(value) else { return nil }
            return value
        }
        return nil
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
