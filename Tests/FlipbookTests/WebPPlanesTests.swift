import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// An opaque lossy WebP of even sides is handed over as its VP8 Y'CbCr 4:2:0 planes (limited-range
/// BT.601) and converted straight to the movie's YUV. The planes must be exactly what ffmpeg's own VP8
/// decoder makes of the file (VP8 decoding is exact), and the converted picture the one the RGB path
/// (libwebp's RGB, then the RGB converter) makes, within rounding.
@Suite struct WebPPlanesTests {
    /// A lossy WebP of `filters` on a 66x38 test pattern (chroma planes 33x19: odd, like real sizes).
    static func lossyWebP(in dir: TemporaryDirectory, filters: String = "") throws -> String {
        let path = dir.path("lossy.webp")
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=66x38\(filters)", "-frames:v", "1", "-c:v",
                "libwebp", "-lossless", "0", "-quality", "80", path,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        return path
    }

    static func planes(_ path: String) throws -> YCbCrPlanes {
        let image = try ImageDecoder.decodeImageFile(
            at: URL(fileURLWithPath: path), limits: ImageLimits(), planes: .anyEvenSize)
        guard case .planes(let planes) = image else {
            throw JudgeError(description: "an opaque lossy WebP of even sides was decoded to RGB")
        }
        return planes
    }

    @Test func thePlanesAreFFmpegsDecodeExactly() throws {
        let dir = try TemporaryDirectory()
        let path = try Self.lossyWebP(in: dir)
        let planes = try Self.planes(path)
        #expect(planes.limitedRange && !planes.chromaFullWidth && !planes.chromaFullHeight)
        #expect(planes.width == 66 && planes.height == 38)
        let reference = try WebPDecodingTests.ffmpegPixels(path, pixelFormat: "yuv420p")
        #expect(reference == planes.luma + planes.cb + planes.cr, "the planes differ from ffmpeg's VP8 decode")
    }

    @Test(arguments: [
        ("BT.709 limited", ColourMatrix(.bt709, .limited)), ("BT.709 full", ColourMatrix(.bt709, .full)),
        ("BT.601 limited", ColourMatrix(.bt601, .limited)), ("BT.601 full", ColourMatrix(.bt601, .full)),
    ])
    func convertedPlanesMatchTheRGBPath(name: String, matrix: ColourMatrix) throws {
        let dir = try TemporaryDirectory()
        // Colours kept inside the RGB gamut, so libwebp's RGB (the luma judge) does not clip.
        let path = try Self.lossyWebP(in: dir, filters: ",lutrgb=r=32+val*0.75:g=32+val*0.75:b=32+val*0.75")
        var planar = YUVPicture(width: 66, height: 38)
        JPEGToYUVConverter(matrix: matrix).convert(try Self.planes(path), into: &planar)
        var viaRGB = YUVPicture(width: 66, height: 38)
        RGBToYUVConverter(matrix: matrix).convert(
            try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits()), into: &viaRGB)
        // The stored planes as ffmpeg's own VP8 decoder makes them, and what each output sample must be,
        // worked out here in floating point through E'Y, E'Pb and E'Pr (BT.601, limited range).
        let stored = try WebPDecodingTests.ffmpegPixels(path, pixelFormat: "yuv420p")
        let (width, height, chromaWidth, chromaHeight) = (66, 38, 33, 19)
        func pb(_ x: Int, _ y: Int) -> Double { (Double(stored[width * height + y * chromaWidth + x]) - 128) / 224 }
        func pr(_ x: Int, _ y: Int) -> Double {
            (Double(stored[width * height + chromaWidth * chromaHeight + y * chromaWidth + x]) - 128) / 224
        }
        let (kr, kb) = (matrix.kr, matrix.kb)
        let (lumaScale, lumaOffset, chromaScale) = matrix.fullRange ? (255.0, 0.0, 255.0) : (219, 16, 224)
        /// The movie's Y', Cb, Cr for BT.601 E'Y, E'Pb, E'Pr.
        func converted(_ y: Double, _ pb: Double, _ pr: Double) -> (Double, Double, Double) {
            let (red, blue) = (y + 1.402 * pr, y + 1.772 * pb)
            let green = (y - 0.299 * red - 0.114 * blue) / 0.587
            let luma = kr * red + (1 - kr - kb) * green + kb * blue
            return (
                lumaOffset + lumaScale * luma, 128 + chromaScale * (blue - luma) / (2 * (1 - kb)),
                128 + chromaScale * (red - luma) / (2 * (1 - kr))
            )
        }
        func code(_ value: Double) -> Int { Int(min(max(value.rounded(), 0), 255)) }
        var worst = (luma: 0, chroma: 0)
        // Luma: from the chroma interpolated bilinearly at each pixel (samples centred on the 2x2
        // pixels they cover, 3/4 of the nearest and 1/4 of the next in each direction, edges repeated).
        for y in 0..<height {
            for x in 0..<width {
                let (nearX, nearY) = (x / 2, y / 2)
                let farX = min(max(nearX + (x % 2 == 0 ? -1 : 1), 0), chromaWidth - 1)
                let farY = min(max(nearY + (y % 2 == 0 ? -1 : 1), 0), chromaHeight - 1)
                func mixed(_ f: (Int, Int) -> Double) -> Double {
                    (9 * f(nearX, nearY) + 3 * f(farX, nearY) + 3 * f(nearX, farY) + f(farX, farY)) / 16
                }
                let luma = (Double(stored[y * width + x]) - 16) / 219
                let expected = code(converted(luma, mixed(pb), mixed(pr)).0)
                worst.luma = max(worst.luma, abs(Int(planar.luma[y * width + x]) - expected))
            }
        }
        // Chroma: each output sample from the stored one where it sits.
        for y in 0..<chromaHeight {
            for x in 0..<chromaWidth {
                let (_, cb, cr) = converted(0, pb(x, y), pr(x, y))
                let index = y * chromaWidth + x
                worst.chroma = max(
                    worst.chroma, abs(Int(planar.cb[index]) - code(cb)), abs(Int(planar.cr[index]) - code(cr)))
            }
        }
        #expect(
            worst.luma <= 1 && worst.chroma <= 1, "\(name): luma off by up to \(worst.luma), chroma \(worst.chroma)")
        // libwebp's own RGB (rounded to 14 bits inside) converted by the RGB path lands within 4 of it.
        let largest = JPEGPlanesTests.largestDifference(planar.luma, viaRGB.luma)
        #expect(largest <= 4, "\(name) Y: differs from the RGB path by up to \(largest)")
        // BT.601 limited is the stored planes exactly.
        if name == "BT.601 limited" {
            let planes = try Self.planes(path)
            #expect(planar.luma == planes.luma && planar.cb == planes.cb && planar.cr == planes.cr)
        }
    }

    @Test func losslessTranslucentAndOddSizedWebPsAreDecodedToRGB() throws {
        let dir = try TemporaryDirectory()
        let lossless = dir.path("lossless.webp")
        try WebPDecodingTests.makeWebP(lossless, options: ["-lossless", "1"])
        let translucent = dir.path("alpha.webp")
        try WebPDecodingTests.makeWebP(
            translucent, filters: ",format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='4*X'",
            options: ["-lossless", "0", "-quality", "80"])
        // ffmpeg's libwebp encoder crops odd sides; Pillow keeps them.
        let odd = dir.path("odd.webp")
        let script =
            "import sys; from PIL import Image; Image.new('RGB', (65, 37), (200, 90, 40)).save(sys.argv[1], quality=80)"
        let made = try ExternalTool.run("/usr/bin/python3", ["-c", script, odd])
        #expect(made.status == 0, "\(made.stderr)")
        for path in [lossless, translucent, odd] {
            let image = try ImageDecoder.decodeImageFile(
                at: URL(fileURLWithPath: path), limits: ImageLimits(), planes: .anyEvenSize)
            guard case .frame = image else {
                Issue.record("\(path) came as planes")
                continue
            }
        }
    }
}
