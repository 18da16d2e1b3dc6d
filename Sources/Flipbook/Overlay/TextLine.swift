/// One line of text as coverage: `width x height` values, 0 (none) to 255 (the glyph's ink), the
/// baseline `ascent` rows from the top. What ``FontFace`` renders and ``PictureOverlay`` draws.
struct TextLine: Sendable, Equatable {
    let width: Int
    let height: Int
    /// Rows from the top of the line to its baseline.
    let ascent: Int
    /// Row by row, `width` values a row.
    let coverage: [UInt8]

    /// A line with no ink, `height` rows of `width`.
    static func empty(width: Int, height: Int, ascent: Int) -> TextLine {
        TextLine(width: width, height: height, ascent: ascent, coverage: [UInt8](repeating: 0, count: width * height))
    }
}

/// A glyph FreeType rendered: its coverage and where it sits from the pen on the baseline.
struct GlyphBitmap: Sendable {
    /// Columns from the pen to the bitmap's left edge.
    let left: Int
    /// Rows from the baseline up to the bitmap's top edge.
    let top: Int
    let width: Int
    let rows: Int
    /// Row by row, `width` values a row.
    let coverage: [UInt8]
}

/// A glyph placed by shaping: which one, and where its pen stands, in 1/64 pixels from the line's
/// start (x to the right, y up from the baseline).
struct PlacedGlyph: Sendable {
    let glyph: UInt32
    let x: Int
    let y: Int
}

extension TextLine {
    /// The line the `glyphs` make, `advance` 1/64 pixels long, each drawn from `bitmaps`, on a line of
    /// `ascent` pixels above the baseline and `descent` below. Ink outside the line's rows is cut; where
    /// glyphs overlap, the greater coverage holds.
    init(placing glyphs: [PlacedGlyph], advance: Int, ascent: Int, descent: Int, bitmaps: (UInt32) -> GlyphBitmap) {
        var spans: [(bitmap: GlyphBitmap, x: Int, y: Int)] = []
        var right = max(0, (advance + 32) >> 6)
        var left = 0
        for placed in glyphs {
            let bitmap = bitmaps(placed.glyph)
            guard bitmap.width > 0 && bitmap.rows > 0 else { continue }
            let x = ((placed.x + 32) >> 6) + bitmap.left
            let y = ascent - ((placed.y + 32) >> 6) - bitmap.top
            spans.append((bitmap, x, y))
            left = min(left, x)
            right = max(right, x + bitmap.width)
        }
        let width = right - left
        let height = ascent + descent
        var coverage = [UInt8](repeating: 0, count: max(width, 0) * height)
        for (bitmap, x, y) in spans {
            for row in max(0, -y)..<min(bitmap.rows, height - y) {
                let target = (y + row) * width + x - left
                let source = row * bitmap.width
                for column in 0..<bitmap.width {
                    coverage[target + column] = max(coverage[target + column], bitmap.coverage[source + column])
                }
            }
        }
        self.init(width: width, height: height, ascent: ascent, coverage: coverage)
    }
}
