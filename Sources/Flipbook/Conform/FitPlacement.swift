/// A rectangle of pixels: origin at the top left, sides in whole pixels.
struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// Where an image goes in the movie's picture under a ``FitPolicy``: which part of the image is used
/// and the rectangle of the picture it is scaled into. The rest of the picture is background.
struct FitPlacement: Sendable, Hashable {
    /// The part of the source image used (smaller than the image only for `.cover`).
    var source: PixelRect
    /// Where that part lands in the picture (smaller than the picture only for `.contain`).
    var destination: PixelRect

    /// The placement of a `sourceWidth` x `sourceHeight` image in a `width` x `height` picture.
    ///
    /// Sizes are rounded to the nearest pixel and bands are centred (an odd leftover pixel goes to the
    /// right or bottom band). Integer arithmetic throughout, so the result is exact and repeatable.
    init(sourceWidth sw: Int, sourceHeight sh: Int, width: Int, height: Int, fit: FitPolicy) {
        let whole = PixelRect(x: 0, y: 0, width: sw, height: sh)
        let picture = PixelRect(x: 0, y: 0, width: width, height: height)
        // Compared as cross products: is the source wider (relative to its height) than the picture?
        let sourceIsWider = sw * height >= sh * width
        switch fit {
        case .stretch:
            self.init(source: whole, destination: picture)
        case .cover:
            if sourceIsWider {
                let used = max(1, min(sw, roundedQuotient(width * sh, height)))
                self.init(source: PixelRect(x: (sw - used) / 2, y: 0, width: used, height: sh), destination: picture)
            } else {
                let used = max(1, min(sh, roundedQuotient(height * sw, width)))
                self.init(source: PixelRect(x: 0, y: (sh - used) / 2, width: sw, height: used), destination: picture)
            }
        case .contain:
            var placedWidth = sw
            var placedHeight = sh
            let nearlyFits = sw <= width && sh <= height && width - sw <= 1 && height - sh <= 1
            if !nearlyFits {
                if sourceIsWider {
                    placedWidth = width
                    placedHeight = max(1, min(height, roundedQuotient(sh * width, sw)))
                } else {
                    placedHeight = height
                    placedWidth = max(1, min(width, roundedQuotient(sw * height, sh)))
                }
            }
            self.init(
                source: whole,
                destination: PixelRect(
                    x: (width - placedWidth) / 2, y: (height - placedHeight) / 2, width: placedWidth,
                    height: placedHeight))
        }
    }

    init(source: PixelRect, destination: PixelRect) {
        self.source = source
        self.destination = destination
    }
}

/// `numerator / denominator` rounded to the nearest integer (halves up), for positive values.
private func roundedQuotient(_ numerator: Int, _ denominator: Int) -> Int {
    (2 * numerator + denominator) / (2 * denominator)
}
