/// The blocks of a GIF89a file, as bytes: the header and logical screen, the NETSCAPE2.0 loop
/// extension, a frame's graphic control extension and image, and the trailer.
enum GIFFile {
    /// How a frame's area is left before the next frame is drawn (the graphic control extension's
    /// disposal method).
    enum Disposal: UInt8 {
        /// Left as drawn: the next frame's transparent pixels show it.
        case keep = 1
        /// Cleared to transparent: for frames with transparency of their own.
        case clear = 2
    }

    /// `GIF89a` and a logical screen of `width` by `height` without a global colour table, then,
    /// unless the animation plays once, the NETSCAPE2.0 extension with its repeat count (0 for
    /// ever; a file that plays `plays` times repeats `plays - 1` times).
    static func header(width: Int, height: Int, plays: Int) -> [UInt8] {
        var bytes: [UInt8] = Array("GIF89a".utf8)
        bytes += littleEndian(width) + littleEndian(height)
        // No global colour table; 8 bits of colour resolution; background index 0; square pixels.
        bytes += [0x70, 0, 0]
        if plays != 1 {
            bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1]
            bytes += littleEndian(plays == 0 ? 0 : plays - 1) + [0]
        }
        return bytes
    }

    /// A frame: its graphic control extension (delay in hundredths of a second, disposal,
    /// transparent index) followed by `image` (an image descriptor, its colour table and data).
    static func frame(_ image: [UInt8], delay: Int, disposal: Disposal, transparentIndex: Int?) -> [UInt8] {
        precondition((0...65535).contains(delay), "GIF delay \(delay)")
        var bytes: [UInt8] = [0x21, 0xF9, 4, disposal.rawValue << 2 | (transparentIndex == nil ? 0 : 1)]
        bytes += littleEndian(delay) + [UInt8(transparentIndex ?? 0), 0]
        return bytes + image
    }

    /// An image descriptor for the rectangle at `left`, `top` of `width` by `height`, its local
    /// colour table (the palette's RGB, padded to a power of two of at least 2 entries) and its
    /// LZW-coded `indices`.
    static func image(
        left: Int, top: Int, width: Int, height: Int, palette: [UInt8], indices: [UInt8]
    ) -> [UInt8] {
        let colours = max(1, palette.count / 4)
        var bits = 1
        while 1 << bits < colours { bits += 1 }
        var bytes: [UInt8] = [0x2C]
        bytes += littleEndian(left) + littleEndian(top) + littleEndian(width) + littleEndian(height)
        bytes.append(0x80 | UInt8(bits - 1))
        var table = [UInt8](repeating: 0, count: 3 << bits)
        for entry in 0..<(palette.count / 4) {
            table[entry * 3] = palette[entry * 4]
            table[entry * 3 + 1] = palette[entry * 4 + 1]
            table[entry * 3 + 2] = palette[entry * 4 + 2]
        }
        bytes += table
        bytes += GIFLZW.encode(indices, minimumCodeSize: max(2, bits))
        return bytes
    }

    /// One transparent pixel at the top left: a frame that changes nothing but takes its time.
    static let unchangedImage = image(
        left: 0, top: 0, width: 1, height: 1, palette: [0, 0, 0, 0, 0, 0, 0, 0], indices: [0])

    /// The byte that ends the file.
    static let trailer: [UInt8] = [0x3B]

    private static func littleEndian(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)]
    }
}
