/// Writes big-endian fields and boxes into a growing byte array.
///
/// Boxes are written the way swift-asn1 writes constructed nodes: ``box(_:_:)`` writes a size
/// placeholder and the type, lets the body write itself, then patches the size. A box's size is
/// therefore never computed apart from writing it.
///
/// ```swift
/// var writer = ByteWriter()
/// writer.box("moov") { w in
///     w.fullBox("mvhd", version: 0, flags: 0) { w in w.putUInt32(0) }
/// }
/// ```
package struct ByteWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    ///
    /// - Parameter capacity: Bytes to reserve up front.
    package init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written so far.
    package var count: Int { bytes.count }

    /// Writes one byte.
    package mutating func putUInt8(_ value: UInt8) {
        bytes.append(value)
    }

    /// Writes a 16-bit unsigned integer, big-endian.
    package mutating func putUInt16(_ value: UInt16) {
        putBigEndian(value)
    }

    /// Writes a 32-bit unsigned integer, big-endian.
    package mutating func putUInt32(_ value: UInt32) {
        putBigEndian(value)
    }

    /// Writes a 64-bit unsigned integer, big-endian.
    package mutating func putUInt64(_ value: UInt64) {
        putBigEndian(value)
    }

    /// Writes a 16-bit signed integer, big-endian two's complement.
    package mutating func putInt16(_ value: Int16) {
        putBigEndian(value)
    }

    /// Writes a 32-bit signed integer, big-endian two's complement.
    package mutating func putInt32(_ value: Int32) {
        putBigEndian(value)
    }

    /// Writes a 64-bit signed integer, big-endian two's complement.
    package mutating func putInt64(_ value: Int64) {
        putBigEndian(value)
    }

    /// Writes a four-character code.
    package mutating func putFourCC(_ value: FourCC) {
        putBigEndian(value.rawValue)
    }

    /// Writes bytes as they are.
    package mutating func putBytes(_ value: some Sequence<UInt8>) {
        bytes.append(contentsOf: value)
    }

    /// Writes `count` zero bytes.
    package mutating func putZeros(_ count: Int) {
        bytes.append(contentsOf: repeatElement(0, count: count))
    }

    /// Writes a box: size, type, then whatever `body` writes.
    ///
    /// The 32-bit size is patched after the body is written. If the box turns out larger than
    /// `UInt32.max` bytes, the size field becomes 1 and a 64-bit largesize is inserted after the type.
    ///
    /// - Parameters:
    ///   - type: The box type.
    ///   - body: Writes the box's payload into the writer it is given.
    package mutating func box(_ type: FourCC, _ body: (inout ByteWriter) throws -> Void) rethrows {
        let start = bytes.count
        putUInt32(0)
        putFourCC(type)
        try body(&self)
        let size = UInt64(bytes.count - start)
        if size <= UInt64(UInt32.max) {
            patchUInt32(UInt32(size), at: start)
        } else {
            patchUInt32(1, at: start)
            let largeSize = (size + 8).bigEndian
            let largeSizeBytes = withUnsafeBytes(of: largeSize) { Array($0) }
            bytes.insert(contentsOf: largeSizeBytes, at: start + 8)
        }
    }

    /// Writes a full box: a box whose payload starts with an 8-bit version and 24-bit flags.
    ///
    /// - Parameters:
    ///   - type: The box type.
    ///   - version: The box version.
    ///   - flags: The flags; only the low 24 bits are written.
    ///   - body: Writes the rest of the payload.
    package mutating func fullBox(
        _ type: FourCC, version: UInt8, flags: UInt32, _ body: (inout ByteWriter) throws -> Void
    ) rethrows {
        try box(type) { w in
            w.putUInt32(UInt32(version) << 24 | (flags & 0x00FF_FFFF))
            try body(&w)
        }
    }

    /// Writes only the header of a box whose payload the caller writes elsewhere (the `mdat`).
    ///
    /// This is the one place a size is declared rather than measured: the payload is streamed to
    /// a file after the header. A payload that does not fit a 32-bit size gets the largesize form.
    ///
    /// - Parameters:
    ///   - type: The box type.
    ///   - payloadSize: The exact number of payload bytes that will follow the header.
    package mutating func boxHeader(_ type: FourCC, payloadSize: UInt64) {
        if payloadSize <= UInt64(UInt32.max) - 8 {
            putUInt32(UInt32(payloadSize + 8))
            putFourCC(type)
        } else {
            precondition(payloadSize <= UInt64.max - 16, "box payload of \(payloadSize) bytes is too large")
            putUInt32(1)
            putFourCC(type)
            putUInt64(payloadSize + 16)
        }
    }

    private mutating func putBigEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func patchUInt32(_ value: UInt32, at index: Int) {
        bytes[index] = UInt8(truncatingIfNeeded: value >> 24)
        bytes[index + 1] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[index + 2] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[index + 3] = UInt8(truncatingIfNeeded: value)
    }
}
