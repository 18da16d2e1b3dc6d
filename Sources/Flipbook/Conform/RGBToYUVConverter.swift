/// Converts 8-bit RGB frames to YUV 4:2:0 with a stated matrix and range.
///
/// Luma is computed for every pixel; chroma from the mean of each 2x2 block of RGB. The arithmetic
/// is 16.16 fixed point with rounding, so a flat colour converts to the nearest code values.
package struct RGBToYUVConverter: Sendable {
    let matrix: ColourMatrix
    private let coefficients: FixedPointCoefficients

    package init(matrix: ColourMatrix) {
        self.matrix = matrix
        coefficients = matrix.fixedPoint
    }

    /// Writes `frame` into `picture`, which has the same (even) size.
    package func convert(_ frame: Frame, into picture: inout YUVPicture) {
        precondition(
            frame.width == picture.width && frame.height == picture.height,
            "frame \(frame.width)x\(frame.height) into picture \(picture.width)x\(picture.height)")
        convert(frame, luma: &picture.luma, cb: &picture.cb, cr: &picture.cr)
    }

    private func convert(
        _ frame: Frame, luma lumaPlane: inout [UInt8], cb cbPlane: inout [UInt8], cr crPlane: inout [UInt8]
    ) {
        let c = coefficients
        let (rOff, gOff, bOff) = frame.format.channelOffsets
        let bpp = frame.format.bytesPerPixel
        let stride = frame.bytesPerRow
        let width = frame.width
        let chromaWidth = width / 2
        let lumaRound = (c.lumaOffset << 16) + (1 << 15)
        let chromaRound: Int32 = (128 << 18) + (1 << 17)
        let source = frame.pixels.span
        var luma = lumaPlane.mutableSpan
        var cb = cbPlane.mutableSpan
        var cr = crPlane.mutableSpan

        @inline(__always) func lumaCode(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
            UInt8(truncatingIfNeeded: (c.yR &* r &+ c.yG &* g &+ c.yB &* b &+ lumaRound) >> 16)
        }

        for blockRow in 0..<(frame.height / 2) {
            var top = 2 * blockRow * stride
            var bottom = top + stride
            var lumaTop = 2 * blockRow * width
            var lumaBottom = lumaTop + width
            let chromaRow = blockRow * chromaWidth
            for blockColumn in 0..<chromaWidth {
                let r0 = Int32(source[top + rOff])
                let g0 = Int32(source[top + gOff])
                let b0 = Int32(source[top + bOff])
                let r1 = Int32(source[top + bpp + rOff])
                let g1 = Int32(source[top + bpp + gOff])
                let b1 = Int32(source[top + bpp + bOff])
                let r2 = Int32(source[bottom + rOff])
                let g2 = Int32(source[bottom + gOff])
                let b2 = Int32(source[bottom + bOff])
                let r3 = Int32(source[bottom + bpp + rOff])
                let g3 = Int32(source[bottom + bpp + gOff])
                let b3 = Int32(source[bottom + bpp + bOff])
                luma[lumaTop] = lumaCode(r0, g0, b0)
                luma[lumaTop + 1] = lumaCode(r1, g1, b1)
                luma[lumaBottom] = lumaCode(r2, g2, b2)
                luma[lumaBottom + 1] = lumaCode(r3, g3, b3)
                let sumR = r0 + r1 + r2 + r3
                let sumG = g0 + g1 + g2 + g3
                let sumB = b0 + b1 + b2 + b3
                let u = (c.cbR &* sumR &+ c.cbG &* sumG &+ c.cbB &* sumB &+ chromaRound) >> 18
                let v = (c.crR &* sumR &+ c.crG &* sumG &+ c.crB &* sumB &+ chromaRound) >> 18
                cb[chromaRow + blockColumn] = UInt8(clamping: u)
                cr[chromaRow + blockColumn] = UInt8(clamping: v)
                top += 2 * bpp
                bottom += 2 * bpp
                lumaTop += 2
                lumaBottom += 2
            }
        }
    }
}
