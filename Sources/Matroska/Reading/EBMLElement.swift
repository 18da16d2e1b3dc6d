import MediaModel

/// One element's header as read from a file: its ID, where it starts, and how long its data is.
package struct EBMLElement: Sendable, Equatable {
    /// The element's ID.
    package let id: EBMLID
    /// The file offset of the element's first byte (its ID).
    package let offset: UInt64
    /// The bytes the ID and the size take.
    package let headerLength: Int
    /// The data's length in bytes; `nil` for an unknown size (all ones), which a live `Segment` or
    /// `Cluster` has while it is written.
    package let size: UInt64?

    /// The file offset of the element's data.
    package var dataOffset: UInt64 { offset + UInt64(headerLength) }

    /// The file offset just past the element's data; `nil` for an unknown size.
    package var end: UInt64? { size.map { dataOffset &+ $0 } }

    /// The longest header: a 4-byte ID and an 8-byte size.
    package static let longestHeader = 12

    /// Parses the header at the start of `bytes`, which were read from file offset `offset`.
    ///
    /// - Throws: ``MediaReadingError`` with `.invalidHeader` for an ID or size that is not a valid
    ///   variable-length integer (a first byte of zero, an ID longer than 4 bytes), `.truncated` when
    ///   `bytes` end inside the header.
    package init(parsing bytes: ArraySlice<UInt8>, at offset: UInt64) throws {
        let start = bytes.startIndex
        guard let first = bytes.first else {
            throw MediaReadingError.matroska(.truncated, "the file ends where an element should start", offset: offset)
        }
        guard first != 0 else {
            throw MediaReadingError.matroska(.invalidHeader, "a zero byte cannot start an element ID", offset: offset)
        }
        let idLength = first.leadingZeroBitCount + 1
        guard idLength <= 4 else {
            throw MediaReadingError.matroska(
                .invalidHeader, "element ID byte 0x\(String(first, radix: 16)) announces an ID longer than 4 bytes",
                offset: offset)
        }
        guard bytes.count > idLength else {
            throw MediaReadingError.matroska(.truncated, "the file ends inside an element header", offset: offset)
        }
        let id = EBMLID(bytes[start..<start + idLength].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let sizeStart = start + idLength
        let sizeFirst = bytes[sizeStart]
        guard sizeFirst != 0 else {
            throw MediaReadingError.matroska(
                .invalidHeader, "an element size longer than 8 bytes", offset: offset, element: id)
        }
        let sizeLength = sizeFirst.leadingZeroBitCount + 1
        guard bytes.count >= idLength + sizeLength else {
            throw MediaReadingError.matroska(
                .truncated, "the file ends inside an element header", offset: offset, element: id)
        }
        var value = UInt64(sizeFirst) & ((1 << (8 - UInt64(sizeLength))) - 1)
        for byte in bytes[sizeStart + 1..<sizeStart + sizeLength] { value = value << 8 | UInt64(byte) }
        let allOnes = (UInt64(1) << (7 * UInt64(sizeLength))) - 1
        self.id = id
        self.offset = offset
        self.headerLength = idLength + sizeLength
        self.size = value == allOnes ? nil : value
    }

    /// Reads a variable-length integer (a block's track number) at the start of `bytes`.
    ///
    /// - Returns: The value (marker bit removed) and the bytes it takes, or `nil` when the bytes
    ///   do not hold a whole one.
    package static func variableLengthInteger(_ bytes: ArraySlice<UInt8>) -> (value: UInt64, length: Int)? {
        guard let first = bytes.first, first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard bytes.count >= length else { return nil }
        var value = UInt64(first) & ((1 << (8 - UInt64(length))) - 1)
        for byte in bytes.dropFirst().prefix(length - 1) { value = value << 8 | UInt64(byte) }
        return (value, length)
    }
}
