import Foundation

/// A GIF's structure, walked without decoding any pixels: the logical screen, and each image's
/// delay from the Graphic Control Extension before it (GIF89a, section 23).
enum GIFLayout {
    /// The layout of a GIF file; a file that ends inside an image is truncated after the whole ones.
    ///
    /// - Throws: `.corruptImage` when the header or logical screen descriptor is cut short.
    static func read(_ data: Data) throws -> AnimationLayout {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= 13 else {
                throw FlipbookError.gifHeaderTruncated()
            }
            let width = Int(bytes[6]) | Int(bytes[7]) << 8
            let height = Int(bytes[8]) | Int(bytes[9]) << 8
            var offset = 13
            if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 7) + 1) }
            var delays: [MediaTime] = []
            var delay = 0
            // Set when the data ends inside a block; a file that ends after a whole block without its trailer is
            // whole as browsers read it.
            var truncated = false
            walk: while offset < bytes.count {
                switch bytes[offset] {
                case 0x21:
                    guard offset + 1 < bytes.count else {
                        truncated = true
                        break walk
                    }
                    let label = bytes[offset + 1]
                    if label == 0xF9, offset + 7 < bytes.count, bytes[offset + 2] == 4 {
                        delay = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
                    }
                    guard let end = skipSubBlocks(bytes, from: offset + 2) else {
                        truncated = true
                        break walk
                    }
                    offset = end
                case 0x2C:
                    guard offset + 10 <= bytes.count else {
                        truncated = true
                        break walk
                    }
                    let packed = bytes[offset + 9]
                    offset += 10
                    if packed & 0x80 != 0 { offset += 3 << (Int(packed & 7) + 1) }
                    // The LZW minimum code size, then the image data's sub-blocks.
                    guard offset < bytes.count, let end = skipSubBlocks(bytes, from: offset + 1) else {
                        truncated = true
                        break walk
                    }
                    offset = end
                    delays.append(AnimationLayout.browserDelay(MediaTime(value: Int64(delay), timescale: 100)))
                    delay = 0
                default:
                    // The trailer (0x3B), or a block GIF89a does not know: nothing after it is read.
                    break walk
                }
            }
            return AnimationLayout(kind: .gif, width: width, height: height, delays: delays, isTruncated: truncated)
        }
    }

    /// The offset after the sub-blocks that start at `offset` and their zero terminator, or `nil`
    /// when the data ends first.
    private static func skipSubBlocks(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var offset = start
        while offset < bytes.count {
            let length = Int(bytes[offset])
            offset += 1
            if length == 0 { return offset }
            offset += length
        }
        return nil
    }
}
