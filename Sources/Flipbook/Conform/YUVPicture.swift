/// A picture in planar YUV 4:2:0, 8 bits a sample: the encoder's input.
///
/// The luma plane is `width x height`; each chroma plane is `width/2 x height/2`. Rows are tightly
/// packed. Width and height are even.
package struct YUVPicture: Sendable {
    package let width: Int
    package let height: Int
    package var luma: [UInt8]
    package var cb: [UInt8]
    package var cr: [UInt8]
    /// The picture at 10 bits, when it was converted from 16-bit samples; the 8-bit planes are then
    /// not used. Encoders at 10 bits take these, or the 8-bit planes scaled exactly.
    package var deep: DeepPlanes?

    package init(width: Int, height: Int) {
        precondition(
            width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0,
            "4:2:0 needs even sizes, got \(width)x\(height)")
        self.width = width
        self.height = height
        luma = [UInt8](repeating: 16, count: width * height)
        cb = [UInt8](repeating: 128, count: width * height / 4)
        cr = [UInt8](repeating: 128, count: width * height / 4)
    }

    /// A picture of planes made elsewhere: `luma` of `width x height` samples, `cb` and `cr` of a quarter.
    init(width: Int, height: Int, luma: [UInt8], cb: [UInt8], cr: [UInt8]) {
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "planes \(width)x\(height)")
        precondition(luma.count == width * height && cb.count == luma.count / 4 && cr.count == cb.count)
        self.width = width
        self.height = height
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
