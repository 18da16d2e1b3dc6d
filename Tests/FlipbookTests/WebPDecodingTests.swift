import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// WebP images (lossless, lossy, with alpha) decoded by Flipbook against ffmpeg's own WebP decoder
/// on the same files; damaged, animated and oversized files refused with the right error.
@Suite struct WebPDecodingTests {
    /// Writes one WebP with ffmpeg (libwebp) from a test pattern, with `filters` and `options`.
    static func makeWebP(_ path: String, filters: String = "", options: [String]) throws {
        let result = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=66x38\(filters)", "-frames:v", "1", "-c:v", "libwebp"]
                + options + [path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// ffmpeg's decode of `path` as tightly packed `pixelFormat` bytes.
    static func ffmpegPixels(_ path: String, pixelFormat: String) throws -> [UInt8] {
        [UInt8](
            try ExternalTool.runForData(
                "ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"]))
    }

    /// Pillow's decode of `path` (through libwebp, with its default fancy chroma upsampling) as
    /// tightly packed bytes of `mode` (`RGB`, `RGBA`).
    static func pillowPixels(_ path: String, mode: String) throws -> [UInt8] {
        let script =
            "import sys; from PIL import Image; sys.stdout.buffer.write(Image.open(sys.argv[1]).convert(sys.argv[2]).tobytes())"
        return [UInt8](try ExternalTool.runForData("/usr/bin/python3", ["-c", script, path, mode]))
    }

    /// A lossy WebP is 4:2:0: ffmpeg's RGB upsamples its chroma otherwise than libwebp, so Pillow
    /// (libwebp, as Flipbook) is the judge, within 2 levels.
    @Test func decodesALossyWebPLikePillow() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("lossy.webp")
        try Self.makeWebP(path, options: ["-lossless", "0", "-quality", "80"])
        let frame = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
        #expect(frame.format == .rgb)
        let reference = try Self.pillowPixels(path, mode: "RGB")
        #expect(reference.count == frame.pixels.count)
        let worst = zip(frame.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 999
        #expect(worst <= 2, "largest difference from Pillow's decode \(worst)")
    }

    @Test(arguments: [
        ("lossless", "", ["-lossless", "1"], PixelFormat.rgb, "rgb24", 0),
        ("alpha", ",format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='4*X'", ["-lossless", "1"], .rgba, "rgba", 0),
    ])
    func decodesLikeFFmpeg(
        kind: String, filters: String, options: [String], format: PixelFormat, ffmpegFormat: String, tolerance: Int
    ) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("\(kind).webp")
        try Self.makeWebP(path, filters: filters, options: options)
        let frame = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
        #expect(frame.width == 66 && frame.height == 38)
        #expect(frame.format == format)
        let reference = try Self.ffmpegPixels(path, pixelFormat: ffmpegFormat)
        #expect(reference.count == frame.pixels.count)
        let worst = zip(frame.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 999
        #expect(worst <= tolerance, "\(kind): largest difference from ffmpeg's decode \(worst)")
    }

    @Test func aTruncatedWebPIsCorrupt() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("whole.webp")
        try Self.makeWebP(path, options: ["-lossless", "1"])
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        for cut in [20, whole.count / 2] {
            #expect(throws: FlipbookError.self) { try ImageDecoder.decode(whole.prefix(cut), limits: ImageLimits()) }
            do {
                _ = try ImageDecoder.decode(whole.prefix(cut), limits: ImageLimits())
            } catch let error as FlipbookError {
                #expect(error.code == .corruptImage, "cut at \(cut): \(error)")
            }
        }
    }

    @Test func anAnimatedWebPIsRefusedAsSuch() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("anim.webp")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=32x32:rate=10", "-frames:v", "3", "-c:v",
                "libwebp_anim",
                path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        do {
            _ = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
            Issue.record("an animated WebP must be refused")
        } catch let error as FlipbookError {
            #expect(error.code == .unsupportedImage)
            #expect(error.message.contains("animated WebP"))
            #expect(error.path == path)
        }
    }

    @Test func aWebPOverTheLimitsIsRefusedFromItsHeader() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("big.webp")
        try Self.makeWebP(path, options: ["-lossless", "1"])
        do {
            _ = try ImageDecoder.decodeFile(
                at: URL(fileURLWithPath: path), limits: ImageLimits(maxDimension: 40, maxPixels: 1 << 20))
            Issue.record("a 66-pixel-wide WebP must be refused by a 40-pixel limit")
        } catch let error as FlipbookError {
            #expect(error.code == .unsupportedImage, "\(error)")
        }
    }
}
