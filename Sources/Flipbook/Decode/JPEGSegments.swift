/// The segments of a JPEG before its first scan (ITU-T T.81 B.1), stepped over by their lengths, so
/// marker bytes inside a segment's payload (an EXIF thumbnail is a whole JPEG) are never taken for
/// markers. Fill bytes and markers without a length are passed over. Every offset is checked:
/// malformed bytes end the walk, never trap.
enum JPEGSegments {
    /// How a walk ended.
    enum End: Equatable {
        /// At the first start-of-scan marker, at this offset.
        case scan(at: Int)
        /// At the end-of-image marker, with no scan before it.
        case endOfImage
        /// Where the bytes stop being a JPEG's segments (or `visit` asked to stop).
        case stopped
    }

    /// Calls `visit` with each segment's marker and the offsets of its payload (after the length
    /// field), in file order, until it returns `false`. `bytes` are indexed from 0.
    @discardableResult
    static func walk<Bytes: RandomAccessCollection>(
        _ bytes: Bytes, _ visit: (_ marker: UInt8, _ payload: Range<Int>) -> Bool
    ) -> End where Bytes.Element == UInt8, Bytes.Index == Int {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .stopped }
        var position = 2
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else { return .stopped }
            let marker = bytes[position + 1]
            switch marker {
            case 0xFF: position += 1  // fill byte
            case 0xDA: return .scan(at: position)
            case 0xD9: return .endOfImage
            case 0x01, 0xD0...0xD7: position += 2  // markers without a length
            default:
                let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
                guard length >= 2, position + 2 + length <= bytes.count,
                    visit(marker, (position + 4)..<(position + 2 + length))
                else { return .stopped }
                position += 2 + length
            }
        }
        return .stopped
    }
}
