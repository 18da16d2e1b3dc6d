/// GIF's variable-length LZW (GIF89a, appendix F): colour indices in, the image data of a frame out
/// (the minimum code size byte, the codes packed least significant bit first into sub-blocks of at
/// most 255 bytes, and the empty block that ends them).
///
/// Codes start one bit wider than the minimum code size and widen to 12 bits as the table grows,
/// at the moment a decoder's table (one entry behind the encoder's) reaches the next power of two;
/// when the table is full a clear code starts it again. Strings are found in an open-addressed
/// hash table of prefix code and byte, as in Unix `compress`, so a clear costs 20 KB of reset, not
/// a table per code.
enum GIFLZW {
    /// The most codes a GIF table holds (12 bits).
    static let tableSize = 4096
    /// Slots of the hash table: a prime above 4096 / 0.8.
    private static let hashSlots = 5003

    /// The image data of `indices`, each below `1 << minimumCodeSize` (2 to 8 bits).
    static func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        precondition((2...8).contains(minimumCodeSize), "GIF minimum code size \(minimumCodeSize)")
        var output = BlockWriter()
        output.bytes.reserveCapacity(indices.count / 2 + 16)
        output.bytes.append(UInt8(minimumCodeSize))
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var keys = [Int32](repeating: -1, count: hashSlots)
        var codes = [UInt16](repeating: 0, count: hashSlots)
        var width = minimumCodeSize + 1
        var next = end + 1
        output.write(clear, width: width)
        guard let first = indices.first else {
            output.write(end, width: width)
            return output.finished()
        }
        var prefix = Int(first)
        indices.withUnsafeBufferPointer { pixels in
            for position in 1..<pixels.count {
                let byte = Int(pixels[position])
                let key = Int32(truncatingIfNeeded: (prefix << 8) | byte)
                var slot = (byte << 4) ^ prefix
                if slot >= hashSlots { slot %= hashSlots }
                let step = slot == 0 ? 1 : hashSlots - slot
                var found = false
                while keys[slot] >= 0 {
                    if keys[slot] == key {
                        prefix = Int(codes[slot])
                        found = true
                        break
                    }
                    slot -= step
                    if slot < 0 { slot += hashSlots }
                }
                if found { continue }
                output.write(prefix, width: width)
                if next >= 1 << width && width < 12 { width += 1 }
                if next < tableSize {
                    keys[slot] = key
                    codes[slot] = UInt16(next)
                    next += 1
                } else {
                    output.write(clear, width: width)
                    for index in keys.indices { keys[index] = -1 }
                    width = minimumCodeSize + 1
                    next = end + 1
                }
                prefix = byte
            }
        }
        output.write(prefix, width: width)
        if next >= 1 << width && width < 12 { width += 1 }
        output.write(end, width: width)
        return output.finished()
    }

    /// Packs codes least significant bit first and cuts the bytes into sub-blocks.
    private struct BlockWriter {
        var bytes: [UInt8] = []
        private var bits: UInt64 = 0
        private var bitCount = 0
        /// Where the current sub-block's length byte is, and how many bytes it has.
        private var blockStart = -1
        private var blockLength = 0

        mutating func write(_ code: Int, width: Int) {
            bits |= UInt64(code) << UInt64(bitCount)
            bitCount += width
            while bitCount >= 8 {
                put(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                bitCount -= 8
            }
        }

        private mutating func put(_ byte: UInt8) {
            if blockStart < 0 || blockLength == 255 {
                if blockStart >= 0 { bytes[blockStart] = 255 }
                blockStart = bytes.count
                blockLength = 0
                bytes.append(0)
            }
            bytes.append(byte)
            blockLength += 1
        }

        /// The bytes with the last partial byte, the last block's length and the terminating block.
        mutating func finished() -> [UInt8] {
            if bitCount > 0 { put(UInt8(truncatingIfNeeded: bits)) }
            if blockStart >= 0 { bytes[blockStart] = UInt8(blockLength) }
            bytes.append(0)
            return bytes
        }
    }
}
