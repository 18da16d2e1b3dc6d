/// A picture in planar Y'CbCr, 8 bits a sample (or 10, in ``deep``): the encoder's input, in the
/// ``PictureFormat`` its encoder takes (4:2:0 without alpha for H.264, HEVC and AV1; for ProRes
/// 4:2:2 or 4:4:4 at 10 bits, with or without alpha, only in ``deep``).
///
/// The luma plane is `width x height`; each chroma plane is the size ``ChromaFormat/chromaSize(width:height:)``
/// gives (`width/2 x height/2` for 4:2:0); the alpha plane, when the format has one, is the luma
/// plane's size. Rows are tightly packed, and the sides fit the chroma format whole (even for 4:2:0).
package struct YUVPicture: Sendable {
    package let width: Int
    package let height: Int
    /// The chroma format, bit depth and alpha of the picture.
    package let format: PictureFormat
    package var luma: [UInt8]
    package var cb: [UInt8]
    package var cr: [UInt8]
    /// The alpha plane, for a format that has one (255 opaque); `nil` otherwise.
    package var alpha: [UInt8]?
    /// The picture at 10 bits, when it was converted from 16-bit samples; the 8-bit planes are then
    /// not used. Encoders at 10 bits take these, or the 8-bit planes scaled exactly.
    package var deep: DeepPlanes?
    /// The picture as packed RGBA, 4 bytes a pixel, for a ``PictureFormat/isPackedRGBA`` format
    /// (whose Y'CbCr planes are then empty); empty otherwise.
    package var rgba: [UInt8] = []

    /// A black (video-range) picture of `format`.
    package init(width: Int, height: Int, format: PictureFormat = .yuv420) {
        precondition(
            width > 0 && height > 0 && format.chroma.fitsWhole(width: width, height: height),
            "\(format.chroma) does not fit \(width)x\(height)")
        self.width = width
        self.height = height
        self.format = format
        let chroma = format.chroma.chromaSize(width: width, height: height)
        if format.isPackedRGBA {
            (luma, cb, cr) = ([], [], [])
            rgba = [UInt8](repeating: 255, count: width * height * 4)
            return
        }
        if format.isConvertedAtTenBits {
            // Only 10-bit planes: black, and opaque where there is alpha.
            (luma, cb, cr) = ([], [], [])
            deep = DeepPlanes(
                luma: [UInt16](repeating: 64, count: width * height),
                cb: [UInt16](repeating: 512, count: chroma.width * chroma.height),
                cr: [UInt16](repeating: 512, count: chroma.width * chroma.height),
                alpha: format.hasAlpha ? [UInt16](repeating: 1023, count: width * height) : nil)
            return
        }
        luma = [UInt8](repeating: 16, count: width * height)
        cb = [UInt8](repeating: 128, count: chroma.width * chroma.height)
        cr = [UInt8](repeating: 128, count: chroma.width * chroma.height)
        alpha = format.hasAlpha ? [UInt8](repeating: 255, count: width * height) : nil
    }

    /// A 4:2:0 picture of planes made elsewhere: `luma` of `width x height` samples, `cb` and `cr` of a quarter.
    init(width: Int, height: Int, luma: [UInt8], cb: [UInt8], cr: [UInt8]) {
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "planes \(width)x\(height)")
        precondition(luma.count == width * height && cb.count == luma.count / 4 && cr.count == cb.count)
        self.width = width
        self.height = height
        format = .yuv420
        self.luma = luma
        self.cb = cb
        self.cr = cr
    }
}

extension YUVPicture {
    /// The picture as 10-bit planes in 16-bit words: the ``deep`` planes, or the 8-bit planes scaled
    /// exactly (`v << 2`).
    package var tenBitPlanes: DeepPlanes {
        deep ?? DeepPlanes(luma: luma.widenedToTenBits(), cb: cb.widenedToTenBits(), cr: cr.widenedToTenBits())
    }
}

extension Array where Element == UInt8 {
    /// The samples as 10-bit values in 16-bit words, each scaled exactly (`v << 2`), for encoders
    /// that take 10-bit pictures in 16-bit words.
    func widenedToTenBits() -> [UInt16] {
        [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized in
            withUnsafeBufferPointer { source in
                for index in 0..<source.count { buffer[index] = UInt16(source[index]) << 2 }
            }
            initialized = count
        }
    }
}

/// Runs `body` with the byte addresses of three planes of 8- or 16-bit samples, valid during the call
/// only: what every encoder is handed (each copies the planes into frames of its own before returning).
func withPlaneAddresses<Sample, Result>(
    _ luma: [Sample], _ cb: [Sample], _ cr: [Sample],
    _ body: (
        _ luma: UnsafeMutablePointer<UInt8>?, _ cb: UnsafeMutablePointer<UInt8>?, _ cr: UnsafeMutablePointer<UInt8>?
    )
        throws -> Result
) rethrows -> Result {
    try luma.withUnsafeBytes { luma in
        try cb.withUnsafeBytes { cb in
            try cr.withUnsafeBytes { cr in
                func bytes(_ plane: UnsafeRawBufferPointer) -> UnsafeMutablePointer<UInt8>? {
                    UnsafeMutablePointer(mutating: plane.baseAddress?.assumingMemoryBound(to: UInt8.self))
                }
                return try body(bytes(luma), bytes(cb), bytes(cr))
            }
        }
    }
}

extension Array where Element == UInt16 {
    /// Makes the array hold exactly `count` samples, keeping its storage when it already does (the
    /// samples are then whatever they were: the caller writes every one).
    mutating func ensureCount(_ count: Int) {
        if self.count != count { self = [UInt16](repeating: 0, count: count) }
    }
}
