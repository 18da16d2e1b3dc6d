/// Converts 8-bit RGB frames to YUV 4:2:0 with a stated matrix and range.
///
/// Luma is computed for every pixel; chroma from the mean of each 2x2 block of RGB. The arithmetic
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
        PixelKernels.rgbToYUV420(frame, coefficients: coefficients, over: background, into: &picture)
    }

    /// Writes `frame` into `picture`, which has the same (even) size, and returns whether every
    /// pixel was opaque (alpha is otherwise ignored: translucent frames are composited first).
    @discardableResult
    package func convert(_ frame: Frame, into picture: inout YUVPicture) -> Bool {
        precondition(
            frame.width == picture.width && frame.height == picture.height,
            "frame \(frame.width)x\(frame.height) into picture \(picture.width)x\(picture.height)")
        return PixelKernels.rgbToYUV420(frame, coefficients: coefficients, into: &picture)
    }
}
