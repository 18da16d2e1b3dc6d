import CTurboJPEG
import Foundation

/// Writes JPEG files for tests with TurboJPEG's compressor: kinds ffmpeg cannot write (CMYK with
/// an Adobe marker, as Photoshop saves it; progressive), and EXIF orientation spliced in.
public enum TestJPEG {
    /// The pixel layout handed to the compressor.
    public enum Kind: Sendable {
        /// 3 bytes a pixel, stored as YCbCr 4:4:4.
        case rgb
        /// 3 bytes a pixel, stored as YCbCr 4:2:0 (chroma halved both ways), as cameras save them.
        case rgb420
        /// 3 bytes a pixel, stored as YCbCr 4:2:2 (chroma halved across).
        case rgb422
        /// 1 byte a pixel, stored as grayscale.
        case gray
        /// 4 bytes a pixel of inverted (Adobe) CMYK, stored as YCCK with an Adobe marker.
        case cmyk
    }

    /// Compresses `pixels` (`width * height` pixels of `kind`) at `quality` 1...100.
    public static func encode(
        _ pixels: [UInt8], width: Int, height: Int, kind: Kind, quality: Int = 95, progressive: Bool = false
    ) throws -> Data {
        guard let handle = tjInitCompress() else { throw JudgeError(description: "tjInitCompress failed") }
        defer { tjDestroy(handle) }
        let (format, channels, subsampling): (TJPF, Int, TJSAMP) =
            switch kind {
            case .rgb: (TJPF_RGB, 3, TJSAMP_444)
            case .rgb420: (TJPF_RGB, 3, TJSAMP_420)
            case .rgb422: (TJPF_RGB, 3, TJSAMP_422)
            case .gray: (TJPF_GRAY, 1, TJSAMP_GRAY)
            case .cmyk: (TJPF_CMYK, 4, TJSAMP_444)
            }
        precondition(pixels.count == width * height * channels, "\(pixels.count) bytes for \(width)x\(height)")
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(
            handle, pixels, Int32(width), Int32(width * channels), Int32(height), Int32(format.rawValue), &output,
            &size, Int32(subsampling.rawValue), Int32(quality), progressive ? TJFLAG_PROGRESSIVE : 0)
        defer { tjFree(output) }
        guard status == 0, let output else {
            throw JudgeError(description: "tjCompress2: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Data(bytes: output, count: Int(size))
    }

    /// Decodes a colour JPEG to tightly packed RGB with chroma upsampled by repeating each sample
    /// over the pixels it covers (`TJFLAG_FASTUPSAMPLE`), not smoothed: the RGB a converter from the
    /// stored planes sees. Ignores EXIF orientation.
    public static func decodeRGBRepeatingChroma(_ jpeg: Data) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        guard let handle = tjInitDecompress() else { throw JudgeError(description: "tjInitDecompress failed") }
        defer { tjDestroy(handle) }
        let bytes = [UInt8](jpeg)
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colourspace: Int32 = 0
        guard tjDecompressHeader3(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colourspace) == 0
        else { throw JudgeError(description: "tjDecompressHeader3: \(String(cString: tjGetErrorStr2(handle)))") }
        var pixels = [UInt8](repeating: 0, count: Int(width * height * 3))
        let status = tjDecompress2(
            handle, bytes, UInt(bytes.count), &pixels, width, width * 3, height, Int32(TJPF_RGB.rawValue),
            TJFLAG_FASTUPSAMPLE | TJFLAG_ACCURATEDCT)
        guard status == 0 else {
            throw JudgeError(description: "tjDecompress2: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return (Int(width), Int(height), pixels)
    }

    /// The JPEG with an APP1 Exif segment holding only an orientation tag inserted after SOI.
    ///
    /// - Parameters:
    ///   - bigEndian: TIFF byte order: `MM` (true) or `II`.
    ///   - thumbnail: Bytes after the TIFF structure, where cameras put a thumbnail JPEG.
    public static func withOrientation(
        _ jpeg: Data, _ orientation: UInt16, bigEndian: Bool = true, thumbnail: [UInt8] = []
    ) -> Data {
        func u16(_ value: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func u32(_ value: UInt32) -> [UInt8] {
            let bytes = [
                UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
            ]
            return bigEndian ? bytes : bytes.reversed()
        }
        var tiff: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
        tiff += u16(1)  // one IFD0 entry
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)  // no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff + thumbnail
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: segment, at: 2)
        return Data(bytes)
    }
}
