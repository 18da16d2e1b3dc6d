import FlipbookTestSupport
import Foundation
import Testing

/// A folder of WebP images (lossless, lossy and with alpha side by side with a PNG) becomes a movie,
/// judged by ffprobe and by PSNR against the images as ffmpeg decodes them.
@Suite struct WebPInputTests {
    @Test func aFolderOfWebPImagesMakesAMovie() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=30", "-frames:v", "12", "-c:v", "libwebp",
                "-lossless", "1", "-start_number", "1", "\(frames)/f%d.webp",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let movie = dir.path("webp.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--crf", "12", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.stream(of: movie).frameCount == 12)
        #expect(try Judge.decodeErrors(of: movie) == "")
        let psnr = try Judge.psnr(of: movie, againstImages: "\(frames)/f%d.webp")
        #expect(psnr > 38, "PSNR \(psnr) dB against the WebP images")
    }

    @Test func aTruncatedAndAnAnimatedWebPAreEachOneLine() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        for (name, codec, count) in [("f1.webp", "libwebp", "1"), ("f2.webp", "libwebp_anim", "3")] {
            let made = try ExternalTool.run(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=32x32:rate=10", "-frames:v", count, "-c:v",
                    codec,
                    "-update", "1", "\(frames)/\(name)",
                ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let animated = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", dir.path("a.mp4")])
        #expect(animated.status == 1)
        #expect(animated.stderr.split(separator: "\n").count == 1)
        #expect(animated.stderr.contains("frame 1 (\(frames)/f2.webp): this is an animated WebP"), "\(animated.stderr)")

        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(frames)/f1.webp"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: "\(frames)/f2.webp"))
        let truncated = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", dir.path("t.mp4")])
        #expect(truncated.status == 1)
        #expect(
            truncated.stderr.contains("frame 1 (\(frames)/f2.webp): the WebP cannot be decoded"), "\(truncated.stderr)")
        #expect(dir.entries() == ["frames"])
    }
}
