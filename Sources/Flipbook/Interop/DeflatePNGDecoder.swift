internal import CDeflate
import Foundation

/// The fast path for the PNGs renderers and ffmpeg write most: 8 or 16-bit RGB, RGBA, grey or grey
/// and alpha, not interlaced.
///
/// Chunks are walked and every critical chunk's CRC checked here; the image data is inflated in one
/// call to libdeflate (about twice zlib's speed) straight into a buffer of exactly the size the
/// header implies, then unfiltered in place by the C kernel (`PixelKernels.unfilterPNG`). 8-bit RGB
/// and RGBA are then the frame's pixels; the others are made 8-bit RGB or RGBA as libspng makes them
/// (`PixelKernels.pngSamplesToRGB8`). Anything else (palette, bit depths below 8, interlaced,
/// transparency chunks, unknown critical chunks) returns `nil` and goes to libspng.
enum DeflatePNGDecoder {
    /// Decodes `data`, or returns `nil` when the image is not for this path.
    ///
    /// - Throws: `.corruptImage` for damaged data, `.unsupportedImage` for an image over `limits`.
    static func decode(_ data: Data, limits: ImageLimits) throws -> Frame? {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Frame? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let layout = try PNGLayout(bytes) else { return nil }
            try limits.check(width: layout.width, height: layout.height)
            let bytesPerPixel = layout.channels * layout.bitDepth / 8
            let rowBytes = layout.width * bytesPerPixel
            // Huge 16-bit images go to libspng, which inflates row by row: here the inflated samples
            // (twice the frame's bytes) and the frame would be in memory together.
            if layout.bitDepth == 16 && layout.height * rowBytes > 1 << 28 { return nil }
            // One buffer: inflated rows (a filter byte each), then unfiltered in place, each row moving
            // down by one byte a row; the spare bytes at the end are dropped or ignored.
            var samples = try inflate(bytes, layout: layout, count: layout.height * (rowBytes + 1))
            let failedRow = samples.withUnsafeMutableBufferPointer { buffer in
                PixelKernels.unfilterPNG(buffer, rows: layout.height, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel)
            }
            if let failedRow {
                let filter = samples[failedRow * (rowBytes + 1)]
                throw FlipbookError(
                    .corruptImage, "the PNG cannot be decoded: row \(failedRow) has an unknown filter type \(filter)")
            }
            let format: PixelFormat = layout.channels % 2 == 0 ? .rgba : .rgb
            if layout.bitDepth == 8 && layout.channels >= 3 {
                samples.removeLast(layout.height)
            } else {
                samples = PixelKernels.pngSamplesToRGB8(
                    samples, pixels: layout.width * layout.height, channels: layout.channels, bitDepth: layout.bitDepth)
            }
            return try Frame(width: layout.width, height: layout.height, format: format, pixels: samples)
        }
    }

    /// Inflates the concatenated IDAT data into exactly `count` bytes.
    private static func inflate(_ bytes: UnsafeBufferPointer<UInt8>, layout: PNGLayout, count: Int) throws -> [UInt8] {
        guard let decompressor = libdeflate_alloc_decompressor() else {
            throw FlipbookError(
                .corruptImage, "the PNG cannot be decoded: libdeflate could not allocate a decompressor")
        }
        defer { libdeflate_free_decompressor(decompressor) }
        var joined: [UInt8] = []
        if layout.imageData.count > 1 {
            joined.reserveCapacity(layout.imageData.reduce(0) { $0 + $1.count })
            for range in layout.imageData { joined.append(contentsOf: bytes[range]) }
        }
        var produced = 0
        var status = LIBDEFLATE_BAD_DATA
        // Not zeroed first: libdeflate writes every byte or the image is refused below.
        let output = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            if layout.imageData.count == 1, let range = layout.imageData.first {
                status = libdeflate_zlib_decompress(
                    decompressor, bytes.baseAddress! + range.lowerBound, range.count, out.baseAddress, count, &produced)
            } else {
                status = joined.withUnsafeBytes { input in
                    libdeflate_zlib_decompress(
                        decompressor, input.baseAddress, input.count, out.baseAddress, count, &produced)
                }
            }
            initialized = status == LIBDEFLATE_SUCCESS && produced == count ? count : 0
        }
        switch status {
        case LIBDEFLATE_SUCCESS where produced == count:
            return output
        case LIBDEFLATE_SUCCESS, LIBDEFLATE_SHORT_OUTPUT:
            throw FlipbookError(
                .corruptImage,
                "the PNG cannot be decoded: its image data ends after \(produced) of \(count) bytes (the file is truncated or damaged)"
            )
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw FlipbookError(.corruptImage, "the PNG cannot be decoded: its image data is longer than its size says")
        default:
            throw FlipbookError(.corruptImage, "the PNG cannot be decoded: its compressed image data is damaged")
        }
    }
}

/// Where a PNG's parts are, after checking its chunk structure and critical chunks' CRCs.
private struct PNGLayout {
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
        func fail(_ message: String) -> FlipbookError {
            FlipbookError(.corruptImage, "the PNG cannot be decoded: \(message)")
        }
        func read32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        guard bytes.count >= 8 + 25 else { throw fail("the file is too short to hold a PNG header") }
        var position = 8
        var header: (width: Int, height: Int, channels: Int, bitDepth: Int)?
        var data: [Range<Int>] = []
        var sawEnd = false
        while position < bytes.count {
            guard bytes.count - position >= 12 else { throw fail("the file ends inside a chunk header (truncated)") }
            let length = read32(position)
            guard length <= Int(Int32.max), bytes.count - position - 12 >= length else {
                throw fail("a chunk runs past the end of the file (truncated)")
            }
            let type = (bytes[position + 4], bytes[position + 5], bytes[position + 6], bytes[position + 7])
            let name = String(decoding: [type.0, type.1, type.2, type.3], as: UTF8.self)
            let isCritical = type.0 & 0x20 == 0
            if isCritical {
                let crc = libdeflate_crc32(0, bytes.baseAddress! + position + 4, 4 + length)
                guard crc == UInt32(read32(position + 8 + length)) else {
                    throw fail("the \(name) chunk's checksum is wrong")
                }
            }
            let body = position + 8
            switch name {
            case "IHDR":
                guard header == nil, position == 8, length == 13 else {
                    throw fail("the IHDR chunk is misplaced or malformed")
                }
                let width = read32(body)
                let height = read32(body + 4)
                guard width > 0, height > 0 else { throw fail("the header declares an empty size \(width)x\(height)") }
                let depth = bytes[body + 8]
                let colour = bytes[body + 9]
                guard bytes[body + 10] == 0, bytes[body + 11] == 0 else {
                    throw fail("unknown compression or filter method")
                }
                let channelsOfColourType: [UInt8: Int] = [0: 1, 2: 3, 4: 2, 6: 4]
                guard depth == 8 || depth == 16, let channels = channelsOfColourType[colour], bytes[body + 12] == 0
                else { return nil }
                header = (width, height, channels, Int(depth))
            case "IDAT":
                guard header != nil else { throw fail("image data comes before the header") }
                if let last = data.last, last.upperBound + 4 != position {
                    throw fail("the IDAT chunks are not consecutive")
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
        guard let header else { throw fail("the IHDR chunk is missing") }
        guard !data.isEmpty else { throw fail("there is no image data (IDAT)") }
        guard sawEnd else { throw fail("the IEND chunk is missing (the file is truncated)") }
        width = header.width
        height = header.height
        channels = header.channels
        bitDepth = header.bitDepth
        imageData = data
    }
}
