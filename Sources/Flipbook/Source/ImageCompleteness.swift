/// Whether an image file seen in a folder listing holds the whole image, from its last bytes: a
/// renderer may still be writing it.
enum ImageCompleteness {
    /// A PNG ends with an empty `IEND` chunk and its CRC.
    private static let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Whether the file at `path` of `size` bytes ends as its format ends: PNG with `IEND`, JPEG
    /// with its end-of-image marker, WebP where its RIFF header says. Other formats count as
    /// complete (their size and time decide).
    static func looksComplete(_ path: String, size: Int64) -> Bool {
        guard size >= 12, let head = POSIXFile.bytes(of: path, at: 0, count: 12), head.count == 12 else {
            return false
        }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return POSIXFile.bytes(of: path, at: size - 12, count: 12) == pngEnd
        }
        if head.starts(with: [0xFF, 0xD8]) {
            return POSIXFile.bytes(of: path, at: size - 2, count: 2) == [0xFF, 0xD9]
        }
        if head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) {
            let length = head[4..<8].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
            return length + 8 <= size
        }
        return true
    }
}
