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
