/// The TIFF structure of a JPEG's APP1 `Exif` segment, read with every offset checked: its byte order,
/// its IFDs' entries and their values. Malformed, truncated or hostile metadata reads as nothing, never a
/// trap. ``ExifOrientation`` and ``ExifCaptureTime`` read their tags through it.
struct ExifTIFF {
    /// One IFD entry: its tag, type, count and where its four-byte value field lies.
    struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        let field: Int
    }

    private let tiff: [UInt8]
    private let bigEndian: Bool

    /// The TIFF structure in an APP1 segment's payload (`Exif\0\0` then the structure); `nil` when it is
    /// none.
    init?(segment: [UInt8]) {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard segment.count >= header.count + 8, Array(segment.prefix(6)) == header else { return nil }
        self.init(file: Array(segment.dropFirst(6)))
    }

    /// The TIFF structure of a whole file (a TIFF, or a camera raw file laid out as one), read from
    /// `bytes`, its first bytes; `nil` when it is none.
    init?(file bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        tiff = bytes
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): bigEndian = true  // "MM"
        case (0x49, 0x49): bigEndian = false  // "II"
        default: return nil
        }
        guard u16(2) == 42 else { return nil }
    }

    /// A SHORT or LONG value (type 3 or 4) held in the entry's field.
    func number(_ entry: Entry) -> Int? {
        switch entry.type {
        case 3: u16(entry.field)
        case 4: u32(entry.field)
        default: nil
        }
    }

    /// An unsigned RATIONAL value (type 5), at the offset the field holds.
    func rational(_ entry: Entry) -> Double? {
        guard entry.type == 5, entry.count >= 1, let at = u32(entry.field), let numerator = u32(at),
            let denominator = u32(at + 4), denominator > 0
        else { return nil }
        return Double(numerator) / Double(denominator)
    }

    /// The first value `read` finds in the APP1 segments of a JPEG before its first scan.
    static func first<Bytes: RandomAccessCollection, Value>(inJPEG bytes: Bytes, _ read: (ExifTIFF) -> Value?)
        -> Value?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var value: Value?
        JPEGSegments.walk(bytes) { marker, payload in
            if marker == 0xE1, let tiff = ExifTIFF(segment: Array(bytes[payload])) { value = read(tiff) }
            return value == nil
        }
        return value
    }

    /// The offset of IFD0.
    var firstIFD: Int? { u32(4) }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= tiff.count else { return nil }
        return bigEndian ? Int(tiff[at]) << 8 | Int(tiff[at + 1]) : Int(tiff[at + 1]) << 8 | Int(tiff[at])
    }

    func u32(_ at: Int) -> Int? {
        guard let first = u16(at), let second = u16(at + 2) else { return nil }
        return bigEndian ? first << 16 | second : second << 16 | first
    }

    /// The entries of the IFD at `offset`, up to the first that cannot be read.
    func entries(at offset: Int) -> [Entry] {
        guard let count = u16(offset) else { return [] }
        var entries: [Entry] = []
        for entry in 0..<count {
            let at = offset + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2), let values = u32(at + 4) else { break }
            entries.append(Entry(tag: tag, type: type, count: values, field: at + 8))
        }
        return entries
    }

    /// An ASCII value (type 2) of at most 64 bytes, up to its first NUL: in the field when it fits in four
    /// bytes, else at the offset the field holds.
    func ascii(_ entry: Entry) -> String? {
        guard entry.type == 2, entry.count > 0, entry.count <= 64 else { return nil }
        let start = entry.count <= 4 ? entry.field : (u32(entry.field) ?? -1)
        guard start >= 0, start + entry.count <= tiff.count else { return nil }
        return String(decoding: tiff[start..<(start + entry.count)].prefix { $0 != 0 }, as: UTF8.self)
    }
}
