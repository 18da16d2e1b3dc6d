/// Writes EBML elements (the binary format of Matroska and WebM) into a growing byte array: an
/// element's ID, its size as a variable-length integer, then its data.
///
/// A master element's size is found by writing its children first, as ``ByteWriter`` does for boxes;
/// numbers take the fewest bytes that hold them unless a width is asked for (an element written over
/// later must keep its length).
///
/// ```swift
/// var writer = EBMLWriter()
/// writer.master(.info) { w in
///     w.unsigned(.timestampScale, 100_000)
///     w.string(.muxingApp, "Flipbook")
/// }
/// ```
package struct EBMLWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    package init() {}

    /// The number of bytes written so far.
    package var count: Int { bytes.count }

    /// Writes an element whose data its children write.
    package mutating func master(_ id: EBMLID, _ body: (inout EBMLWriter) -> Void) {
        var inner = EBMLWriter()
        body(&inner)
        raw(id, inner.bytes)
    }

    /// Writes an unsigned integer element in as few bytes as hold `value` (at least one), or in
    /// exactly `width` bytes.
    package mutating func unsigned(_ id: EBMLID, _ value: UInt64, width: Int? = nil) {
        let length = width ?? max(1, (64 - value.leadingZeroBitCount + 7) / 8)
        raw(id, (0..<length).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    }

    /// Writes a signed integer element, two's complement, in as few bytes as hold `value`, or in
    /// exactly `width` bytes (a `Date` is always 8).
    package mutating func signed(_ id: EBMLID, _ value: Int64, width: Int? = nil) {
        if let width {
            raw(id, (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> Int64(8 * $0)) })
            return
        }
        var length = 8
        while length > 1 {
            let shift = Int64(8 * (length - 1)) - 1
            guard value >> shift == 0 || value >> shift == -1 else { break }
            length -= 1
        }
        raw(id, (0..<length).reversed().map { UInt8(truncatingIfNeeded: value >> Int64(8 * $0)) })
    }

    /// Writes an 8-byte IEEE float element.
    package mutating func float(_ id: EBMLID, _ value: Double) {
        unsigned(id, value.bitPattern, width: 8)
    }

    /// Writes a UTF-8 string element.
    package mutating func string(_ id: EBMLID, _ value: String) {
        raw(id, Array(value.utf8))
    }

    /// Writes a binary element.
    package mutating func binary(_ id: EBMLID, _ value: [UInt8]) {
        raw(id, value)
    }

    /// Writes a `Void` element of exactly `length` bytes in all (at least 2): space kept for an
    /// element written over it later, which readers skip until then.
    package mutating func void(length: Int) {
        precondition(length >= 2, "a Void element takes at least 2 bytes, not \(length)")
        // One ID byte, then a size of one byte up to 127 data bytes, of eight bytes beyond.
        let sizeLength = length - 2 <= 126 ? 1 : 8
        let dataLength = length - 1 - sizeLength
        putID(.void)
        putSize(UInt64(dataLength), width: sizeLength)
        bytes += repeatElement(0, count: dataLength)
    }

    /// Writes an element's ID and size only, for a caller that writes the data itself (a block's
    /// frame copied file to file); `width` fixes the size's length.
    package mutating func header(_ id: EBMLID, dataSize: UInt64, width: Int? = nil) {
        putID(id)
        putSize(dataSize, width: width)
    }

    /// Writes an element with an unknown size (all ones), for one whose end is not known while it
    /// is written: a live Segment.
    package mutating func unknownSizeHeader(_ id: EBMLID) {
        putID(id)
        bytes += [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    }

    /// Writes bytes as they are.
    package mutating func append(_ data: [UInt8]) {
        bytes += data
    }

    /// The length of an element with `dataSize` bytes of data, header included.
    package static func elementLength(_ id: EBMLID, dataSize: UInt64) -> Int {
        id.length + sizeLength(dataSize) + Int(dataSize)
    }

    /// The bytes a size takes as a variable-length integer: 7 bits a byte, all ones reserved.
    package static func sizeLength(_ value: UInt64) -> Int {
        var length = 1
        while length < 8 && value >= (UInt64(1) << (7 * UInt64(length))) - 1 { length += 1 }
        return length
    }

    /// The bytes of a variable-length integer of `length` bytes holding `value`.
    package static func sizeBytes(_ value: UInt64, width length: Int) -> [UInt8] {
        let marked = value | (UInt64(1) << (7 * UInt64(length)))
        return (0..<length).reversed().map { UInt8(truncatingIfNeeded: marked >> (8 * UInt64($0))) }
    }

    private mutating func raw(_ id: EBMLID, _ data: [UInt8]) {
        putID(id)
        putSize(UInt64(data.count), width: nil)
        bytes += data
    }

    private mutating func putID(_ id: EBMLID) {
        bytes += id.bytes
    }

    private mutating func putSize(_ value: UInt64, width: Int?) {
        bytes += Self.sizeBytes(value, width: width ?? Self.sizeLength(value))
    }
}
