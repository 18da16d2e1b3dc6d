import Testing

@testable import Flipbook

/// The C orientation kernel (`flipbook_orient`) against the per-pixel Swift loop it replaced.
@Suite struct OrientationKernelTests {
    /// The stored pixel (sx, sy) shown at (x, y) of the upright picture, as the Swift loop had it.
    static func reference(_ frame: Frame, _ orientation: Int) -> [UInt8] {
        let (width, height, bpp) = (frame.width, frame.height, frame.format.bytesPerPixel)
        let swaps = orientation >= 5
        let (newWidth, newHeight) = swaps ? (height, width) : (width, height)
        var output: [UInt8] = []
        for y in 0..<newHeight {
            for x in 0..<newWidth {
                let (sx, sy): (Int, Int) =
                    switch orientation {
                    case 1: (x, y)
                    case 2: (width - 1 - x, y)
                    case 3: (width - 1 - x, height - 1 - y)
                    case 4: (x, height - 1 - y)
                    case 5: (y, x)
                    case 6: (y, height - 1 - x)
                    case 7: (width - 1 - y, height - 1 - x)
                    default: (width - 1 - y, x)
                    }
                let offset = sy * frame.bytesPerRow + sx * bpp
                output += frame.pixels[offset..<offset + bpp]
            }
        }
        return output
    }

    @Test(arguments: [(70, 45, 0), (33, 97, 5), (1, 40, 0), (40, 1, 3), (64, 64, 1)])
    func everyOrientationMatchesThePixelLoop(width: Int, height: Int, padding: Int) throws {
        for format in [PixelFormat.rgb, .rgba] {
            let bytesPerRow = width * format.bytesPerPixel + padding
            let pixels = ResamplingKernelTests.noise(count: height * bytesPerRow, seed: UInt64(width * 7 + height))
            let frame = try Frame(
                width: width, height: height, format: format, bytesPerRow: bytesPerRow, pixels: pixels)
            for orientation in 1...8 {
                #expect(
                    PixelKernels.orient(frame, orientation: orientation) == Self.reference(frame, orientation),
                    "\(format) \(width)x\(height)+\(padding) orientation \(orientation)")
            }
        }
    }
}
