internal import CWebP
import Foundation

/// WebP images (lossy, lossless, with or without alpha) through libwebp: the size and kind are read
/// from the header and checked against the limits before any memory is taken, then the picture is
/// decoded in one call into buffers of exactly its size: RGBA when it has alpha, RGB otherwise, or,
/// for a lossy one without alpha that the caller takes as planes, its Y'CbCr 4:2:0 planes as VP8
/// stores them.
enum WebPDecoder {
    /// Decodes a still WebP image to RGB or RGBA.
    ///
    /// - Throws: `.corruptImage` for damaged or truncated data, `.unsupportedImage` for an animated
    ///   WebP or one over `limits`.
    static func decode(_ data: Data, limits: ImageLimits) throws -> Frame {
        guard case .frame(let frame) = try decodeImage(data, limits: limits) else {
            preconditionFailure("planes decoded although none were asked for")
        }
        return frame
    }

    /// Decodes a still WebP image as ``decode(_:limits:)`` does, or, when it is lossy, opaque, of even
    /// sides and `planes` accepts its size (``PlanarRequest/acceptsFitted(width:height:)``), to its
    /// limited-range BT.601 Y'CbCr 4:2:0 planes (`WebPDecodeYUVInto`: no chroma upsampling, no RGB).
    static func decodeImage(_ data: Data, limits: ImageLimits, planes request: PlanarRequest? = nil) throws
        -> DecodedImage
    {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> DecodedImage in
            let input = raw.bindMemory(to: UInt8.self)
            var features = WebPBitstreamFeatures()
            try check(WebPGetFeatures(input.baseAddress, input.count, &features), "WebPGetFeatures")
            guard features.has_animation == 0 else {
                throw FlipbookError.animatedWebPNotFromBytes()
            }
            let width = Int(features.width)
            let height = Int(features.height)
            try limits.check(width: width, height: height)
            let hasAlpha = features.has_alpha != 0
            if let request, features.format == 1, !hasAlpha, request.acceptsFitted(width: width, height: height) {
                return .planes(try decodePlanes(input, width: width, height: height))
            }
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
                throw FlipbookError.imageDataDamaged(
                    "WebP", cause: LibraryCallError(library: "libwebp", function: "WebPDecodeInto", status: 0))
            }
            return .frame(try Frame(width: width, height: height, format: hasAlpha ? .rgba : .rgb, pixels: pixels))
        }
    }

    /// The Y'CbCr 4:2:0 planes of a lossy WebP whose features were read (sides even).
    private static func decodePlanes(_ input: UnsafeBufferPointer<UInt8>, width: Int, height: Int) throws
        -> YCbCrPlanes
    {
        let chromaCount = width / 2 * (height / 2)
        var cb: [UInt8] = []
        var cr: [UInt8] = []
        var decoded = false
        // Not zeroed first: libwebp writes every sample or returns NULL, and then nothing is kept.
        let luma = [UInt8](unsafeUninitializedCapacity: width * height) { y, lumaDone in
            cb = [UInt8](unsafeUninitializedCapacity: chromaCount) { u, cbDone in
                cr = [UInt8](unsafeUninitializedCapacity: chromaCount) { v, crDone in
                    decoded =
                        WebPDecodeYUVInto(
                            input.baseAddress, input.count, y.baseAddress, width * height, Int32(width),
                            u.baseAddress, chromaCount, Int32(width / 2), v.baseAddress, chromaCount,
                            Int32(width / 2)) != nil
                    crDone = decoded ? chromaCount : 0
                }
                cbDone = decoded ? chromaCount : 0
            }
            lumaDone = decoded ? width * height : 0
        }
        guard decoded else {
            throw FlipbookError.imageDataDamaged(
                "WebP", cause: LibraryCallError(library: "libwebp", function: "WebPDecodeYUVInto", status: 0))
        }
        return YCbCrPlanes(
            width: width, height: height, chromaFullWidth: false, chromaFullHeight: false, limitedRange: true,
            luma: luma, cb: cb, cr: cr)
    }

    /// The funnel for libwebp's status codes.
    private static func check(_ status: VP8StatusCode, _ function: String) throws {
        guard status != VP8_STATUS_OK else { return }
        let cause = LibraryCallError(library: "libwebp", function: function, status: Int(status.rawValue))
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA:
            throw FlipbookError.imageTruncated("WebP", cause: cause)
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            throw FlipbookError.imageFeatureNotDecoded("WebP", by: "libwebp", cause: cause)
        default:
            throw FlipbookError.imageHeaderOrDataDamaged("WebP", cause: cause)
        }
    }
}
