/// A deep RGB image kept at its depth for a 10-bit movie (a 16-bit PNG or TIFF, grey repeated into each
/// colour, or a 10- or 12-bit HEIC or AVIF rescaled to 16 bits): it is converted straight to 10-bit
/// planes when it has the movie's size, and cut to 8 bits otherwise (fitting works on 8-bit pixels).
/// It has alpha only for a movie that keeps alpha (a 16-bit RGBA or grey-and-alpha PNG then).
package struct DeepImage: Sendable {
    package let width: Int
    package let height: Int
    /// Native-endian R, G, B (and A, when ``hasAlpha``) samples, row after row, no padding.
    package let samples: [UInt16]
    /// Whether each pixel has a fourth sample, its straight (not premultiplied) alpha.
    package let hasAlpha: Bool
    /// The colour the image's file states.
    package var sourceColour = SourceColour.unstated

    package init(width: Int, height: Int, samples: [UInt16], hasAlpha: Bool = false) {
        precondition(samples.count == width * height * (hasAlpha ? 4 : 3), "\(samples.count) samples")
        self.width = width
        self.height = height
        self.samples = samples
        self.hasAlpha = hasAlpha
    }

    /// The image as an 8-bit frame (RGBA when it has alpha), each sample rounded (``SampleArithmetic/eightBit(_:)``).
    func eightBit() throws -> Frame {
        let pixels = [UInt8](unsafeUninitializedCapacity: samples.count) { buffer, initialized in
            samples.withUnsafeBufferPointer { source in
                for index in 0..<source.count {
                    buffer[index] = SampleArithmetic.eightBit(source[index])
                }
            }
            initialized = samples.count
        }
        return try Frame(width: width, height: height, format: hasAlpha ? .rgba : .rgb, pixels: pixels)
    }
}
