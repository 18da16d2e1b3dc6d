internal import CImageQuant
import Glibc

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

    /// Maps every pixel of a transparent entry to the first one: a GIF frame has one transparent
    /// index, and libimagequant may give more than one entry alpha 0 (the fixed colour and one of
    /// its own), whose pixels a decoder would otherwise draw opaque.
    mutating func unifyTransparentEntries() {
        guard let first = transparentIndex else { return }
        var others = [Bool](repeating: false, count: 256)
        var any = false
        for entry in (first + 1)..<colourCount where palette[entry * 4 + 3] < 128 {
            others[entry] = true
            any = true
        }
        guard any else { return }
        let target = UInt8(first)
        for index in indices.indices where others[Int(indices[index])] { indices[index] = target }
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
        oneOpenMPThread?(1)
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
                var picture = PalettedPicture(palette: colours, indices: indices)
                picture.unifyTransparentEntries()
                return picture
            }
        }
    }

    /// libgomp's `omp_set_num_threads`, found in the process (libimagequant links libgomp) rather
    /// than linked: Debian ships libgomp without a development link outside GCC's own folder.
    ///
    /// libimagequant parallelises each frame's many short loops with OpenMP, whose idle threads spin
    /// between them; on a machine whose cores are busy (Flipbook decodes the next images meanwhile)
    /// the spinning took 2.7 times the CPU of the work itself (40 frames of 480x270: 4.6 s instead of
    /// 1.7 s). One thread a call keeps the work and drops the spinning. The setting is the calling
    /// thread's, so it is made before every call.
    private static let oneOpenMPThread: (@convention(c) (Int32) -> Void)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "omp_set_num_threads") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Void).self)
    }()

    /// Runs `body` with the background's bytes, or with `nil`.
    private static func withBackgroundBytes<Result>(
        _ background: [UInt8]?, _ body: (UnsafeRawBufferPointer?) throws -> Result
    ) rethrows -> Result {
        guard let background else { return try body(nil) }
        return try background.withUnsafeBytes { try body($0) }
    }
}
