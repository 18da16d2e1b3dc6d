import MediaModel

/// Parses the box tree of an ISO base media file.
///
/// The reader never traps on malformed input: every size is checked against the box's parent
/// and the header, nesting is limited to ``maximumDepth``, and all arithmetic on values read
/// from the file is checked. Problems are thrown as ``MediaReadingError`` naming the box type,
/// its offset and what is wrong.
///
/// Containers it descends into: `moov trak mdia minf stbl dinf edts udta mvex moof traf mfra
/// tref sinf schi`, `stsd` and `dref` (after an 8-byte version, flags and count), and the visual
/// sample entries `avc1 avc3 hvc1 hev1 av01 encv` (after 78 bytes of sample entry fields).
///
/// ```swift
/// let boxes = try BoxReader.parse(bytes)
/// let moov = boxes.first("moov")
/// ```
package enum BoxReader {
    /// The deepest nesting accepted; real files need fewer than ten levels.
    package static let maximumDepth = 32

    private static let containers: Set<String> = [
        "moov", "trak", "mdia", "minf", "stbl", "dinf", "edts", "udta", "mvex", "moof", "traf", "mfra",
        "tref", "sinf", "schi",
    ]

    /// Bytes before the first child, for containers that have fields of their own.
    private static let childPrefix: [String: Int] = ["stsd": 8, "dref": 8].merging(
        VisualCodecs.visualEntryTypes.map { ($0, VisualSampleEntry.fieldsSize) }, uniquingKeysWith: { old, _ in old })

    /// Parses the boxes of a file, or of the start of one.
    ///
    /// With `fileSize` larger than `bytes.count`, the bytes are taken as the beginning of a file
    /// of that size: a top-level leaf box (such as `mdat`) may extend past the bytes given, so a
    /// movie's header can be inspected without reading its media data. Containers must lie
    /// entirely within the bytes given.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes, or its first bytes.
    ///   - fileSize: The full file's size; `bytes.count` by default.
    /// - Returns: The top-level boxes, each with its children.
    /// - Throws: ``MediaReadingError`` when a size is impossible, the bytes end inside a box header
    ///   or container, or nesting is too deep.
    package static func parse(_ bytes: [UInt8], fileSize: Int? = nil) throws -> [Box] {
        let logicalEnd = max(fileSize ?? bytes.count, bytes.count)
        return try parseBoxes(bytes, from: 0, to: logicalEnd, depth: 0)
    }

    /// Parses the top-level boxes of a file that may end in the middle of a box, such as a
    /// fragmented movie whose writer was killed: every box that lies entirely within `bytes`, up
    /// to the first one that does not (or cannot be parsed).
    ///
    /// - Parameter bytes: The file's bytes.
    /// - Returns: The complete top-level boxes, in file order, each with its children.
    package static func parseCompleteBoxes(_ bytes: [UInt8]) -> [Box] {
        var boxes: [Box] = []
        var position = 0
        while bytes.count - position >= 8 {
            guard let header = try? parseHeader(bytes, at: position, end: bytes.count),
                let parsed = try? parseBoxes(bytes, from: position, to: header.end, depth: 0)
            else { break }
            boxes += parsed
            position = header.end
        }
        return boxes
    }

    /// Parses the boxes inside a box the reader does not descend into by itself (`meta`, `ilst`),
    /// starting `prefix` bytes into its payload (4 for a full box's version and flags).
    ///
    /// - Throws: ``MediaReadingError`` when the box does not lie within `bytes` or a child's size is impossible.
    package static func parseChildren(of box: Box, in bytes: [UInt8], after prefix: Int = 0) throws -> [Box] {
        let start = box.payloadRange.lowerBound + prefix
        guard box.end <= bytes.count, start <= box.end else {
            throw MediaReadingError.isoBMFF(
                .truncated, "its children end past the \(bytes.count) bytes available", offset: box.offset,
                boxType: box.type)
        }
        return try parseBoxes(bytes, from: start, to: box.end, depth: 1)
    }

    private static func parseBoxes(_ bytes: [UInt8], from start: Int, to end: Int, depth: Int) throws -> [Box] {
        guard depth <= maximumDepth else {
            throw MediaReadingError.isoBMFF(
                .nestingTooDeep, "boxes are nested more than \(maximumDepth) deep", offset: start)
        }
        var boxes: [Box] = []
        var position = start
        while position < end {
            let left = end - position
            if depth > 0, left < 8, position + left <= bytes.count, bytes[position..<end].allSatisfy({ $0 == 0 }) {
                break  // QuickTime ends some containers with a 32-bit zero terminator.
            }
            var box = try parseHeader(bytes, at: position, end: end)
            let isContainer = containers.contains(box.type) || childPrefix[box.type] != nil
            if isContainer {
                guard box.end <= bytes.count else {
                    throw MediaReadingError.isoBMFF(
                        .truncated, "container of \(box.size) bytes ends past the \(bytes.count) bytes available",
                        offset: box.offset, boxType: box.type)
                }
                let prefix = childPrefix[box.type] ?? 0
                let childStart = box.payloadRange.lowerBound + prefix
                guard childStart <= box.end else {
                    throw MediaReadingError.isoBMFF(
                        .malformed,
                        "payload of \(box.payloadRange.count) bytes is shorter than its \(prefix)-byte fields",
                        offset: box.offset, boxType: box.type)
                }
                box.children = try parseBoxes(bytes, from: childStart, to: box.end, depth: depth + 1)
            }
            boxes.append(box)
            position = box.end
        }
        return boxes
    }

    /// Reads one box header at `position`; the box must end by `end`.
    private static func parseHeader(_ bytes: [UInt8], at position: Int, end: Int) throws -> Box {
        func fail(
            _ code: MediaReadingError.Code, _ message: String, type: String? = nil, line: Int = #line
        ) -> MediaReadingError {
            MediaReadingError.isoBMFF(code, message, offset: position, boxType: type, line: line)
        }
        func readUInt(_ at: Int, _ count: Int) -> UInt64 {
            bytes[at..<at + count].reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard end - position >= 8 else {
            throw fail(.invalidSize, "\(end - position) bytes left in the parent, too few for a box header")
        }
        guard position + 8 <= bytes.count else {
            throw fail(.truncated, "the bytes end inside a box header")
        }
        let type = FourCC.string(from: bytes[position + 4..<position + 8])
        var headerSize = 8
        let declared: UInt64
        switch readUInt(position, 4) {
        case 0:
            declared = UInt64(end - position)  // extends to the end of the parent or file
        case 1:
            guard end - position >= 16 else {
                throw fail(.invalidSize, "declares a largesize but its parent has no room for it", type: type)
            }
            guard position + 16 <= bytes.count else {
                throw fail(.truncated, "the bytes end inside a largesize", type: type)
            }
            declared = readUInt(position + 8, 8)
            headerSize = 16
        case let size:
            declared = size
        }
        if type == "uuid" { headerSize += 16 }
        guard declared >= UInt64(headerSize) else {
            throw fail(.invalidSize, "size \(declared) is smaller than its \(headerSize)-byte header", type: type)
        }
        guard declared <= UInt64(end - position) else {
            throw fail(
                .invalidSize, "size \(declared) runs past its parent, which has \(end - position) bytes left",
                type: type)
        }
        return Box(type: type, offset: position, size: Int(declared), headerSize: headerSize)
    }
}
