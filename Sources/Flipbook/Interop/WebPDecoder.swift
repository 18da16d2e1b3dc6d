internal import CWebP
import Foundation

/// WebP images (lossy, lossless, with or without alpha) through libwebp: the size and kind are read
/// from the header and checked against the limits before any memory is taken, then the picture is
/// decoded in one call into a buffer of exactly its size, RGBA when it has alpha, RGB otherwise.
enum WebPDecoder {
    /// Decodes a still WebP image.
    ///
    /// - Throws: `.corruptImage` for damaged or truncated data, `.unsupportedImage` for an animated
    ///   WebP or one over `limits`.
    static func decode(_ data: Data, limits: ImageLimits) throws -> Frame {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Frame in
            let input = raw.bindMemory(to: UInt8.self)
            var features = WebPBitstreamFeatures()
            try check(WebPGetFeatures(input.baseAddress, input.count, &features), "WebPGetFeatures")
            guard features.has_animation == 0 else {
                throw FlipbookError(
                    .unsupportedImage,
                    "this is an animated WebP; Flipbook reads still images: export its frames (for example with "
                        + "ffmpeg) and give those")
            }
            let width = Int(features.width)
            let height = Int(features.height)
            try limits.check(width: width, height: height)
            let hasAlpha = features.has_alpha != 0
            let stride = width * (hasAlpha ? 4 : 3)
            let count = stride * height
            var decoded = false
            // Not zeroed first: libwebp writes every byte or returns NULL, and then nothing is kept.
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                let result =
                    hasAlpha
                    ? WebPDecodeRGBAInto(input.baseAddress, input.count, buffer.baseAddress, count, Int32(stride))
                    : WebPDecodeRGBInto(input.baseAddress, input.count, buffer.baseAddress, count, Int32(stride))
                decoded = result != nil
                initialized = decoded ? count : 0
            }
            guard decoded else {
                throw FlipbookError(
                    .corruptImage, "the WebP cannot be decoded: its image data is damaged or truncated",
                    underlying: LibraryCallError(library: "libwebp", function: "WebPDecodeInto", status: 0))
            }
            return try Frame(width: width, height: height, format: hasAlpha ? .rgba : .rgb, pixels: pixels)
        }
    }

    /// The funnel for libwebp's status codes.
    private static func check(_ status: VP8StatusCode, _ function: String) throws {
        guard status != VP8_STATUS_OK else { return }
        let cause = LibraryCallError(library: "libwebp", function: function, status: Int(status.rawValue))
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA:
            throw FlipbookError(
                .corruptImage, "the WebP cannot be decoded: the file is truncated", underlying: cause)
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            throw FlipbookError(
                .unsupportedImage, "the WebP uses a feature libwebp does not decode", underlying: cause)
        default:
            throw FlipbookError(
                .corruptImage, "the WebP cannot be decoded: its header or data is damaged", underlying: cause)
        }
    }
}
