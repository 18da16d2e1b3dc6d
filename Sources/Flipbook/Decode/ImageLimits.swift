/// Bounds on the images Flipbook decodes, checked from the header before any pixel memory is taken.
///
/// They stop decompression bombs: a few hundred bytes of PNG can declare 100000x100000 pixels.
public struct ImageLimits: Sendable, Hashable {
    /// The largest width or height accepted, in pixels.
    public var maxDimension: Int
    /// The largest width x height accepted.
    public var maxPixels: Int

    /// Creates limits.
    public init(maxDimension: Int = 16384, maxPixels: Int = 1 << 28) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
    }

    /// Throws ``FlipbookError/Code/unsupportedImage`` when an image of this size is out of bounds.
    func check(width: Int, height: Int) throws {
        guard width > 0, height > 0 else {
            throw FlipbookError(.corruptImage, "the image declares an empty size \(width)x\(height)")
        }
        guard width <= maxDimension, height <= maxDimension, width * height <= maxPixels else {
            throw FlipbookError(
                .unsupportedImage,
                "the image is \(width)x\(height) pixels, larger than the limit of \(maxDimension) a side "
                    + "and \(maxPixels) pixels")
        }
    }
}
