/// Bounds on the images Flipbook decodes, checked from the header before any pixel memory is taken.
///
/// They stop decompression bombs: a few hundred bytes of PNG can declare 100000x100000 pixels,
/// which would need 40 GB. With the defaults an image takes at most 1 GiB as RGBA.
public struct ImageLimits: Sendable, Hashable {
    /// The largest width or height accepted, in pixels (default 16384).
    public var maxDimension: Int
    /// The largest width x height accepted (default 2^28, 268435456).
    public var maxPixels: Int
    /// The most scans a JPEG may have (default 500). A progressive JPEG has about ten; thousands of
    /// tiny scans make a small file that takes minutes to decode.
    public var maxJPEGScans: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maxDimension: The largest width or height accepted, in pixels.
    ///   - maxPixels: The largest width x height accepted.
    ///   - maxJPEGScans: The most scans a JPEG may have.
    public init(maxDimension: Int = 16384, maxPixels: Int = 1 << 28, maxJPEGScans: Int = 500) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
        self.maxJPEGScans = maxJPEGScans
    }

    /// Throws ``FlipbookError/Code/unsupportedImage`` when an image of this size is out of bounds,
    /// ``FlipbookError/Code/corruptImage`` when it declares no pixels.
    func check(width: Int, height: Int) throws {
        guard width > 0, height > 0 else {
            throw FlipbookError(.corruptImage, "the image declares an empty size \(width)x\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width <= maxDimension, height <= maxDimension, !overflow, pixels <= maxPixels else {
            throw FlipbookError(
                .unsupportedImage,
                "the image is \(width)x\(height) pixels, over the limit of \(maxDimension) a side and "
                    + "\(maxPixels) pixels in all; shrink it, or raise the limits (ImageLimits; the tool's --max-image-side and --max-image-pixels) if such images are expected"
            )
        }
    }
}
