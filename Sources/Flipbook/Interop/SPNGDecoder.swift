internal import CSPNG
import Foundation

/// PNG decoding with libspng, one `spng_ctx` per image.
enum SPNGDecoder {
    /// Decodes a PNG to 8-bit RGB (opaque images) or RGBA (alpha channel or tRNS transparency).
    static func decode(_ data: Data, limits: ImageLimits) throws -> Frame {
        guard let context = spng_ctx_new(0) else {
            throw FlipbookError.imageDecoderNotCreated(by: "libspng", "a decoder")
        }
        defer { spng_ctx_free(context) }
        let side = UInt32(min(limits.maxDimension, Int(Int32.max)))
        try spngCheck(spng_set_image_limits(context, side, side), "spng_set_image_limits")
        // The caller strips metadata chunks (ImageSniffing.pngPixelChunks); these limits are a second
        // line. The chunk size limit applies to every chunk libspng stores (PLTE and tRNS are under
        // 1 KiB; IDAT is streamed and exempt), the cache limit to all stored chunks together. The
        // chunk count limit keeps libspng's default of 1000 (0.7.3 refuses to change it: its
        // spng_set_option returns SPNG_EINVAL for SPNG_CHUNK_COUNT_LIMIT).
        try spngCheck(spng_set_chunk_limits(context, 1 << 20, 4 << 20), "spng_set_chunk_limits")

        return try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Frame in
            try spngCheck(spng_set_png_buffer(context, buffer.baseAddress, buffer.count), "spng_set_png_buffer")
            var header = spng_ihdr()
            try spngCheck(spng_get_ihdr(context, &header), "spng_get_ihdr")
            let width = Int(header.width)
            let height = Int(header.height)
            try limits.check(width: width, height: height)

            let hasAlphaChannel =
                header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE_ALPHA.rawValue)
                || header.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue)
            var transparency = spng_trns()
            let trnsStatus = spng_get_trns(context, &transparency)
            if trnsStatus != Int32(SPNG_ECHUNKAVAIL.rawValue) { try spngCheck(trnsStatus, "spng_get_trns") }
            let hasTransparency = hasAlphaChannel || trnsStatus == 0
            let format: PixelFormat = hasTransparency ? .rgba : .rgb
            let spngFormat = hasTransparency ? SPNG_FMT_RGBA8 : SPNG_FMT_RGB8

            var size = 0
            try spngCheck(
                spng_decoded_image_size(context, Int32(spngFormat.rawValue), &size), "spng_decoded_image_size")
            var pixels = [UInt8](repeating: 0, count: size)
            try pixels.withUnsafeMutableBytes { out in
                try spngCheck(
                    spng_decode_image(
                        context, out.baseAddress, out.count, Int32(spngFormat.rawValue),
                        Int32(SPNG_DECODE_TRNS.rawValue)),
                    "spng_decode_image")
            }
            // The last IDAT's checksum and the chunks after the image are only read on request.
            try spngCheck(spng_decode_chunks(context), "spng_decode_chunks")
            return try Frame(width: width, height: height, format: format, pixels: pixels)
        }
    }
}

/// The funnel for libspng status codes: non-zero is an error, described by `spng_strerror`.
private func spngCheck(_ status: Int32, _ function: String) throws {
    guard status != 0 else { return }
    let reason = String(cString: spng_strerror(status))
    let code: FlipbookError.Code =
        status == Int32(SPNG_EWIDTH.rawValue) || status == Int32(SPNG_EHEIGHT.rawValue)
            || status == Int32(SPNG_EUSER_WIDTH.rawValue) || status == Int32(SPNG_EUSER_HEIGHT.rawValue)
        ? .unsupportedImage : .corruptImage
    throw FlipbookError.imageUndecodable(
        "PNG", reason, code: code, cause: LibraryCallError(library: "libspng", function: function, status: Int(status)))
}
