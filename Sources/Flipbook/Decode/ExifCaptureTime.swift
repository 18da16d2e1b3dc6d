import Foundation

/// When a photo was taken, from its EXIF: `DateTimeOriginal` (tag 0x9003 in the Exif IFD, "YYYY:MM:DD
/// HH:MM:SS") and `SubSecTimeOriginal` (0x9291, the digits of the fraction of that second), as cameras
/// and phones write them into a JPEG's APP1 segment.
///
/// Read through ``ExifTIFF``: missing, malformed, truncated or hostile metadata means "no time", never
/// a trap.
enum ExifCaptureTime {
    /// The capture time as exact seconds from 1970-01-01 00:00:00 in the camera's own clock (no time
    /// zone: only differences between photos of one camera are meant), or `nil` when the JPEG has none.
    static func read<Bytes: RandomAccessCollection>(fromJPEG bytes: Bytes) -> MediaTime?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        ExifTIFF.first(inJPEG: bytes, captureTime)
    }

    /// The capture time of a JPEG, or of a file laid out as a TIFF (a camera raw file: DNG, NEF, ARW, CR2),
    /// from its first bytes.
    static func read(fromPhoto bytes: [UInt8]) -> MediaTime? {
        bytes.starts(with: [0xFF, 0xD8]) ? read(fromJPEG: bytes) : ExifTIFF(file: bytes).flatMap(captureTime)
    }

    /// The capture time in an EXIF TIFF structure: the Exif IFD (IFD0's tag 0x8769 points to it) and its
    /// two tags.
    static func captureTime(_ tiff: ExifTIFF) -> MediaTime? {
        guard let ifd0 = tiff.firstIFD, let pointer = tiff.entries(at: ifd0).first(where: { $0.tag == 0x8769 }),
            let exif = tiff.u32(pointer.field)
        else { return nil }
        let fields = tiff.entries(at: exif)
        guard let original = fields.first(where: { $0.tag == 0x9003 }).flatMap(tiff.ascii),
            let seconds = secondsSince1970(original)
        else { return nil }
        let fraction =
            fields.first(where: { $0.tag == 0x9291 }).flatMap(tiff.ascii)?
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
