/// Converts 8-bit RGB frames to Y'CbCr in the picture's ``PictureFormat`` (4:2:0 for today's codecs)
/// with a stated matrix and range.
///
/// Luma is computed for every pixel; chroma from the mean of each block of RGB the chroma format
/// samples (2x2 for 4:2:0, 2x1 for 4:2:2, each pixel for 4:4:4). The arithmetic
/// is 16.16 fixed point with rounding, so a flat colour converts to the nearest code values. The loop
/// itself is C (`CFlipbookPixels`), vectorised, about a millisecond a 1080p frame.
package struct RGBToYUVConverter: Sendable {
    let matrix: ColourMatrix
    let coefficients: FixedPointCoefficients

    package init(matrix: ColourMatrix) {
        self.matrix = matrix
        coefficients = matrix.fixedPoint
    }

    /// Converts a frame of the picture's size with every pixel first composited over `background`
    /// by its alpha, in the same pass (the result is the same as compositing into RGB first).
    package func convert(_ frame: Frame, over background: RGBColour, into picture: inout YUVPicture) {
        precondition(
            frame.width == picture.width && frame.height == picture.height,
            "frame \(frame.width)x\(frame.height) into picture \(picture.width)x\(picture.height)")
        guard picture.format.isYUV420WithoutAlpha else {
            // The plain loop composites nothing: a picture with alpha keeps it; one without takes
            // the frame flattened over the background first.
            let flat =
                picture.format.hasAlpha
                ? frame
                : (try? Frame(
                    width: frame.width, height: frame.height, format: .rgb,
                    pixels: frame.compositedRGB(
                        region: PixelRect(x: 0, y: 0, width: frame.width, height: frame.height), over: background)))
                    ?? frame
            PixelKernels.rgbToYUV(flat, coefficients: coefficients, into: &picture)
            return
        }
        PixelKernels.rgbToYUV420(frame, coefficients: coefficients, over: background, into: &picture)
    }

    /// Writes `frame` into `picture`, which has the same (even) size, and returns whether every
    /// pixel was opaque (alpha is otherwise ignored: translucent frames are composited first).
    @discardableResult
    package func convert(_ frame: Frame, into picture: inout YUVPicture) -> Bool {
        precondition(
            frame.width == picture.width && frame.height == picture.height,
            "frame \(frame.width)x\(frame.height) into picture \(picture.width)x\(picture.height)")
        return PixelKernels.rgbToYUV(frame, coefficients: coefficients, into: &picture)
    }
}
