internal import CFreeTypeHarfBuzz
import Foundation

/// A font at one pixel size, for burn-ins and slates: FreeType's face, HarfBuzz's font on it to shape
/// each line, and each glyph rendered once (anti-aliased, 8-bit coverage) and kept.
///
/// Not for sharing between threads: a movie's text is drawn by its writer, one frame after another.
final class FontFace {
    /// The font's file, for errors.
    let path: String
    let pixelSize: Int
    /// Pixels above the baseline a line takes, and below it.
    let ascent: Int
    let descent: Int
    private let library: OpaquePointer
    private let face: FT_Face
    private let font: OpaquePointer
    private let buffer: OpaquePointer
    private var bitmaps: [UInt32: GlyphBitmap] = [:]

    /// Opens the font in `file` (its first face) at `pixelSize` pixels to the em.
    ///
    /// - Throws: `.invalidSettings` naming the file when FreeType cannot open it or size it.
    init(file: URL, pixelSize: Int) throws {
        path = file.path
        self.pixelSize = pixelSize
        var library: FT_Library?
        try freeTypeCall(
            "FT_Init_FreeType", "could not start FreeType to draw text", font: path, FT_Init_FreeType(&library))
        guard let library else { preconditionFailure("FT_Init_FreeType succeeded without a library") }
        var face: FT_Face?
        do {
            try freeTypeCall(
                "FT_New_Face", "the font cannot be read as TrueType, OpenType or another font FreeType opens",
                font: path, FT_New_Face(library, path, 0, &face))
            try freeTypeCall(
                "FT_Set_Pixel_Sizes", "the font cannot be drawn \(pixelSize) pixels high", font: path,
                FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize)))
        } catch {
            if let face { FT_Done_Face(face) }
            FT_Done_FreeType(library)
            throw error
        }
        guard let face, let font = hb_ft_font_create_referenced(face), let buffer = hb_buffer_create() else {
            preconditionFailure("FreeType gave no face, or HarfBuzz no font or buffer")
        }
        self.library = library
        self.face = face
        self.font = font
        self.buffer = buffer
        let metrics = face.pointee.size.pointee.metrics
        ascent = Int((metrics.ascender + 63) >> 6)
        descent = Int((-metrics.descender + 63) >> 6)
    }

    deinit {
        hb_buffer_destroy(buffer)
        hb_font_destroy(font)
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// `text` as one line: shaped by HarfBuzz (its direction and script guessed from the text), each
    /// glyph drawn where shaping puts it.
    func line(_ text: String) -> TextLine {
        let (placed, advance) = shape(text)
        return TextLine(placing: placed, advance: advance, ascent: ascent, descent: descent) { glyphBitmap($0) }
    }

    /// The glyphs HarfBuzz chooses for `text` and where it places them, left to right, and the line's
    /// advance, in 1/64 pixels.
    func shape(_ text: String) -> (glyphs: [PlacedGlyph], advance: Int) {
        hb_buffer_reset(buffer)
        hb_buffer_add_utf8(buffer, text, -1, 0, -1)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        var placed: [PlacedGlyph] = []
        var (x, y) = (0, 0)
        for index in 0..<Int(count) {
            guard let infos, let positions else { break }
            let position = positions[index]
            placed.append(
                PlacedGlyph(
                    glyph: infos[index].codepoint, x: x + Int(position.x_offset), y: y + Int(position.y_offset)))
            x += Int(position.x_advance)
            y += Int(position.y_advance)
        }
        return (placed, x)
    }

    /// Whether the font has a glyph for every character of `text` (HarfBuzz gives glyph 0 for one it lacks).
    func covers(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            var glyph: hb_codepoint_t = 0
            return scalar.properties.generalCategory == .control
                || hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0
        }
    }

    /// The glyph's coverage, rendered on first use.
    private func glyphBitmap(_ glyph: UInt32) -> GlyphBitmap {
        if let known = bitmaps[glyph] { return known }
        var bitmap = GlyphBitmap(left: 0, top: 0, width: 0, rows: 0, coverage: [])
        if FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_RENDER)) == 0, let slot = face.pointee.glyph {
            let rendered = slot.pointee.bitmap
            let (width, rows, pitch) = (Int(rendered.width), Int(rendered.rows), Int(rendered.pitch))
            var coverage = [UInt8](repeating: 0, count: width * rows)
            if let pixels = rendered.buffer, rendered.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) {
                for row in 0..<rows {
                    let start = pitch >= 0 ? row * pitch : (rows - 1 - row) * -pitch
                    for column in 0..<width { coverage[row * width + column] = pixels[start + column] }
                }
            }
            bitmap = GlyphBitmap(
                left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), width: width, rows: rows,
                coverage: coverage)
        }
        bitmaps[glyph] = bitmap
        return bitmap
    }
}
