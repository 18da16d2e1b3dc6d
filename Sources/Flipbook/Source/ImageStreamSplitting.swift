import Foundation

/// Where each whole image file ends in a stream of them sent back to back (`cat *.png | flipbook -`),
/// found from the format's own structure, never by searching for a signature: PNG's chunks up to
/// `IEND`; JPEG's marker segments stepped over by their lengths (an EXIF thumbnail's own end marker
/// inside APP1 is skipped) and each scan's entropy-coded data to the next marker, up to the end of
/// image, and past it to the end of the last picture a multi-picture (MPF) index names; WebP's RIFF
/// size; HEIC and AVIF's top-level ISO-BMFF boxes until the next bytes are not a box of this file
/// (a new `ftyp`, another format's signature, the end of the stream).
///
/// TIFF is recognised and refused: it has no end of its own, only offsets that may point anywhere.
///
/// Pure Swift over the bytes at hand, I/O-free and resumable: a walk that runs out of bytes says
/// where to resume and how many bytes it needs at least, so a reader fills its buffer and calls again
/// without reading any byte twice. Every offset is checked: hostile bytes give `.malformed`, never a trap.
enum ImageStreamSplitting {
    /// The formats whose end can be found.
    enum Kind: String, Sendable {
        case png = "PNG"
        case jpeg = "JPEG"
        case webp = "WebP"
        case heif = "HEIC or AVIF"
    }

    /// How far a walk through one image has come: where to resume it.
    struct Progress: Sendable, Equatable {
        let kind: Kind
        /// The offset, from the image's first byte, of the next chunk, segment or box (or, in a JPEG
        /// scan, of the next entropy-coded byte to look at).
        var position: Int
        /// JPEG: inside a scan's entropy-coded data.
        var inScan = false
        /// JPEG: where the last picture a multi-picture index names ends (0 when none).
        var picturesEnd = 0
    }

    /// What the bytes at the start of the stream are.
    enum Start: Equatable {
        /// An image of a kind whose end can be found; walk it with ``advance(_:in:atEnd:)``.
        case image(Progress)
        /// Too few bytes to tell; read more.
        case needsMore
        /// A TIFF, whose end cannot be found.
        case tiff
        /// The beginning of an image's signature, and then the stream ends.
        case cutShort
        /// Not the start of an image Flipbook reads here; the name of a well-known format when it is one.
        case notAnImage(String?)
    }

    /// One step of a walk through an image.
    enum Step: Equatable {
        /// The image is whole and is this many bytes long.
        case image(length: Int)
        /// The bytes so far are a sound beginning; resume with `progress` once there are at least
        /// `atLeast` bytes (or the stream has ended: the image is then cut short).
        case needsMore(Progress, atLeast: Int)
        /// The image's structure is broken at this offset, so its end cannot be found.
        case malformed(at: Int, String)
    }

    /// Bytes a signature check looks at: enough for HEIF's `ftyp` and its first brands.
    static let signatureBytes = 16

    /// What `bytes` start with. `atEnd` says the stream holds nothing after them.
    static func start(of bytes: UnsafeRawBufferPointer, atEnd: Bool) -> Start {
        let head = Array(bytes.prefix(signatureBytes))
        if head.starts(with: ImageSniffing.pngSignature) { return .image(Progress(kind: .png, position: 8)) }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .image(Progress(kind: .jpeg, position: 2)) }
        if head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && head[8..<12].elementsEqual("WEBP".utf8) {
            return .image(Progress(kind: .webp, position: 0))
        }
        if head.count >= 4 && ImageSniffing.isTIFF(Data(head)) { return .tiff }
        if head.count >= 12 && head[4..<8].elementsEqual("ftyp".utf8) {
            if head.count == signatureBytes || atEnd, ImageSniffing.heifFormat(Data(bytes.prefix(64))) != nil {
                return .image(Progress(kind: .heif, position: 0))
            }
        }
        guard atEnd || head.count >= signatureBytes else { return .needsMore }
        if head.isEmpty { return .notAnImage(nil) }
        let signatures: [[UInt8]] = [
            ImageSniffing.pngSignature, [0xFF, 0xD8, 0xFF], Array("RIFF".utf8), [0x49, 0x49, 0x2A, 0],
            [0x4D, 0x4D, 0, 0x2A],
        ]
        if head.count < signatureBytes,
            signatures.contains(where: { $0.starts(with: head.prefix($0.count)) })
                || (head.count >= 8 && head[4..<8].elementsEqual("ftyp".utf8))
        {
            return .cutShort
        }
        return .notAnImage(ImageSniffing.otherFormat(Data(head)))
    }

    /// Walks the image at the start of `bytes` from `progress` as far as the bytes go.
    static func advance(_ progress: Progress, in bytes: UnsafeRawBufferPointer, atEnd: Bool) -> Step {
        switch progress.kind {
        case .png: return advancePNG(progress, bytes)
        case .jpeg: return advanceJPEG(progress, bytes)
        case .webp: return advanceWebP(bytes)
        case .heif: return advanceHEIF(progress, bytes, atEnd: atEnd)
        }
    }

    /// Why `bytes`, all there is of one image, are not a whole image of their format, or `nil` when
    /// they are (or are not an image whose end can be found: the decoder then says what is wrong).
    static func cutShort(_ bytes: UnsafeRawBufferPointer) -> String? {
        let progress: Progress
        switch start(of: bytes, atEnd: true) {
        case .image(let start): progress = start
        case .cutShort:
            return "the image is cut short: \(bytes.count) bytes, the beginning of a signature and nothing more"
        case .needsMore, .tiff, .notAnImage: return nil
        }
        guard case .needsMore(_, let atLeast) = advance(progress, in: bytes, atEnd: true) else { return nil }
        return "the image is cut short: \(bytes.count) bytes of a \(progress.kind.rawValue) whose structure needs at "
            + "least \(atLeast)"
    }

    // MARK: - The formats

    /// PNG: length, type and CRC around each chunk's data, up to and including `IEND`.
    private static func advancePNG(_ progress: Progress, _ bytes: UnsafeRawBufferPointer) -> Step {
        var position = progress.position
        while true {
            guard bytes.count - position >= 12 else {
                return .needsMore(Progress(kind: .png, position: position), atLeast: position + 12)
            }
            let length = bigEndian(bytes, at: position, count: 4)
            guard length <= 0x7FFF_FFFF else {
                return .malformed(at: position, "a PNG chunk claims \(length) bytes, past the format's limit")
            }
            let type = (4..<8).map { bytes[position + $0] }
            guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                return .malformed(at: position + 4, "a PNG chunk's type is not four letters")
            }
            let end = position + 12 + length
            guard end <= bytes.count else {
                return .needsMore(Progress(kind: .png, position: position), atLeast: end)
            }
            if type.elementsEqual("IEND".utf8) { return .image(length: end) }
            position = end
        }
    }

    /// JPEG (ITU-T T.81 B.1): marker segments by their lengths, each scan's entropy-coded data to the
    /// next marker that is not a stuffed byte or a restart, up to the end-of-image marker.
    private static func advanceJPEG(_ progress: Progress, _ bytes: UnsafeRawBufferPointer) -> Step {
        var progress = progress
        while true {
            if progress.inScan {
                var position = progress.position
                while position + 1 < bytes.count {
                    if bytes[position] == 0xFF {
                        let next = bytes[position + 1]
                        if next == 0 || (0xD0...0xD7).contains(next) {
                            position += 2
                            continue
                        }
                        if next != 0xFF { break }
                    }
                    position += 1
                }
                progress.position = position
                guard position + 1 < bytes.count else { return .needsMore(progress, atLeast: position + 2) }
                progress.inScan = false
            }
            let position = progress.position
            guard position + 2 <= bytes.count else { return .needsMore(progress, atLeast: position + 2) }
            guard bytes[position] == 0xFF else {
                return .malformed(at: position, "a JPEG marker was expected and 0x\(hex(bytes[position])) found")
            }
            let marker = bytes[position + 1]
            switch marker {
            case 0xFF: progress.position += 1  // fill byte
            case 0xD9:
                let end = max(position + 2, progress.picturesEnd)
                guard end <= bytes.count else { return .needsMore(progress, atLeast: end) }
                return .image(length: end)
            case 0x00, 0xD8:
                return .malformed(at: position, "a JPEG marker 0x\(hex(marker)) is out of place")
            case 0x01, 0xD0...0xD7: progress.position += 2  // markers without a length
            default:
                guard position + 4 <= bytes.count else { return .needsMore(progress, atLeast: position + 4) }
                let length = bigEndian(bytes, at: position + 2, count: 2)
                guard length >= 2 else {
                    return .malformed(at: position + 2, "a JPEG segment's length is \(length), shorter than itself")
                }
                let end = position + 2 + length
                guard end <= bytes.count else { return .needsMore(progress, atLeast: end) }
                if marker == 0xE2, let pictures = multiPictureEnd(bytes, payload: (position + 4)..<end) {
                    progress.picturesEnd = max(progress.picturesEnd, pictures)
                }
                progress.position = end
                progress.inScan = marker == 0xDA
            }
        }
    }

    /// Where the last picture of a JPEG's multi-picture (MPF, CIPA DC-007) index ends, from the APP2
    /// payload that holds it: each entry's offset (from the index's byte order mark) plus its size.
    /// Phones write a second picture (a depth map, a preview) after the first one's end marker.
    private static func multiPictureEnd(_ bytes: UnsafeRawBufferPointer, payload: Range<Int>) -> Int? {
        let base = payload.lowerBound + 4
        guard payload.count >= 16, bytes[payload.lowerBound..<base].elementsEqual("MPF\u{0}".utf8) else { return nil }
        let little = bytes[base] == 0x49
        func read(_ at: Int, _ count: Int) -> Int? {
            guard at >= base, at + count <= payload.upperBound else { return nil }
            return (0..<count).reduce(0) { $0 << 8 | Int(bytes[at + (little ? count - 1 - $1 : $1)]) }
        }
        guard let first = read(base + 4, 4), let entries = read(base + first, 2) else { return nil }
        var end: Int?
        for index in 0..<min(entries, 64) {
            let entry = base + first + 2 + index * 12
            guard let tag = read(entry, 2), tag == 0xB002, let count = read(entry + 4, 4),
                let at = read(entry + 8, 4)
            else { continue }
            for picture in 0..<min(count / 16, 64) {
                guard let size = read(base + at + picture * 16 + 4, 4),
                    let offset = read(base + at + picture * 16 + 8, 4), offset > 0
                else { continue }
                end = max(end ?? 0, base + offset + size)
            }
        }
        return end
    }

    /// WebP: the RIFF header's size, after its first eight bytes.
    private static func advanceWebP(_ bytes: UnsafeRawBufferPointer) -> Step {
        guard bytes.count >= 8 else { return .needsMore(Progress(kind: .webp, position: 0), atLeast: 8) }
        let size = (0..<4).reduce(0) { $0 | Int(bytes[4 + $1]) << (8 * $1) }
        guard size >= 4 else { return .malformed(at: 4, "a WebP's RIFF size is \(size), too small to hold WEBP") }
        let end = 8 + size
        guard end <= bytes.count else { return .needsMore(Progress(kind: .webp, position: 0), atLeast: end) }
        return .image(length: end)
    }

    /// HEIC and AVIF: top-level ISO-BMFF boxes, from `ftyp`, until the next bytes are not a box of
    /// this file: another `ftyp`, a type that is not four printable characters, a size too small for a
    /// box, another format's signature, or the end of the stream.
    private static func advanceHEIF(_ progress: Progress, _ bytes: UnsafeRawBufferPointer, atEnd: Bool) -> Step {
        var position = progress.position
        while true {
            let resume = Progress(kind: .heif, position: position)
            guard bytes.count - position >= 8 else {
                if atEnd && position > 0 { return .image(length: position) }
                return .needsMore(resume, atLeast: position + 8)
            }
            let type = (4..<8).map { bytes[position + $0] }
            var size = bigEndian(bytes, at: position, count: 4)
            if position > 0 {
                let another =
                    type.elementsEqual("ftyp".utf8) || (0..<4).map({ bytes[position + $0] }) == Array("RIFF".utf8)
                if another || !type.allSatisfy({ (0x20...0x7E).contains($0) }) || (size != 0 && size != 1 && size < 8) {
                    return .image(length: position)
                }
            }
            if size == 1 {
                guard bytes.count - position >= 16 else { return .needsMore(resume, atLeast: position + 16) }
                size = bigEndian(bytes, at: position + 8, count: 8)
                guard size >= 16, size <= 1 << 40 else {
                    return .malformed(at: position, "a box's 64-bit size is \(size)")
                }
            } else if size == 0 {
                // A box that lasts to the end of the file: here, to the end of the stream.
                guard atEnd else { return .needsMore(resume, atLeast: bytes.count + 1) }
                return .image(length: bytes.count)
            }
            guard size >= 8 else { return .malformed(at: position, "a box's size is \(size), shorter than its header") }
            let end = position + size
            guard end <= bytes.count else { return .needsMore(resume, atLeast: end) }
            position = end
        }
    }

    /// The unsigned big-endian number in `count` bytes at `offset` (the caller checked they are there).
    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> Int {
        (0..<count).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }

    /// A byte as two hexadecimal digits.
    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}
