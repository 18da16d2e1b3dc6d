internal import CTurboJPEG
import Foundation

/// JPEG decoding with libjpeg-turbo's TurboJPEG API, one handle per image.
enum TurboJPEGDecoder {
    /// Decodes a JPEG to 8-bit RGB.
    static func decode(_ data: Data, limits: ImageLimits) throws -> Frame {
        guard let handle = tjInitDecompress() else {
            throw FlipbookError(.corruptImage, "TurboJPEG could not create a decompressor")
        }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Frame in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var width: Int32 = 0
            var height: Int32 = 0
            var subsampling: Int32 = 0
            var colourspace: Int32 = 0
            try turboCheck(
                tjDecompressHeader3(
                    handle, bytes.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colourspace),
                handle, "tjDecompressHeader3")
            try limits.check(width: Int(width), height: Int(height))
            if colourspace == Int32(TJCS_CMYK.rawValue) || colourspace == Int32(TJCS_YCCK.rawValue) {
                throw FlipbookError(.unsupportedImage, "CMYK JPEG images are not supported yet; save it as RGB")
            }
            let rowBytes = Int(width) * 3
            var pixels = [UInt8](repeating: 0, count: rowBytes * Int(height))
            try pixels.withUnsafeMutableBufferPointer { out in
                try turboCheck(
                    tjDecompress2(
                        handle, bytes.baseAddress, UInt(bytes.count), out.baseAddress, width, Int32(rowBytes), height,
                        Int32(TJPF_RGB.rawValue), TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT),
                    handle, "tjDecompress2")
            }
            return try Frame(width: Int(width), height: Int(height), format: .rgb, pixels: pixels)
        }
    }
}

/// The funnel for TurboJPEG status codes: -1 is an error, described by `tjGetErrorStr2`.
private func turboCheck(_ status: Int32, _ handle: tjhandle, _ function: String) throws {
    guard status != 0 else { return }
    let reason = String(cString: tjGetErrorStr2(handle))
    throw FlipbookError(
        .corruptImage, "the JPEG cannot be decoded: \(reason)", underlying: "TurboJPEG \(function) returned \(status)")
}
