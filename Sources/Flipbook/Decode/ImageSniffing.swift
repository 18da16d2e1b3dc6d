import Foundation

/// What a file's first bytes say it is, and header facts read before any decoder runs.
///
/// Pure Swift over the file's bytes, checking every offset: hostile input gives `nil` or an
/// error, never a trap.
enum ImageSniffing {
    /// The PNG file signature.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether the file starts as a WebP image does (`RIFF`, a size, `WEBP`).
    static func isWebP(_ data: Data) -> Bool {
        data.count >= 12 && data.prefix(4).elementsEqual("RIFF".utf8)
            && data.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }

    /// Whether the file starts as a TIFF (or BigTIFF) does: a byte order mark and the magic number.
    static func isTIFF(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(4))
        return head == [0x49, 0x49, 0x2A, 0] || head == [0x4D, 0x4D, 0, 0x2A] || head == [0x49, 0x49, 0x2B, 0]
            || head == [0x4D, 0x4D, 0, 0x2B]
    }

    /// `HEIC` or `AVIF` when the file starts with an ISOBMFF `ftyp` box whose brands name a HEIF still
    /// image (the major brand, or for the generic `mif1` a compatible brand), else `nil`.
    static func heifFormat(_ data: Data) -> String? {
        let head = [UInt8](data.prefix(64))
        guard head.count >= 16, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = min(head.count, head[0..<4].reduce(0) { $0 << 8 | Int($1) })
        func brand(_ at: Int) -> String { String(decoding: head[at..<at + 4], as: UTF8.self) }
        let heic: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
        let avif: Set = ["avif", "avis"]
        let major = brand(8)
        if heic.contains(major) { return "HEIC" }
        if avif.contains(major) { return "AVIF" }
        guard major == "mif1" || major == "msf1" else { return nil }
        let compatible = stride(from: 16, to: boxSize - 3, by: 4).map(brand)
        if compatible.contains(where: avif.contains) { return "AVIF" }
        if compatible.contains(where: heic.contains) { return "HEIC" }
        return "HEIF"
    }

    /// The camera raw format a file's first bytes show: Canon CR2 (a TIFF with `CR` and version 2 after
    /// its header), and those not laid out as a TIFF: Canon CR3 (an ISO media file of brand `crx `),
    /// Fujifilm RAF, Olympus ORF, Panasonic RW2 and Canon CRW (a CIFF heap). (Raw files that are plain TIFFs, such as NEF and DNG,
    /// are told by their preview page; see ``TIFFDecoder``.)
    static func cameraRawFormat(_ data: Data) -> String? {
        let head = FileHead(data)
        if head.starts("II*\u{0}") && head.starts("CR\u{2}\u{0}", at: 8) { return "Canon CR2" }
        if head.starts("ftypcrx ", at: 4) { return "Canon CR3" }
        if head.starts("FUJIFILMCCD-RAW") { return "Fujifilm RAF" }
        if head.starts("IIRO") || head.starts("IIRS") || head.starts("MMOR") { return "Olympus ORF" }
        if head.starts("IIU\u{0}") { return "Panasonic RW2" }
        if head.starts("HEAPCCDR", at: 6) { return "Canon CRW" }
        return nil
    }

    /// Whether a file laid out as a TIFF is a camera raw file, from its first IFD (read from its first
    /// megabyte): a DNG (`DNGVersion`), a first picture that is a reduced-resolution preview (NEF, ARW,
    /// PEF), sensor data (colour filter array or linear raw), or sub-IFDs beside a camera's make.
    static func isTIFFCameraRaw(_ data: Data) -> Bool {
        guard let tiff = ExifTIFF(file: [UInt8](data.prefix(1 << 20))), let first = tiff.firstIFD else { return false }
        let entries = tiff.entries(at: first)
        let tags = Set(entries.map(\.tag))
        for entry in entries {
            switch entry.tag {
            case 50706: return true  // DNGVersion
            case 254 where (tiff.number(entry) ?? 0) & 1 != 0: return true  // NewSubfileType: reduced
            case 262 where [32803, 34892].contains(tiff.number(entry) ?? 0): return true  // CFA, LinearRaw
            default: continue
            }
        }
        return tags.contains(330) && tags.contains(271)  // SubIFDs and Make
    }

    /// The name of a well-known image or movie format Flipbook does not decode, from its signature.
    static func otherFormat(_ data: Data) -> String? {
        let head = FileHead(data)
        // A GIF file is one of Flipbook's formats; a GIF in a stream of images is not (see ImageFormat.streams).
        if head.starts("GIF87a") || head.starts("GIF89a") { return "GIF" }
        if head.starts("BM") && head.bytes.count >= 14 { return "BMP" }
        if head.starts("ftyp", at: 4) { return "MP4/QuickTime movie" }
        if head.starts("qoif") { return "QOI" }
        if head.bytes.starts(with: [0xFF, 0x0A]) || head.starts("\u{0}\u{0}\u{0}\u{0C}JXL ") { return "JPEG XL" }
        if head.starts("8BPS") { return "Photoshop" }
        if head.starts("%PDF") { return "PDF" }
        return nil
    }

    /// A PNG's width and height from its IHDR chunk, when the file is long enough to hold one.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        guard data.count >= 24 else { return nil }
        let bytes = [UInt8](data.prefix(24))
        guard bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func read32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (read32(16), read32(20))
    }

    /// How many start-of-scan markers a JPEG holds from byte `start` on (an upper bound: entropy-coded
    /// data stuffs every 0xFF, so only tables between scans could add false ones).
    static func jpegScanCount(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var count = 0
        var position = start
        while position + 1 < bytes.count {
            if bytes[position] == 0xFF && bytes[position + 1] == 0xDA { count += 1 }
            position += 1
        }
        return count
    }

    /// Where a JPEG's first start-of-scan marker is, found by stepping over the segments before it
    /// (``JPEGSegments``), and whether the file may hold more scans: a progressive frame, or a first
    /// scan without every component. A file whose first scan is sequential and holds every component
    /// is one scan: libjpeg-turbo stops at a second start of scan there. `nil` when the segments do not
    /// lead to a scan.
    static func jpegLayout(_ bytes: UnsafeRawBufferPointer) -> (firstScan: Int, manyScans: Bool)? {
        var progressive = true
        var components: Int?
        let end = JPEGSegments.walk(bytes) { marker, payload in
            // Start of frame (not DHT, JPG or DAC): its kind, and its component count after the
            // precision and the two sides.
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) && payload.count >= 6 {
                progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                components = Int(bytes[payload.lowerBound + 5])
            }
            return true
        }
        guard case .scan(let position) = end else { return nil }
        let scanComponents = position + 4 < bytes.count ? Int(bytes[position + 4]) : 0
        return (position, progressive || components.map { scanComponents < $0 } ?? true)
    }

    /// A PNG with only the chunks needed for its pixels: `IHDR`, `PLTE`, `tRNS`, `IDAT`, `IEND`,
    /// and any other critical chunk (so the decoder still rejects unknown ones).
    ///
    /// Text, ICC profiles, EXIF and other metadata are never used for the pixels, and a few hundred
    /// bytes of compressed text can inflate to gigabytes; dropping them before libspng sees the file
    /// means no metadata is inflated or stored. Chunk CRCs are left for the decoder to check. From
    /// the first chunk that does not fit in the file, the rest is passed through as it is so the
    /// decoder reports the damage.
    static func pngPixelChunks(_ data: Data) -> Data {
        let count = data.count
        func byte(_ at: Int) -> UInt8 { data[data.startIndex + at] }
        // The parts to keep, as offsets; the file is copied only when a chunk is actually dropped.
        var kept: [Range<Int>] = [0..<min(8, count)]
        var dropped = false
        var sawEnd = false
        var position = 8
        while position < count {
            guard count - position >= 12 else { break }
            let length = (0..<4).reduce(0) { $0 << 8 | Int(byte(position + $1)) }
            guard length <= count - position - 12 else { break }
            let type = (4..<8).map { byte(position + $0) }
            let isCritical = type[0] & 0x20 == 0
            let end = position + 12 + length
            if isCritical || type.elementsEqual("tRNS".utf8) {
                kept.append(position..<end)
            } else {
                dropped = true
            }
            position = end
            if type.elementsEqual("IEND".utf8) {
                sawEnd = true
                break
            }
        }
        if sawEnd {
            dropped = dropped || position < count  // anything after IEND is left out
        } else if position < count {
            kept.append(position..<count)  // from a chunk that does not fit, the rest goes as it is
        }
        guard dropped else { return data }
        var output = Data(capacity: count)
        for range in kept {
            output.append(data[data.startIndex + range.lowerBound..<data.startIndex + range.upperBound])
        }
        return output
    }

}

/// A file's first 16 bytes, where formats put their signatures.
private struct FileHead {
    let bytes: [UInt8]

    init(_ data: Data) { bytes = [UInt8](data.prefix(16)) }

    /// Whether the ASCII `signature` is there at `offset`.
    func starts(_ signature: String, at offset: Int = 0) -> Bool {
        let expected = Array(signature.utf8)
        return bytes.count >= offset + expected.count && Array(bytes[offset..<offset + expected.count]) == expected
    }
}
