internal import CImageQuant

/// A picture in at most 256 colours: a palette of RGBA entries and one index a pixel.
struct PalettedPicture: Sendable {
    /// The palette's entries, 4 bytes each (red, green, blue, alpha); alpha 0 is the transparent one.
    var palette: [UInt8]
    /// One palette index a pixel, rows top first.
    var indices: [UInt8]

    /// The number of palette entries.
    var colourCount: Int { palette.count / 4 }
    /// The first entry whose alpha is below half, or `nil` when every entry is opaque.
    var transparentIndex: Int? {
        (0..<colourCount).first { palette[$0 * 4 + 3] < 128 }
    }
}

/// libimagequant as Flipbook uses it: one palette for one picture (a GIF frame, or the changed
/// rectangle of one), remapped with dithering.
enum ImageQuantizer {
    /// Quantises a `width` by `height` RGBA picture to at most 256 colours.
    ///
    /// - Parameters:
    ///   - rgba: The pixels, 4 bytes each.
    ///   - background: What is shown behind the picture (the previous frame, the same size), or
    ///     `nil`. With it the palette gets a transparent entry, and pixels close to what is behind
    ///     them map to it, so that dithering does not move where the picture stands still.
    ///   - quality: The palette's target quality, 1-100.
    ///   - speed: libimagequant's speed, 1 (slowest, best) to 10.
    ///   - dithering: Floyd-Steinberg dithering, 0 (none) to 1 (full).
    static func quantize(
        _ rgba: [UInt8], width: Int, height: Int, over background: [UInt8]?, quality: Int, speed: Int,
        dithering: Float
    ) throws -> PalettedPicture {
        precondition(rgba.count == width * height * 4 && (background?.count ?? rgba.count) == rgba.count)
        let doing = "a \(width)x\(height) frame could not be reduced to a palette"
        let attributes = try imageQuantHandle("liq_attr_create", doing, liq_attr_create())
        defer { liq_attr_destroy(attributes) }
        try imageQuantCall("liq_set_quality", doing, liq_set_quality(attributes, 0, Int32(quality)))
        try imageQuantCall("liq_set_speed", doing, liq_set_speed(attributes, Int32(speed)))
        return try rgba.withUnsafeBytes { pixels in
            try withBackgroundBytes(background) { behind in
                let image = try imageQuantHandle(
                    "liq_image_create_rgba", doing,
                    liq_image_create_rgba(attributes, pixels.baseAddress!, Int32(width), Int32(height), 0))
                defer { liq_image_destroy(image) }
                if let behind {
                    let backgroundImage = try imageQuantHandle(
                        "liq_image_create_rgba", doing,
                        liq_image_create_rgba(attributes, behind.baseAddress!, Int32(width), Int32(height), 0))
                    let added = liq_image_add_fixed_color(image, liq_color(r: 0, g: 0, b: 0, a: 0))
                    // The image owns its background from here on, and frees it with itself.
                    let set = liq_image_set_background(image, backgroundImage)
                    if set != LIQ_OK { liq_image_destroy(backgroundImage) }
                    try imageQuantCall("liq_image_add_fixed_color", doing, added)
                    try imageQuantCall("liq_image_set_background", doing, set)
                }
                var quantized: OpaquePointer?
                try imageQuantCall("liq_image_quantize", doing, liq_image_quantize(image, attributes, &quantized))
                let result = try imageQuantHandle("liq_image_quantize", doing, quantized)
                defer { liq_result_destroy(result) }
                try imageQuantCall("liq_set_dithering_level", doing, liq_set_dithering_level(result, dithering))
                var indices = [UInt8](repeating: 0, count: width * height)
                try indices.withUnsafeMutableBytes { buffer in
                    try imageQuantCall(
                        "liq_write_remapped_image", doing,
                        liq_write_remapped_image(result, image, buffer.baseAddress!, buffer.count))
                }
                let palette = try imageQuantHandle("liq_get_palette", doing, liq_get_palette(result))
                let count = Int(min(palette.pointee.count, 256))
                var colours = [UInt8](repeating: 0, count: count * 4)
                withUnsafeBytes(of: palette.pointee.entries) { entries in
                    for index in 0..<(count * 4) { colours[index] = entries[index] }
                }
                return PalettedPicture(palette: colours, indices: indices)
            }
        }
    }

    /// Runs `body` with the background's bytes, or with `nil`.
    private static func withBackgroundBytes<Result>(
        _ background: [UInt8]?, _ body: (UnsafeRawBufferPointer?) throws -> Result
    ) rethrows -> Result {
        guard let background else { return try body(nil) }
        return try background.withUnsafeBytes { try body($0) }
    }
}
