/// Converts a JPEG's Y'CbCr planes (full-range BT.601, as JFIF defines them) or a lossy WebP's
/// (limited-range BT.601, as VP8 stores them) to the movie's YUV 4:2:0 with a stated matrix and range,
/// directly: the chroma is never upsampled and no RGB frame is made (the RGB path upsamples chroma,
/// converts to RGB, converts back and averages chroma again).
///
/// The conversion is one 3x3 matrix on (Y', Cb - 128, Cr - 128) and a luma offset: BT.601 to RGB,
/// RGB to the movie's matrix, scaled to its range, folded into 16.16 fixed point. BT.601 out in the
/// source's range is the identity (a copy of 4:2:0 planes); a range change alone scales each plane by
/// itself. The loop is C (`CFlipbookPixels`), vectorised.
package struct JPEGToYUVConverter: Sendable {
    let matrix: ColourMatrix
    /// For full-range planes (JPEG).
    let coefficients: YCbCrCoefficients
    /// For limited-range planes (WebP).
    let limitedRangeCoefficients: YCbCrCoefficients

    package init(matrix: ColourMatrix) {
        self.matrix = matrix
        coefficients = YCbCrCoefficients(to: matrix)
        limitedRangeCoefficients = YCbCrCoefficients(to: matrix, fromLimitedRange: true)
    }

    /// Writes `planes` into `picture`, which has the same (even) size.
    package func convert(_ planes: YCbCrPlanes, into picture: inout YUVPicture) {
        precondition(
            planes.width == picture.width && planes.height == picture.height,
            "planes \(planes.width)x\(planes.height) into picture \(picture.width)x\(picture.height)")
        PixelKernels.ycbcrToYUV420(planes, coefficients: coefficients(for: planes), into: &picture)
    }

    /// The luma plane alone of ``convert(_:into:)``.
    func luma(of planes: YCbCrPlanes) -> [UInt8] {
        PixelKernels.ycbcrLuma(planes, coefficients: coefficients(for: planes))
    }

    /// The chroma planes alone of ``convert(_:into:)`` (which depend on Cb and Cr, not on luma).
    func chroma(of planes: YCbCrPlanes) -> (cb: [UInt8], cr: [UInt8]) {
        PixelKernels.ycbcrChroma(planes, coefficients: coefficients(for: planes))
    }

    private func coefficients(for planes: YCbCrPlanes) -> YCbCrCoefficients {
        planes.limitedRange ? limitedRangeCoefficients : coefficients
    }
}

/// BT.601 Y'CbCr to another matrix and range: 16.16 fixed-point weights of (Y', Cb - 128, Cr - 128)
/// for each output, and the luma output's offset (16.16, after the weights; 128 is added to chroma).
struct YCbCrCoefficients: Sendable, Equatable {
    let yY: Int32, yCb: Int32, yCr: Int32
    let cbY: Int32, cbCb: Int32, cbCr: Int32
    let crY: Int32, crCb: Int32, crCr: Int32
    let lumaOffset: Int32

    /// The weights that take JFIF's Y'CbCr (full range) to `matrix`, or, `fromLimitedRange`, BT.601
    /// Y'CbCr in the limited range (codes 16 + 219 x E'Y, 128 + 224 x E'Pb and E'Pr).
    init(to matrix: ColourMatrix, fromLimitedRange: Bool = false) {
        // JFIF: BT.601 weights, full range (codes are 255 x E'Y, 255 x E'Pb + 128, 255 x E'Pr + 128).
        let (sourceKr, sourceKb) = (0.299, 0.114)
        // A limited-range source's codes stretched to full range first (its luma's 16 taken off below).
        let sourceLuma = fromLimitedRange ? 255.0 / 219.0 : 1
        let sourceChroma = fromLimitedRange ? 255.0 / 224.0 : 1
        let kg = 1 - matrix.kr - matrix.kb
        let lumaScale = matrix.fullRange ? 1.0 : 219.0 / 255.0
        let chromaScale = matrix.fullRange ? 1.0 : 224.0 / 255.0
        // One column of the matrix: the output for a unit of one input.
        func column(_ y: Double, _ cb: Double, _ cr: Double) -> (Double, Double, Double) {
            let red = y + 2 * (1 - sourceKr) * cr
            let blue = y + 2 * (1 - sourceKb) * cb
            let green = (y - sourceKr * red - sourceKb * blue) / (1 - sourceKr - sourceKb)
            let luma = matrix.kr * red + kg * green + matrix.kb * blue
            return (
                luma * lumaScale, (blue - luma) / (2 * (1 - matrix.kb)) * chromaScale,
                (red - luma) / (2 * (1 - matrix.kr)) * chromaScale
            )
        }
        // Rounded to 2^-16: terms that cancel (1e-17 for BT.601 to BT.601) become exactly 0 and 1.
        func fixed(_ value: Double) -> Int32 { Int32((value * 65536).rounded()) }
        let fromY = column(sourceLuma, 0, 0)
        let fromCb = column(0, sourceChroma, 0)
        let fromCr = column(0, 0, sourceChroma)
        yY = fixed(fromY.0)
        yCb = fixed(fromCb.0)
        yCr = fixed(fromCr.0)
        cbY = fixed(fromY.1)
        cbCb = fixed(fromCb.1)
        cbCr = fixed(fromCr.1)
        crY = fixed(fromY.2)
        crCb = fixed(fromCb.2)
        crCr = fixed(fromCr.2)
        // The output's black level, less the source's (16 x the luma weight) for a limited source.
        let outputBlack: Int32 = matrix.fullRange ? 0 : 16 << 16
        lumaOffset = outputBlack - (fromLimitedRange ? 16 * yY : 0)
    }
}
