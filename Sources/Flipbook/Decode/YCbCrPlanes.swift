/// A JPEG decoded to its Y'CbCr planes as stored (full-range BT.601, as JFIF defines them), or a lossy
/// WebP to its own (limited-range BT.601, ``limitedRange``), without upsampling chroma or converting
/// to RGB: what ``FramePreparer`` converts straight to the movie's YUV 4:2:0.
///
/// Width and height are even. Chroma planes are half as wide as luma unless ``chromaFullWidth``,
/// half as high unless ``chromaFullHeight`` (4:2:0 is neither, 4:2:2 is full height, 4:4:4 both).
/// Rows are tightly packed.
package struct YCbCrPlanes: Sendable {
    package let width: Int
    package let height: Int
    /// The colour the image's file states.
    package var sourceColour = SourceColour.unstated
    let chromaFullWidth: Bool
    let chromaFullHeight: Bool
    /// Whether codes are in the limited range (luma 16-235, chroma 16-240: WebP) instead of the full range (JPEG).
    let limitedRange: Bool
    var luma: [UInt8]
    var cb: [UInt8]
    var cr: [UInt8]

    var chromaWidth: Int { chromaFullWidth ? width : width / 2 }
    var chromaHeight: Int { chromaFullHeight ? height : height / 2 }

    package init(
        width: Int, height: Int, chromaFullWidth: Bool, chromaFullHeight: Bool, limitedRange: Bool = false,
        luma: [UInt8], cb: [UInt8], cr: [UInt8]
    ) {
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "planes \(width)x\(height)")
        self.width = width
        self.height = height
        self.chromaFullWidth = chromaFullWidth
        self.chromaFullHeight = chromaFullHeight
        self.limitedRange = limitedRange
        self.luma = luma
        self.cb = cb
        self.cr = cr
        precondition(luma.count == width * height, "\(luma.count) luma samples for \(width)x\(height)")
        precondition(cb.count == chromaWidth * chromaHeight && cr.count == cb.count, "chroma planes' sizes")
    }

    /// The planes turned upright for an EXIF orientation (see `Frame.oriented(_:)`): every plane
    /// turned alike, so a quarter turn keeps 4:2:0 and 4:4:4, and makes 4:2:2 into 4:4:0.
    func oriented(_ orientation: Int) -> YCbCrPlanes {
        guard (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        func turn(_ plane: [UInt8], _ width: Int, _ height: Int) -> [UInt8] {
            PixelKernels.orient(plane: plane, width: width, height: height, orientation: orientation)
        }
        return YCbCrPlanes(
            width: swaps ? height : width, height: swaps ? width : height,
            chromaFullWidth: swaps ? chromaFullHeight : chromaFullWidth,
            chromaFullHeight: swaps ? chromaFullWidth : chromaFullHeight, limitedRange: limitedRange,
            luma: turn(luma, width, height), cb: turn(cb, chromaWidth, chromaHeight),
            cr: turn(cr, chromaWidth, chromaHeight))
    }
}
