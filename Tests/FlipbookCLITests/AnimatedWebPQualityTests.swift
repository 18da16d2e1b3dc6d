import FlipbookTestSupport
import Foundation
import Testing

/// Animated WebP's defaults against ffmpeg's libwebp_anim at its quality 90 on the same frames, as Pillow
/// decodes both. A long suite (`Tests/long-suites.txt`); the rest of WebP output is in
/// ``AnimatedWebPOutputTests``.
@Suite struct AnimatedWebPQualityTests {
    /// The defaults (quality 90, method 6, the smallest frame candidates) make a smaller file than ffmpeg's
    /// libwebp_anim at its quality 90 on the same frames, at least as close to the sources at the worst frame
    /// and on average, as Pillow decodes both.
    @Test(arguments: AnimatedWebPOutputTests.materials.map(\.name))
    func theDefaultsBeatFFmpegsQuality90OnSizeAndEveryFrame(material: String) throws {
        let source = AnimatedWebPOutputTests.materials.first { $0.name == material }!.source
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", source, "-frames:v", "30", "\(frames)/f%03d.png"])
        try #require(made.status == 0, "\(made.stderr)")
        let sources = (1...30).map { String(format: "\(frames)/f%03d.png", $0) }
        let ours = dir.path("flipbook.webp")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", ours, "--fps", "30", "-q"])
        try #require(result.status == 0, "\(result.stderr)")
        let theirs = dir.path("ffmpeg.webp")
        let reference = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-framerate", "30", "-i", "\(frames)/f%03d.png", "-c:v", "libwebp_anim", "-quality",
                "90", theirs,
            ])
        try #require(reference.status == 0, "\(reference.stderr)")
        let (a, b) = (
            try AnimatedImageJudge.read(ours, sources: sources), try AnimatedImageJudge.read(theirs, sources: sources)
        )
        try #require(a.psnr.count == 30 && b.psnr.count == 30, "\(a.psnr.count) and \(b.psnr.count) frames")
        let sizes = try [ours, theirs].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }
        let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
        let figures =
            "\(material): \(sizes[0]) bytes, worst \(a.psnr.min()!) dB, mean \(mean(a.psnr)) dB against "
            + "ffmpeg's \(sizes[1]) bytes, worst \(b.psnr.min()!) dB, mean \(mean(b.psnr)) dB"
        print(figures)
        #expect(sizes[0] < sizes[1], "\(figures)")
        #expect(a.psnr.min()! >= b.psnr.min()!, "\(figures)")
        #expect(mean(a.psnr) >= mean(b.psnr) - 0.01, "\(figures)")
    }
}
