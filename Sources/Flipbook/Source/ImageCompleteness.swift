import Foundation

/// Whether an image file seen in a folder listing holds the whole image, from its last bytes: a
/// renderer may still be writing it.
enum ImageCompleteness {
    /// A PNG ends with an empty `IEND` chunk and its CRC.
    private static let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    /// Whether the file at `path` of `size` bytes ends as its format ends: PNG with `IEND`, JPEG
    /// with its end-of-image marker (at the end, or after the first picture when more follows), WebP where its RIFF header says, TIFF when its first directory
    /// and every strip or tile it points at lie inside the file, HEIC and AVIF when their top-level
    /// boxes end exactly at the end of the file. Other formats count as complete (their size and
    /// time decide).
    static func looksComplete(_ path: String, size: Int64) -> Bool {
        guard size >= 12, let head = POSIXFile.bytes(of: path, at: 0, count: 12), head.count == 12 else {
            return false
        }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return POSIXFile.bytes(of: path, at: size - 12, count: 12) == pngEnd
        }
        if head.starts(with: [0xFF, 0xD8]) {
            if POSIXFile.bytes(of: path, at: size - 2, count: 2) == [0xFF, 0xD9] { return true }
            // Phones write more after the picture (a motion photo's movie, a maker's trailer): the
            // picture is whole once its own end-of-image marker is there.
            return size <= 256 << 20 && POSIXFile.bytes(of: path, at: 0, count: Int(size)).map(jpegPictureEnds) == true
        }
        if head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) {
            let length = head[4..<8].reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
            return length + 8 <= size
        }
        if ImageSniffing.isTIFF(Data(head)) { return tiffLooksComplete(path, size: size, head: head) }
        if head[4..<8].elementsEqual("ftyp".utf8) { return boxesEndAtTheEnd(path, size: size) }
        return true
    }

    /// Whether a JPEG's first picture ends in `bytes`: its marker segments walked by their lengths (an
    /// EXIF thumbnail's own end marker inside APP1 is skipped), then the entropy-coded data of each scan
    /// to an end-of-image marker.
    static func jpegPictureEnds(_ bytes: [UInt8]) -> Bool {
        var position = 2
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else { return false }
            let marker = bytes[position + 1]
            if marker == 0xFF {
                position += 1  // fill byte
                continue
            }
            if marker == 0xD9 { return true }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                position += 2
                continue
            }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2 else { return false }
            position += 2 + length
            if marker == 0xDA {
                // Entropy-coded data: a 0xFF is followed by 0x00 (a stuffed byte) or a restart marker,
                // until the next real marker.
                while position + 1 < bytes.count {
                    if bytes[position] == 0xFF, bytes[position + 1] != 0, !(0xD0...0xD7).contains(bytes[position + 1]) {
                        break
                    }
                    position += 1
                }
            }
        }
        return position + 2 <= bytes.count && bytes[position] == 0xFF && bytes[position + 1] == 0xD9
    }

    /// A classic TIFF's first directory is inside the file, and so is every strip or tile it names
    /// (libtiff writes the directory last, and the header points at it only then). BigTIFF counts as
    /// complete.
    private static func tiffLooksComplete(_ path: String, size: Int64, head: [UInt8]) -> Bool {
        guard head[2] == 42 || head[3] == 42 else { return true }
        let little = head[0] == 0x49
        func value(_ bytes: ArraySlice<UInt8>) -> Int64 {
            (little ? bytes.reversed() : Array(bytes)).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
        let directory = value(head[4..<8])
        guard directory >= 8, directory + 2 <= size,
            let countBytes = POSIXFile.bytes(of: path, at: directory, count: 2),
            countBytes.count == 2
        else { return false }
        let count = Int(value(countBytes[...]))
        guard directory + 2 + Int64(count) * 12 + 4 <= size,
            let entries = POSIXFile.bytes(of: path, at: directory + 2, count: count * 12), entries.count == count * 12
        else { return false }
        // StripOffsets/TileOffsets and StripByteCounts/TileByteCounts, each a single value held in
        // the entry or an array elsewhere: the data ends at the largest offset + count.
        var offsets: [Int64] = []
        var counts: [Int64] = []
        for index in 0..<count {
            let entry = entries[index * 12..<index * 12 + 12]
            let tag = value(entry.prefix(2))
            let type = value(entry.dropFirst(2).prefix(2))
            let number = Int(value(entry.dropFirst(4).prefix(4)))
            guard [273, 279, 324, 325].contains(tag), type == 3 || type == 4, (1...1 << 20).contains(number) else {
                continue
            }
            let width = type == 3 ? 2 : 4
            var values: [Int64] = []
            if number * width <= 4 {
                values = (0..<number).map { value(entry.dropFirst(8 + $0 * width).prefix(width)) }
            } else {
                let at = value(entry.dropFirst(8).prefix(4))
                guard at + Int64(number * width) <= size,
                    let array = POSIXFile.bytes(of: path, at: at, count: number * width), array.count == number * width
                else { return false }
                values = (0..<number).map { value(array[($0 * width)..<($0 * width + width)]) }
            }
            if tag == 273 || tag == 324 { offsets = values } else { counts = values }
        }
        return zip(offsets, counts).allSatisfy { $0 + $1 <= size }
    }

    /// Top-level ISOBMFF boxes (`ftyp`, `meta`, `mdat` …) follow one another to exactly the end of the
    /// file: a file still being written ends inside a box.
    private static func boxesEndAtTheEnd(_ path: String, size: Int64) -> Bool {
        var position: Int64 = 0
        for _ in 0..<64 {
            guard position + 8 <= size, let header = POSIXFile.bytes(of: path, at: position, count: 16),
                header.count >= 8
            else { return false }
            var length = header.prefix(4).reduce(Int64(0)) { $0 << 8 | Int64($1) }
            if length == 1, header.count == 16 {
                length = header[8..<16].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            } else if length == 0 {
                length = size - position  // to the end of the file
            }
            guard length >= 8, length <= size - position else { return false }
            position += length
            if position == size { return true }
            if position > size { return false }
        }
        return false
    }
}
