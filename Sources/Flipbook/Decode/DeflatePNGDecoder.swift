import Foundation

/// The fast path for the PNGs renderers and ffmpeg write most: 8 or 16-bit RGB, RGBA, grey or grey
/// and alpha, not interlaced.
///
/// Chunks are walked and every critical chunk's CRC checked (``PNGLayout``); the image data is
/// inflated in one call to libdeflate (about twice zlib's speed, through ``Deflate``) straight into a buffer of exactly the size the
/// header implies, then unfiltered in place by the C kernel (`PixelKernels.unfilterPNG`). 8-bit RGB
/// and RGBA are then the frame's pixels; the others are made 8-bit RGB or RGBA as libspng makes them
/// (`PixelKernels.pngSamplesToRGB8`). Anything else (palette, bit depths below 8, interlaced,
/// transparency chunks, unknown critical chunks) returns `nil` and goes to libspng.
enum DeflatePNGDecoder {
    /// Decodes `data`, or returns `nil` when the image is not for this path.
    ///
    /// - Throws: `.corruptImage` for damaged data, `.unsupportedImage` for an image over `limits`.
    static func decode(_ data: Data, limits: ImageLimits) throws -> Frame? {
        guard case .frame(let frame) = try decodeImage(data, limits: limits, deep: false) else { return nil }
        return frame
    }

    /// Decodes `data` as ``decode(_:limits:)`` does, or, with `deep`, a 16-bit grey or RGB PNG to a
    /// ``DeepImage`` at its depth (and one with alpha too, with `deepAlpha`: for a movie that keeps
    /// alpha); `nil` when the image is not for this path.
    static func decodeImage(_ data: Data, limits: ImageLimits, deep: Bool, deepAlpha: Bool = false) throws
        -> DecodedImage?
    {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> DecodedImage? in
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
            var samples = try Deflate.zlibDecompress(
                layout.imageData.map { UnsafeBufferPointer(rebasing: bytes[$0]) }, count: layout.height * (rowBytes + 1)
            )
            let failedRow = samples.withUnsafeMutableBufferPointer { buffer in
                PixelKernels.unfilterPNG(buffer, rows: layout.height, rowBytes: rowBytes, bytesPerPixel: bytesPerPixel)
            }
            if let failedRow {
                let filter = samples[failedRow * (rowBytes + 1)]
                throw FlipbookError.pngRowFilterUnknown(row: failedRow, filter: filter)
            }
            let hasAlpha = layout.channels % 2 == 0
            if deep && layout.bitDepth == 16 && (!hasAlpha || deepAlpha) {
                let rgb = PixelKernels.png16ToRGB16(
                    samples, pixels: layout.width * layout.height, channels: layout.channels)
                return .deep(DeepImage(width: layout.width, height: layout.height, samples: rgb, hasAlpha: hasAlpha))
            }
            let format: PixelFormat = layout.channels % 2 == 0 ? .rgba : .rgb
            if layout.bitDepth == 8 && layout.channels >= 3 {
                samples.removeLast(layout.height)
            } else {
                samples = PixelKernels.pngSamplesToRGB8(
                    samples, pixels: layout.width * layout.height, channels: layout.channels, bitDepth: layout.bitDepth)
            }
            return .frame(try Frame(width: layout.width, height: layout.height, format: format, pixels: samples))
        }
    }
}
