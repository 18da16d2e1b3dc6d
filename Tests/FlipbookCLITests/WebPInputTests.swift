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

    @Test func anAnimatedWebPGivesItsFramesAndATruncatedOneIsOneLine() throws {
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
        // The still, then every frame of the animation as Pillow counts them (libwebp_anim merges frames
        // that differ little, so not necessarily three).
        let animated = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", dir.path("a.mp4"), "-q"])
        #expect(animated.status == 0, "\(animated.stderr)")
        let counted = try ExternalTool.run(
            "/usr/bin/python3",
            ["-c", "import sys; from PIL import Image; print(Image.open(sys.argv[1]).n_frames)", "\(frames)/f2.webp"])
        let pillowFrames = Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(pillowFrames >= 2)
        #expect(try Judge.stream(of: dir.path("a.mp4")).frameCount == 1 + pillowFrames)
        try FileManager.default.removeItem(atPath: dir.path("a.mp4"))

        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(frames)/f1.webp"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: "\(frames)/f2.webp"))
        let truncated = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", dir.path("t.mp4")])
        #expect(truncated.status == 1)
        #expect(
            truncated.stderr.contains("frame 1 (\(frames)/f2.webp): the WebP cannot be decoded"), "\(truncated.stderr)")
        #expect(dir.entries() == ["frames"])
    }
}
