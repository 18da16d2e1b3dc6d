/// Draws boxes and text into a prepared picture, in its own samples: after scaling and conversion, so
/// no pass over the whole picture. A box keeps ``keep``/256 of what it covers, brightness and colour
/// alike (luma towards black, chroma towards neutral); text is ``white`` where a glyph covers a
/// sample fully, blended by its coverage where it covers part (a chroma sample by the mean coverage of
/// the luma samples it stands for). Inside a box, alpha is opaque.
struct PictureOverlay: Sendable {
    /// How much of the picture a box keeps, of 256.
    static let keep = 90

    /// White: the coded value (0...1) of the text's light between the range's black and white (1 for a
    /// standard movie, reference white's PQ or HLG code for an HDR one).
    let whiteCode: Double
    /// Whether the samples use the full range (0 to the top code) rather than video range.
    let fullRange: Bool

    /// A box `width x height` at `x`, `y` (inside the picture; even where the chroma is subsampled).
    func drawBox(into picture: inout YUVPicture, x: Int, y: Int, width: Int, height: Int) {
        let (chromaX, chromaY) = Self.subsampling(picture)
        let (pictureWidth, format) = (picture.width, picture.format)
        switch picture.storage {
        case .eightBit:
            let levels = levels(top: 255)
            picture.withEightBitPlanes {
                Self.box(&$0, pictureWidth, format, chromaX, chromaY, x, y, width, height, levels)
            }
        case .tenBit:
            let levels = levels(top: 1023)
            picture.withDeepPlanes {
                Self.box(&$0, pictureWidth, format, chromaX, chromaY, x, y, width, height, levels)
            }
        case .rgba:
            picture.withRGBA { pixels in
                for row in y..<y + height {
                    for column in x..<x + width {
                        let offset = (row * pictureWidth + column) * 4
                        for channel in 0..<3 {
                            pixels[offset + channel] = UInt8(Int(pixels[offset + channel]) * Self.keep / 256)
                        }
                        pixels[offset + 3] = 255
                    }
                }
            }
        }
    }

    /// `line` with its top-left corner at `x`, `y`; the part outside the picture is cut.
    func draw(_ line: TextLine, into picture: inout YUVPicture, x: Int, y: Int) {
        let (chromaX, chromaY) = Self.subsampling(picture)
        let pictureWidth = picture.width
        let visible = Visible(line: line, x: x, y: y, pictureWidth: picture.width, pictureHeight: picture.height)
        guard !visible.isEmpty else { return }
        switch picture.storage {
        case .eightBit:
            let levels = levels(top: 255)
            picture.withEightBitPlanes { Self.text(&$0, pictureWidth, chromaX, chromaY, line, visible, levels) }
        case .tenBit:
            let levels = levels(top: 1023)
            picture.withDeepPlanes { Self.text(&$0, pictureWidth, chromaX, chromaY, line, visible, levels) }
        case .rgba:
            picture.withRGBA { pixels in
                for row in visible.rows {
                    for column in visible.columns {
                        let cover = Int(line.coverage[(row - y) * line.width + column - x])
                        guard cover > 0 else { continue }
                        let offset = (row * pictureWidth + column) * 4
                        for channel in 0..<3 {
                            let value = Int(pixels[offset + channel])
                            pixels[offset + channel] = UInt8(value + ((255 - value) * cover + 127) / 255)
                        }
                    }
                }
            }
        }
    }

    /// The picture's black, white, neutral chroma and opaque alpha for samples up to `top`.
    private func levels(top: Int) -> Levels {
        let black = fullRange ? 0 : (top + 1) / 16
        let peak = fullRange ? top : (top + 1) * 235 / 256
        return Levels(
            black: black, white: black + Int((Double(peak - black) * whiteCode).rounded()), neutral: (top + 1) / 2,
            opaque: top)
    }

    /// Luma samples a chroma sample stands for, across and down.
    private static func subsampling(_ picture: YUVPicture) -> (Int, Int) {
        let chroma = picture.format.chroma.chromaSize(width: picture.width, height: picture.height)
        return (picture.width / chroma.width, picture.height / chroma.height)
    }

    private struct Levels {
        let black: Int
        let white: Int
        let neutral: Int
        let opaque: Int
    }

    /// The part of a line at `x`, `y` inside the picture, in the picture's rows and columns.
    private struct Visible {
        /// Where the line's top-left corner is.
        let x: Int
        let y: Int
        let rows: Range<Int>
        let columns: Range<Int>
        var isEmpty: Bool { rows.isEmpty || columns.isEmpty }

        init(line: TextLine, x: Int, y: Int, pictureWidth: Int, pictureHeight: Int) {
            self.x = x
            self.y = y
            rows = max(0, y)..<max(max(0, y), min(pictureHeight, y + line.height))
            columns = max(0, x)..<max(max(0, x), min(pictureWidth, x + line.width))
        }
    }

    private static func box<Sample>(
        _ planes: inout PicturePlanes<Sample>, _ width: Int, _ format: PictureFormat, _ chromaX: Int, _ chromaY: Int,
        _ x: Int, _ y: Int, _ boxWidth: Int, _ boxHeight: Int, _ levels: Levels
    ) {
        for row in y..<y + boxHeight {
            for column in x..<x + boxWidth {
                let value = Int(planes.luma[row * width + column])
                planes.luma[row * width + column] = Sample(levels.black + (value - levels.black) * keep / 256)
            }
        }
        if planes.alpha != nil {
            for row in y..<y + boxHeight {
                for column in x..<x + boxWidth { planes.alpha![row * width + column] = Sample(levels.opaque) }
            }
        }
        let chromaWidth = width / chromaX
        for row in y / chromaY..<(y + boxHeight + chromaY - 1) / chromaY {
            for column in x / chromaX..<(x + boxWidth + chromaX - 1) / chromaX {
                let index = row * chromaWidth + column
                let (cb, cr) = (Int(planes.cb[index]), Int(planes.cr[index]))
                planes.cb[index] = Sample(levels.neutral + (cb - levels.neutral) * keep / 256)
                planes.cr[index] = Sample(levels.neutral + (cr - levels.neutral) * keep / 256)
            }
        }
    }

    private static func text<Sample>(
        _ planes: inout PicturePlanes<Sample>, _ width: Int, _ chromaX: Int, _ chromaY: Int, _ line: TextLine,
        _ visible: Visible, _ levels: Levels
    ) {
        func cover(_ row: Int, _ column: Int) -> Int {
            guard visible.rows.contains(row) && visible.columns.contains(column) else { return 0 }
            return Int(line.coverage[(row - visible.y) * line.width + column - visible.x])
        }
        for row in visible.rows {
            for column in visible.columns {
                let cover = cover(row, column)
                guard cover > 0 else { continue }
                let value = Int(planes.luma[row * width + column])
                planes.luma[row * width + column] = Sample(value + ((levels.white - value) * cover + 127) / 255)
            }
        }
        let chromaWidth = width / chromaX
        let area = chromaX * chromaY
        for row in visible.rows.lowerBound / chromaY..<(visible.rows.upperBound + chromaY - 1) / chromaY {
            for column in visible.columns.lowerBound / chromaX..<(visible.columns.upperBound + chromaX - 1) / chromaX {
                var total = 0
                for down in 0..<chromaY {
                    for across in 0..<chromaX { total += cover(row * chromaY + down, column * chromaX + across) }
                }
                guard total > 0 else { continue }
                let index = row * chromaWidth + column
                let (cb, cr) = (Int(planes.cb[index]), Int(planes.cr[index]))
                let scale = 255 * area
                planes.cb[index] = Sample(cb + ((levels.neutral - cb) * total + scale / 2) / scale)
                planes.cr[index] = Sample(cr + ((levels.neutral - cr) * total + scale / 2) / scale)
            }
        }
    }
}
