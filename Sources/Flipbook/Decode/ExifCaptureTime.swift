import Foundation

/// When a photo was taken, from its EXIF: `DateTimeOriginal` (tag 0x9003 in the Exif IFD, "YYYY:MM:DD
/// HH:MM:SS") and `SubSecTimeOriginal` (0x9291, the digits of the fraction of that second), as cameras
/// and phones write them into a JPEG's APP1 segment.
///
/// Parsing is pure Swift over the file's bytes and checks every offset: missing, malformed, truncated
/// or hostile metadata means "no time", never a trap.
enum ExifCaptureTime {
    /// The capture time as exact seconds from 1970-01-01 00:00:00 in the camera's own clock (no time
    /// zone: only differences between photos of one camera are meant), or `nil` when the JPEG has none.
    static func read<Bytes: RandomAccessCollection>(fromJPEG bytes: Bytes) -> MediaTime?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var time: MediaTime?
        JPEGSegments.walk(bytes) { marker, payload in
            if marker == 0xE1 { time = fromExifSegment(Array(bytes[payload])) }
            return time == nil
        }
        return time
    }

    /// The capture time in an APP1 segment's payload (`Exif\0\0` then a TIFF structure).
    static func fromExifSegment(_ segment: [UInt8]) -> MediaTime? {
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
        /// The entries of the IFD at `offset`: tag, type, count and the value field's offset.
        func entries(at offset: Int) -> [(tag: Int, type: Int, count: Int, field: Int)] {
            guard let count = u16(offset), count <= 1000 else { return [] }
            return (0..<count).compactMap { entry in
                let at = offset + 2 + entry * 12
                guard let tag = u16(at), let type = u16(at + 2), let values = u32(at + 4) else { return nil }
                return (tag, type, values, at + 8)
            }
        }
        /// An ASCII value (type 2): in the field when it fits in four bytes, else at the offset it holds.
        func ascii(_ entry: (tag: Int, type: Int, count: Int, field: Int)) -> String? {
            guard entry.type == 2, entry.count > 0, entry.count <= 64 else { return nil }
            let start = entry.count <= 4 ? entry.field : (u32(entry.field) ?? -1)
            guard start >= 0, start + entry.count <= tiff.count else { return nil }
            let bytes = tiff[start..<(start + entry.count)].prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard u16(2) == 42, let ifd0 = u32(4),
            let pointer = entries(at: ifd0).first(where: { $0.tag == 0x8769 }), let exif = u32(pointer.field)
        else { return nil }
        let fields = entries(at: exif)
        guard let original = fields.first(where: { $0.tag == 0x9003 }).flatMap(ascii),
            let seconds = secondsSince1970(original)
        else { return nil }
        let fraction =
            fields.first(where: { $0.tag == 0x9291 }).flatMap(ascii)?
            .trimmingCharacters(in: .whitespaces).prefix(9) ?? ""
        guard !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit), let digits = Int64(fraction) else {
            return MediaTime(value: seconds, timescale: 1)
        }
        var scale: Int64 = 1
        for _ in 0..<fraction.count { scale *= 10 }
        return MediaTime(value: seconds * scale + digits, timescale: Int32(scale))
    }

    /// "YYYY:MM:DD HH:MM:SS" as seconds from 1970-01-01 00:00:00 (the proleptic Gregorian calendar).
    static func secondsSince1970(_ text: String) -> Int64? {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).map { Int64($0) }
        guard parts.count == 6, parts.allSatisfy({ $0 != nil }) else { return nil }
        let (year, month, day) = (parts[0]!, parts[1]!, parts[2]!)
        let (hour, minute, second) = (parts[3]!, parts[4]!, parts[5]!)
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        // Days from the civil date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }
}
