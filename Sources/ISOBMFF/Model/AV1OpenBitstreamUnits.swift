import MediaModel

/// The OBUs of an AV1 low-overhead bitstream (AV1 §5.3): each a header, an optional extension
/// byte, a LEB128 size when `obu_has_size_field` is set, and the payload.
///
/// An MP4 sample holds one temporal unit without its temporal delimiter (AV1-ISOBMFF §2.4), and
/// `av1C` holds the sequence header OBU; these helpers split an encoder's output into its OBUs to
/// make both.
package enum AV1OpenBitstreamUnits {
    /// `OBU_SEQUENCE_HEADER`.
    package static let sequenceHeaderType: UInt8 = 1
    /// `OBU_TEMPORAL_DELIMITER`.
    package static let temporalDelimiterType: UInt8 = 2

    /// One OBU's place in a buffer.
    package struct Unit: Sendable, Equatable {
        /// `obu_type`, 0 to 15.
        package var type: UInt8
        /// The whole OBU, header to the end of its payload.
        package var range: Range<Int>
        /// The payload alone.
        package var payload: Range<Int>
    }

    /// Splits `bytes` into OBUs.
    ///
    /// An OBU without a size field extends to the end of the bytes.
    /// - Throws: ``MediaReadingError`` with code `malformed` when a header or size runs past the end
    ///   or the forbidden bit is set.
    package static func split(_ bytes: [UInt8]) throws -> [Unit] {
        var units: [Unit] = []
        var at = 0
        while at < bytes.count {
            let header = bytes[at]
            guard header & 0x80 == 0 else { throw malformed("an OBU header at byte \(at) has its forbidden bit set") }
            let hasExtension = header & 0x04 != 0
            let hasSize = header & 0x02 != 0
            var cursor = at + 1 + (hasExtension ? 1 : 0)
            guard cursor <= bytes.count else { throw malformed("the OBU header at byte \(at) is cut short") }
            let size: Int
            if hasSize {
                size = try leb128(bytes, at: &cursor)
            } else {
                size = bytes.count - cursor
            }
            guard size <= bytes.count - cursor else {
                throw malformed("the OBU at byte \(at) declares \(size) bytes; \(bytes.count - cursor) remain")
            }
            units.append(Unit(type: header >> 3 & 0x0F, range: at..<cursor + size, payload: cursor..<cursor + size))
            at = cursor + size
        }
        return units
    }

    /// The bytes without their temporal delimiter OBUs, as an MP4 sample wants a temporal unit.
    package static func removingTemporalDelimiters(_ bytes: [UInt8]) throws -> [UInt8] {
        let units = try split(bytes)
        guard units.contains(where: { $0.type == temporalDelimiterType }) else { return bytes }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        for unit in units where unit.type != temporalDelimiterType {
            kept += bytes[unit.range]
        }
        return kept
    }

    /// An unsigned LEB128 number (AV1 §4.10.5) of at most 8 bytes, advancing `cursor` past it.
    private static func leb128(_ bytes: [UInt8], at cursor: inout Int) throws -> Int {
        var value: UInt64 = 0
        for index in 0..<8 {
            guard cursor < bytes.count else { throw malformed("an OBU size is cut short") }
            let byte = bytes[cursor]
            cursor += 1
            value |= UInt64(byte & 0x7F) << (7 * UInt64(index))
            if byte & 0x80 == 0 {
                guard value <= UInt64(Int32.max) else { throw malformed("an OBU size of \(value) bytes is too large") }
                return Int(value)
            }
        }
        throw malformed("an OBU size runs over 8 bytes")
    }

    private static func malformed(_ message: String, line: Int = #line) -> MediaReadingError {
        MediaReadingError.isoBMFF(.malformed, message, boxType: "av01", line: line)
    }
}
