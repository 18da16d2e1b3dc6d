import Foundation
import MediaModel

/// The parts of a movie file that describe it, read without reading the media data.
///
/// Top-level boxes are found by reading their headers only. The bytes up to the end of the last
/// describing box (`moov`, `moof`, `mfra` …) are read so that offsets stay true; media data inside
/// that range is left as zeros, never read. A file whose index lies past `limit` bytes is refused.
package struct MovieFileBytes: Sendable {
    /// The file's bytes from its start to the end of its last describing box (media data zeroed).
    package let bytes: [UInt8]
    /// The file's full size.
    package let fileSize: Int
    /// The top-level boxes, in file order (mdat ones as headers only).
    package let topLevel: [(type: String, offset: Int, size: Int)]

    /// Reads the describing boxes of the file at `path`.
    ///
    /// - Parameter limit: The most bytes to hold in memory, 1 GiB by default.
    /// - Throws: ``MediaReadingError`` for a malformed top-level box; Foundation's error when the file
    ///   cannot be read.
    package init(path: String, limit: Int = 1 << 30) throws {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        try self.init(size: size, limit: limit) { offset, count in
            try handle.seek(toOffset: UInt64(offset))
            return [UInt8](try handle.read(upToCount: count) ?? Data())
        }
    }

    /// Takes the describing boxes of a file held in memory, as ``init(path:limit:)`` reads them.
    ///
    /// - Parameters:
    ///   - fileBytes: The whole file.
    ///   - limit: The most bytes to hold for the describing boxes, 1 GiB by default.
    /// - Throws: ``MediaReadingError`` for a malformed top-level box.
    package init(fileBytes: [UInt8], limit: Int = 1 << 30) throws {
        try self.init(size: fileBytes.count, limit: limit) { offset, count in
            guard offset < fileBytes.count else { return [] }
            return Array(fileBytes[offset..<min(fileBytes.count, offset + count)])
        }
    }

    /// Walks the top-level box headers through `read(offset, count)`, which returns at most `count`
    /// bytes, then reads the describing boxes whole.
    private init(size: Int, limit: Int, read: (Int, Int) throws -> [UInt8]) throws {
        var boxes: [(type: String, offset: Int, size: Int)] = []
        var position = 0
        while position + 8 <= size {
            let header = try read(position, 16)
            guard header.count >= 8 else { break }
            var boxSize = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: header[4..<8].map { (0x20...0x7E).contains($0) ? $0 : 0x2E }, as: UTF8.self)
            if boxSize == 1 {
                guard header.count == 16 else {
                    throw MediaReadingError.isoBMFF(
                        .truncated, "the file ends inside a box header", offset: position, boxType: type)
                }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large <= UInt64(Int.max) else {
                    throw MediaReadingError.isoBMFF(
                        .invalidSize, "box size \(large) is impossible", offset: position, boxType: type)
                }
                boxSize = Int(large)
            } else if boxSize == 0 {
                boxSize = size - position
            }
            guard boxSize >= 8 else {
                throw MediaReadingError.isoBMFF(
                    .invalidSize, "box size \(boxSize) is smaller than its header", offset: position, boxType: type)
            }
            let (end, overflow) = position.addingReportingOverflow(boxSize)
            boxes.append((type, position, overflow || end > size ? size - position : boxSize))
            if overflow || end > size { break }
            position = end
        }
        let describing = boxes.filter { !["mdat", "free", "skip", "wide"].contains($0.type) }
        // Every describing box whole, and every other box's header, so the tree can be walked.
        let needed = max(
            describing.map { $0.offset + $0.size }.max() ?? 0,
            boxes.map { $0.offset + min($0.size, 16) }.max() ?? min(size, 4096))
        guard needed <= limit else {
            throw MediaReadingError.isoBMFF(
                .malformed, "the movie's index ends \(needed) bytes into the file, past the \(limit)-byte limit")
        }
        var bytes = [UInt8](repeating: 0, count: needed)
        for box in boxes where box.offset < needed {
            let isMedia = ["mdat", "free", "skip", "wide"].contains(box.type)
            let count = min(isMedia ? min(box.size, 16) : box.size, needed - box.offset)
            let data = try read(box.offset, count)
            bytes.replaceSubrange(box.offset..<box.offset + data.count, with: data)
        }
        self.bytes = bytes
        self.fileSize = size
        self.topLevel = boxes
    }
}
