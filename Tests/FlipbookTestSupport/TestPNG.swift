import Foundation

/// Writes PNG files of every colour type and bit depth for tests, Adam7-interlaced on request, with
/// a chosen row filter per row and uncompressed (stored) zlib data: small images only.
public enum TestPNG {
    /// Encodes `samples`: per pixel, one value per channel of `colourType` (a palette index for 3),
    /// each below `2^bitDepth`, row by row.
    ///
    /// - Parameters:
    ///   - colourType: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA.
    ///   - palette: RGB triples for colour type 3.
    ///   - transparency: the tRNS chunk's payload, if any.
    ///   - filters: the filter type of each row written (ISO/IEC 15948 §9.2: 0 None, 1 Sub, 2 Up,
    ///     3 Average, 4 Paeth), repeated when there are more rows; a type above 4 is written as given,
    ///     with the row's bytes unfiltered, to make a damaged image.
    public static func encode(
        width: Int, height: Int, colourType: UInt8, bitDepth: UInt8, samples: [Int], palette: [[UInt8]] = [],
        transparency: [UInt8]? = nil, interlaced: Bool = false, filters: [UInt8] = [0]
    ) -> Data {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colourType)]!
        precondition(samples.count == width * height * channels, "\(samples.count) samples for \(width)x\(height)")
        let passes: [(x: Int, y: Int, dx: Int, dy: Int)] =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        let bytesPerPixel = max(1, channels * Int(bitDepth) / 8)
        var raw: [UInt8] = []
        var rowIndex = 0
        for pass in passes {
            let columns = Array(stride(from: pass.x, to: width, by: pass.dx))
            guard !columns.isEmpty else { continue }
            var prior: [UInt8]?
            for y in stride(from: pass.y, to: height, by: pass.dy) {
                var bits = BitPacker(depth: Int(bitDepth))
                for x in columns {
                    for channel in 0..<channels { bits.append(samples[(y * width + x) * channels + channel]) }
                }
                let line = bits.finish()
                let filter = filters[rowIndex % filters.count]
                raw.append(filter)
                raw += Self.filter(line, type: filter, prior: prior, bytesPerPixel: bytesPerPixel)
                prior = line
                rowIndex += 1
            }
        }
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [bitDepth, colourType, 0, 0, interlaced ? 1 : 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header)
        if !palette.isEmpty { png += chunk("PLTE", palette.flatMap { $0 }) }
        if let transparency { png += chunk("tRNS", transparency) }
        png += chunk("IDAT", storedZlib(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    /// One row filtered with `type` (ISO/IEC 15948 §9.2), given the row above unfiltered (`nil` for
    /// a pass's first row, read as zeros); a type above 4 leaves the bytes as they are.
    public static func filter(_ line: [UInt8], type: UInt8, prior: [UInt8]?, bytesPerPixel bpp: Int) -> [UInt8] {
        line.indices.map { i in
            let a = i >= bpp ? Int(line[i - bpp]) : 0
            let b = prior.map { Int($0[i]) } ?? 0
            let c = i >= bpp ? prior.map { Int($0[i - bpp]) } ?? 0 : 0
            let predictor: Int
            switch type {
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: predictor = 0
            }
            return UInt8(truncatingIfNeeded: Int(line[i]) - predictor)
        }
    }

    private struct BitPacker {
        let depth: Int
        var bytes: [UInt8] = []
        var accumulator = 0
        var count = 0

        init(depth: Int) { self.depth = depth }

        mutating func append(_ value: Int) {
            if depth == 16 {
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
                return
            }
            accumulator = accumulator << depth | value
            count += depth
            if count == 8 {
                bytes.append(UInt8(accumulator))
                accumulator = 0
                count = 0
            }
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(accumulator << (8 - count))) }
            return bytes
        }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    private static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let last: UInt8 = offset + length == data.count ? 1 : 0
            out += [
                last, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF),
            ]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }
}
