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
    /// The most pixels all the frames of one animated GIF, APNG or WebP may have together: frames x
    /// canvas width x height (default 2^34, about 8,000 frames of 1920x1080), checked from the file's
    /// structure before any frame is decoded. A few kilobytes of GIF can declare thousands of frames
    /// on a 16384x16384 canvas.
    public var maxAnimationPixels: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maxDimension: The largest width or height accepted, in pixels.
    ///   - maxPixels: The largest width x height accepted.
    ///   - maxJPEGScans: The most scans a JPEG may have.
    ///   - maxAnimationPixels: The most pixels of all the frames of one animation together.
    public init(
        maxDimension: Int = 16384, maxPixels: Int = 1 << 28, maxJPEGScans: Int = 500, maxAnimationPixels: Int = 1 << 34
    ) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
        self.maxJPEGScans = maxJPEGScans
        self.maxAnimationPixels = maxAnimationPixels
    }

    /// Throws ``FlipbookError/Code/unsupportedImage`` when an image of this size is out of bounds,
    /// ``FlipbookError/Code/corruptImage`` when it declares no pixels.
    func check(width: Int, height: Int) throws {
        guard width > 0, height > 0 else {
            throw FlipbookError.imageSizeEmpty(width: width, height: height)
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width <= maxDimension, height <= maxDimension, !overflow, pixels <= maxPixels else {
            throw FlipbookError.imageTooLarge(
                width: width, height: height, maxDimension: maxDimension, maxPixels: maxPixels)
        }
    }
}
