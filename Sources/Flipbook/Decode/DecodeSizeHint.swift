/// The size and fit an image will be drawn at in the movie, so that a decoder that can scale while
/// decoding (JPEG) makes no more pixels than the picture needs.
///
/// A hint never changes where or how large the image appears: a scaled decode is used only when it
/// lands in the same rectangle of the picture and still has at least as many pixels as that
/// rectangle in both directions, so the image is only ever shrunk afterwards, never enlarged.
package struct DecodeSizeHint: Sendable, Hashable {
    /// The movie's width in pixels.
    package var width: Int
    /// The movie's height in pixels.
    package var height: Int
    /// How the image is fitted into the movie.
    package var fit: FitPolicy

    /// A hint for a movie of `width` x `height` pixels.
    package init(width: Int, height: Int, fit: FitPolicy) {
        self.width = width
        self.height = height
        self.fit = fit
    }

    /// A hint for a movie of `movieSize` (`nil` when the size is not known yet: no hint).
    package init?(movieSize: FrameSize?, fit: FitPolicy) {
        guard let movieSize else { return nil }
        self.init(width: movieSize.width, height: movieSize.height, fit: fit)
    }

    /// The smallest of `factors` at which a `storedWidth` x `storedHeight` image (as stored, before an
    /// orientation that may swap its sides) can be decoded and still be drawn as the whole image is,
    /// or ``DecodeScale/one`` when none is smaller.
    func smallestScale(
        storedWidth: Int, storedHeight: Int, swapsSides: Bool, among factors: [DecodeScale]
    ) -> DecodeScale {
        func upright(_ width: Int, _ height: Int) -> (Int, Int) { swapsSides ? (height, width) : (width, height) }
        let (fullWidth, fullHeight) = upright(storedWidth, storedHeight)
        let whole = FitPlacement(
            sourceWidth: fullWidth, sourceHeight: fullHeight, width: width, height: height, fit: fit)
        var best = DecodeScale.one
        for factor in factors where factor < best {
            let (scaledWidth, scaledHeight) = upright(factor.scaled(storedWidth), factor.scaled(storedHeight))
            let placement = FitPlacement(
                sourceWidth: scaledWidth, sourceHeight: scaledHeight, width: width, height: height, fit: fit)
            if placement.destination == whole.destination && placement.source.width >= placement.destination.width
                && placement.source.height >= placement.destination.height
            {
                best = factor
            }
        }
        return best
    }
}

/// A scaling factor a decoder applies while decoding: `numerator / denominator`, each side rounded up.
struct DecodeScale: Sendable, Hashable, Comparable, CustomStringConvertible {
    var numerator: Int
    var denominator: Int

    /// Full size.
    static let one = DecodeScale(numerator: 1, denominator: 1)

    /// A side of `length` pixels at this scale, rounded up (as libjpeg's `TJSCALED` does).
    func scaled(_ length: Int) -> Int {
        (length * numerator + denominator - 1) / denominator
    }

    static func < (a: DecodeScale, b: DecodeScale) -> Bool {
        a.numerator * b.denominator < b.numerator * a.denominator
    }

    var description: String { "\(numerator)/\(denominator)" }
}
