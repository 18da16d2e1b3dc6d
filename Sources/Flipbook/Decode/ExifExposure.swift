import Foundation

/// How much light a photo was given, from its EXIF: exposure time, f-number and ISO speed, as cameras
/// stamp JPEGs (the APP1 segment) and TIFF-laid-out raw files (IFD0 or its Exif IFD).
enum ExifExposure {
    /// The photo's exposure in stops, log2(time x ISO / 100 / f-number²): one more is twice the light;
    /// `nil` when any of the three is missing or not positive.
    static func stops(in data: Data) -> Double? {
        let bytes = [UInt8](data.prefix(1 << 20))
        if bytes.starts(with: [0xFF, 0xD8]) {
            return ExifTIFF.first(inJPEG: bytes) { stops(in: $0) }
        }
        return ExifTIFF(file: bytes).flatMap { stops(in: $0) }
    }

    /// The exposure in a TIFF structure's IFD0 and Exif IFD.
    private static func stops(in tiff: ExifTIFF) -> Double? {
        guard let first = tiff.firstIFD else { return nil }
        var entries = tiff.entries(at: first)
        if let pointer = entries.first(where: { $0.tag == 0x8769 }), let exif = tiff.number(pointer) {
            entries += tiff.entries(at: exif)
        }
        func value(_ tag: Int) -> Double? {
            entries.first { $0.tag == tag }.flatMap { tiff.rational($0) ?? tiff.number($0).map(Double.init) }
        }
        guard let time = value(0x829A), let fNumber = value(0x829D), let iso = value(0x8827), time > 0, fNumber > 0,
            iso > 0
        else { return nil }
        return log2(time * iso / 100 / (fNumber * fNumber))
    }
}
