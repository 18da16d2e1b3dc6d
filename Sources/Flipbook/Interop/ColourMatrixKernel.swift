internal import CFlipbookPixels

/// The matrix/curve conversion of `CFlipbookPixels` (`flipbook_colour_matrix_convert`): tables made
/// once from two profiles by ``LittleCMS``, applied to 8-bit RGB, RGBA or BGRA rows.
final class ColourMatrixKernel: @unchecked Sendable {
    // Safe to share: the tables are written once in init and only read after.
    private let tables: UnsafeMutablePointer<flipbook_colour_tables>
    private let encode: [UInt8]

    /// Tables from each source channel's linearisation (256 values each, red then green then blue),
    /// the 3x3 matrix (row-major), and the destination's encoding of linear light (a function of 0...1).
    init(toLinear: [[Float]], matrix: [Float], encode: (Double) -> UInt8) {
        precondition(toLinear.count == 3 && toLinear.allSatisfy { $0.count == 256 } && matrix.count == 9)
        tables = .allocate(capacity: 1)
        let steps = Int(FLIPBOOK_COLOUR_ENCODE_STEPS)
        withUnsafeMutableBytes(of: &tables.pointee.to_linear) { raw in
            let values = raw.bindMemory(to: Float.self)
            for channel in 0..<3 {
                for index in 0..<256 { values[channel * 256 + index] = toLinear[channel][index] }
            }
        }
        withUnsafeMutableBytes(of: &tables.pointee.matrix) { raw in
            let values = raw.bindMemory(to: Float.self)
            for index in 0..<9 { values[index] = matrix[index] }
        }
        self.encode = (0...steps).map { encode(Double($0) / Double(steps)) }
    }

    deinit { tables.deallocate() }

    /// Converts `rows` rows of `width` pixels of `format` from `source` into `destination` (alpha copied).
    func apply(
        _ source: UnsafeRawPointer, sourceRowBytes: Int, into destination: UnsafeMutableRawPointer,
        destinationRowBytes: Int, width: Int, rows: Int, format: PixelFormat
    ) {
        flipbook_colour_matrix_convert(
            source.assumingMemoryBound(to: UInt8.self), sourceRowBytes,
            destination.assumingMemoryBound(to: UInt8.self), destinationRowBytes, Int32(width), Int32(rows),
            format.kernelLayout, tables, encode)
    }
}
