/// Where a PNG's parts are, after checking its chunk structure and critical chunks' CRCs: the
/// chunk walk of the fast PNG path (``DeflatePNGDecoder``).
struct PNGLayout {
    let width: Int
    let height: Int
    /// Samples a pixel: 1 grey, 2 grey and alpha, 3 RGB, 4 RGBA.
    let channels: Int
    /// Bits a sample: 8 or 16.
    let bitDepth: Int
    /// The IDAT payloads, in order.
    let imageData: [Range<Int>]

    /// Walks the chunks; `nil` when the image is not 8 or 16-bit grey, grey and alpha, RGB or RGBA
    /// without interlacing, or carries chunks only libspng handles.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        func read32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        guard bytes.count >= 8 + 25 else {
            throw FlipbookError.imageUndecodable("PNG", "the file is too short to hold a PNG header")
        }
        var position = 8
        var header: (width: Int, height: Int, channels: Int, bitDepth: Int)?
        var data: [Range<Int>] = []
        var sawEnd = false
        while position < bytes.count {
            guard bytes.count - position >= 12 else {
                throw FlipbookError.imageUndecodable("PNG", "the file ends inside a chunk header (truncated)")
            }
            let length = read32(position)
            guard length <= Int(Int32.max), bytes.count - position - 12 >= length else {
                throw FlipbookError.imageUndecodable("PNG", "a chunk runs past the end of the file (truncated)")
            }
            let type = (bytes[position + 4], bytes[position + 5], bytes[position + 6], bytes[position + 7])
            let name = String(decoding: [type.0, type.1, type.2, type.3], as: UTF8.self)
            let isCritical = type.0 & 0x20 == 0
            if isCritical {
                let crc = Deflate.crc32(UnsafeBufferPointer(rebasing: bytes[(position + 4)..<(position + 8 + length)]))
                guard crc == UInt32(read32(position + 8 + length)) else {
                    throw FlipbookError.imageUndecodable("PNG", "the \(name) chunk's checksum is wrong")
                }
            }
            let body = position + 8
            switch name {
            case "IHDR":
                guard header == nil, position == 8, length == 13 else {
                    throw FlipbookError.imageUndecodable("PNG", "the IHDR chunk is misplaced or malformed")
                }
                guard let fields = try Self.header(bytes, at: body, read32: read32) else { return nil }
                header = fields
            case "IDAT":
                guard header != nil else {
                    throw FlipbookError.imageUndecodable("PNG", "image data comes before the header")
                }
                if let last = data.last, last.upperBound + 4 != position {
                    throw FlipbookError.imageUndecodable("PNG", "the IDAT chunks are not consecutive")
                }
                data.append(body..<body + length)
            case "IEND":
                sawEnd = true
            case "tRNS", "PLTE":
                return nil
            default:
                if isCritical { return nil }
            }
            position = body + length + 4
            if sawEnd { break }
        }
        guard let header else { throw FlipbookError.imageUndecodable("PNG", "the IHDR chunk is missing") }
        guard !data.isEmpty else { throw FlipbookError.imageUndecodable("PNG", "there is no image data (IDAT)") }
        guard sawEnd else {
            throw FlipbookError.imageUndecodable("PNG", "the IEND chunk is missing (the file is truncated)")
        }
        width = header.width
        height = header.height
        channels = header.channels
        bitDepth = header.bitDepth
        imageData = data
    }

    /// The IHDR fields this path decodes, or `nil` for an image it leaves to libspng (bit depths
    /// below 8, palette, interlaced).
    private static func header(
        _ bytes: UnsafeBufferPointer<UInt8>, at body: Int, read32: (Int) -> Int
    ) throws -> (width: Int, height: Int, channels: Int, bitDepth: Int)? {
        let width = read32(body)
        let height = read32(body + 4)
        guard width > 0, height > 0 else {
            throw FlipbookError.imageUndecodable("PNG", "the header declares an empty size \(width)x\(height)")
        }
        let depth = bytes[body + 8]
        let colour = bytes[body + 9]
        guard bytes[body + 10] == 0, bytes[body + 11] == 0 else {
            throw FlipbookError.imageUndecodable("PNG", "unknown compression or filter method")
        }
        let channelsOfColourType: [UInt8: Int] = [0: 1, 2: 3, 4: 2, 6: 4]
        guard depth == 8 || depth == 16, let channels = channelsOfColourType[colour], bytes[body + 12] == 0 else {
            return nil
        }
        return (width, height, channels, Int(depth))
    }
}
