import MediaModel

/// Reads big-endian fields from a bounded range of bytes, throwing instead of reading past the end.
///
/// Every read checks the bounds first, so hostile input can only produce an ``MediaReadingError``.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int
    /// The box being read, for error messages.
    let boxType: String
    /// The file offset of the box being read, for error messages.
    let boxOffset: Int

    /// Creates a reader over the payload of `box`, clamped to the bytes actually present.
    init(payloadOf box: Box, in bytes: [UInt8]) {
        self.bytes = bytes
        let lower = min(max(box.payloadRange.lowerBound, 0), bytes.count)
        position = lower
        end = max(lower, min(box.payloadRange.upperBound, bytes.count))
        boxType = box.type
        boxOffset = box.offset
    }

    /// The number of bytes left to read.
    var remaining: Int { end - position }

    /// A problem of the box being read, raised where this is called.
    func error(
        _ code: MediaReadingError.Code = .malformed, _ message: String, fileID: String = #fileID, line: Int = #line
    ) -> MediaReadingError {
        MediaReadingError.isoBMFF(code, message, offset: boxOffset, boxType: boxType, fileID: fileID, line: line)
    }

    private mutating func take(_ count: Int) throws -> Int {
        guard count >= 0, count <= remaining else {
            throw error(.truncated, "needs \(count) more bytes at offset \(position) but has \(remaining)")
        }
        defer { position += count }
        return position
    }

    mutating func skip(_ count: Int) throws {
        _ = try take(count)
    }

    mutating func readUInt8() throws -> UInt8 {
        bytes[try take(1)]
    }

    mutating func readUInt16() throws -> UInt16 {
        let at = try take(2)
        return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    mutating func readUInt32() throws -> UInt32 {
        let at = try take(4)
        return bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func readUInt64() throws -> UInt64 {
        let at = try take(8)
        return bytes[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func readInt16() throws -> Int16 {
        Int16(bitPattern: try readUInt16())
    }

    mutating func readInt32() throws -> Int32 {
        Int32(bitPattern: try readUInt32())
    }

    mutating func readInt64() throws -> Int64 {
        Int64(bitPattern: try readUInt64())
    }

    mutating func readFourCC() throws -> FourCC {
        FourCC(rawValue: try readUInt32())
    }

    mutating func readBytes(_ count: Int) throws -> [UInt8] {
        let at = try take(count)
        return Array(bytes[at..<at + count])
    }

    mutating func readRest() -> [UInt8] {
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// Reads a full box's version and flags.
    mutating func readVersionAndFlags() throws -> (version: UInt8, flags: UInt32) {
        let word = try readUInt32()
        return (UInt8(truncatingIfNeeded: word >> 24), word & 0x00FF_FFFF)
    }

    /// Reads a 32- or 64-bit field depending on a full box's version.
    mutating func readUInt32Or64(version: UInt8) throws -> UInt64 {
        version == 1 ? try readUInt64() : UInt64(try readUInt32())
    }

    /// Checks that `count` entries of `entrySize` bytes fit in what is left, before anything is allocated.
    func requireEntries(_ count: UInt32, size entrySize: Int) throws {
        guard UInt64(count) * UInt64(entrySize) <= UInt64(remaining) else {
            throw error(
                .malformed, "declares \(count) entries of \(entrySize) bytes but has only \(remaining) bytes left")
        }
    }
}
