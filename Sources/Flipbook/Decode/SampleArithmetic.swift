/// Sample conversions the decoders share.
enum SampleArithmetic {
    /// A 16-bit sample on the 8-bit scale, rounded: `(v * 255 + 32767) / 65535`.
    @inline(__always)
    static func eightBit(_ value: UInt16) -> UInt8 {
        UInt8((UInt32(value) * 255 + 32767) / 65535)
    }

    /// A colour premultiplied by `alpha` divided by it again, rounded (0 where alpha is 0).
    @inline(__always)
    static func unpremultiplied(_ value: UInt8, alpha: UInt8) -> UInt8 {
        guard alpha != 0, alpha != 255 else { return alpha == 0 ? 0 : value }
        return UInt8(min(255, (Int(value) * 255 + Int(alpha) / 2) / Int(alpha)))
    }

    /// Divides the colour of RGBA pixels by their alpha, in place.
    static func unpremultiplyRGBA(_ pixels: inout [UInt8]) {
        for index in stride(from: 0, to: pixels.count - 3, by: 4) {
            let alpha = pixels[index + 3]
            for channel in 0..<3 {
                pixels[index + channel] = unpremultiplied(pixels[index + channel], alpha: alpha)
            }
        }
    }
}
