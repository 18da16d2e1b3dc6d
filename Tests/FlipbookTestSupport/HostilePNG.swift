internal import CDeflate
import Foundation

/// Hostile and damaged PNG files for tests: headers claiming huge sizes, metadata bombs, floods of
/// chunks. Chunks carry correct CRCs unless a test damages them on purpose.
public enum HostilePNG {
    /// A PNG whose header declares `width`x`height` but whose image data is a few bytes: the
    /// classic decompression bomb, a few dozen bytes long.
    public static func claimingSize(width: Int, height: Int, colourType: UInt8 = 2) -> Data {
        var png = signature + chunk("IHDR", be32(width) + be32(height) + [8, colourType, 0, 0, 0])
        if colourType == 3 { png += chunk("PLTE", [0, 0, 0]) }
        png += chunk("IDAT", zlib([UInt8](repeating: 0, count: 64)))
        return Data(png + chunk("IEND", []))
    }

    /// `png` with `chunks` inserted right after its IHDR chunk.
    public static func inserting(_ chunks: [(type: String, data: [UInt8])], into png: Data) -> Data {
        let bytes = [UInt8](png)
        let afterHeader = 8 + 25
        return Data(bytes[..<afterHeader] + chunks.flatMap { chunk($0.type, $0.data) } + bytes[afterHeader...])
    }

    /// A zTXt chunk's payload whose text inflates to `size` zero bytes.
    public static func compressedText(inflatingTo size: Int) -> [UInt8] {
        Array("Comment".utf8) + [0, 0] + zlib([UInt8](repeating: 0, count: size))
    }

    /// One chunk: length, type, data, CRC.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
        return be32(data.count) + body + be32(Int(crc))
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A zlib stream of `data`, compressed by libdeflate at its fastest level.
    private static func zlib(_ data: [UInt8]) -> [UInt8] {
        let compressor = libdeflate_alloc_compressor(1)!
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, data.count)
        var output = [UInt8](repeating: 0, count: bound)
        let written = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, out.baseAddress, out.count)
            }
        }
        return Array(output.prefix(written))
    }
}
