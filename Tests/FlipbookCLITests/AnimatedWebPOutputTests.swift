import FlipbookTestSupport
import Foundation
import Testing

/// `-o out.webp`: an animated WebP from libwebp's animation encoder, judged by Pillow (frames, each
/// frame's duration, loop count, alpha, every frame's PSNR against its source image). ffmpeg 5.1
/// does not decode animated WebP, so Pillow is the one judge.
@Suite struct AnimatedWebPOutputTests {
    /// Frame `i`'s duration in milliseconds at a constant rate: `round(1000(i+1)/fps) - round(1000 i/fps)`.
    static func durations(frames: Int, fps: Double) -> [Int] {
        (0..<frames).map { i in
            Int((1000 * Double(i + 1) / fps).rounded()) - Int((1000 * Double(i) / fps).rounded())
        }
    }

    @Test func lossyFramesKeepTheirMillisecondsAndLookLikeTheirSources() throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 20, width: 96, height: 64, into: dir.url.path)
        let webp = dir.path("out.webp")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", webp, "--fps", "30"])
        #expect(result.status == 0, "\(result.stderr)")
        let pillow = try AnimatedImageJudge.read(webp, sources: sources)
        #expect(pillow.frameCount == 20)
        let expected = Self.durations(frames: 20, fps: 30)
        #expect(pillow.durations == expected, "Pillow's durations \(pillow.durations)")
        #expect(pillow.durations.reduce(0, +) == 667, "20 frames at 30 fps end at round(666.67) ms")
        #expect(pillow.loop == 0, "loops for ever by default")
        #expect(pillow.psnr.count == 20 && pillow.psnr.allSatisfy { $0 > 28 }, "PSNR \(pillow.psnr)")
        // A lower quality makes a smaller file.
        let small = dir.path("small.webp")
        #expect(
            try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", small, "--quality", "20"]).status == 0)
        let sizes = try [webp, small].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }
        #expect(sizes[1] < sizes[0], "quality 20 \(sizes[1]) bytes, quality 90 \(sizes[0]) bytes")
    }

    /// Two kinds of ffmpeg-written PNGs, 30 frames of 320x180: smooth moving gradients with fine detail,
    /// and ffmpeg's testsrc2 (saturated colours, text, sharp edges).
    static let materials: [(name: String, source: String)] = [
        (
            "gradients",
            "color=black:size=320x180:rate=30,format=rgb24,geq="
                + "r='128+110*sin(2*PI*(X/W*0.7+N/60))*cos(Y/H*2)+18*sin(X*2.1+Y*0.7+N*0.3)*sin(Y*1.7-N*0.1)':"
                + "g='40+200*Y/H+11*sin(X*2.1+Y*0.7+N*0.3)*sin(Y*1.7-N*0.1)':"
                + "b='128+100*cos(2*PI*(X+Y)/(W+H)+N/20)-18*sin(X*2.1+Y*0.7+N*0.3)*sin(Y*1.7-N*0.1)'"
        ),
        ("testsrc2", "testsrc2=size=320x180:rate=30"),
    ]

    @Test func losslessWithAlphaIsExactAndLoopsAsAsked() throws {
        let dir = try TemporaryDirectory()
        let script = #"""
            import sys
            from PIL import Image
            for i in range(5):
                im = Image.new("RGBA", (40, 20), (0, 0, 0, 0))
                for x in range(20, 40):
                    for y in range(20):
                        im.putpixel((x, y), (50 * i, 3 * x, 7 * y, 255))
                im.save("%s/a%d.png" % (sys.argv[1], i + 1))
            """#
        #expect(try ExternalTool.run("/usr/bin/python3", ["-c", script, dir.url.path]).status == 0)
        let sources = (1...5).map { dir.path("a\($0).png") }
        let webp = dir.path("alpha.webp")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, sources + ["-o", webp, "--lossless", "--alpha", "--loop", "2", "--fps", "12"])
        #expect(result.status == 0, "\(result.stderr)")
        let pillow = try AnimatedImageJudge.read(webp, sources: sources)
        #expect(pillow.frameCount == 5)
        #expect(pillow.loop == 2)
        #expect(pillow.durations == Self.durations(frames: 5, fps: 12), "\(pillow.durations)")
        #expect(pillow.transparentPixels == [400, 400, 400, 400, 400], "\(pillow.transparentPixels)")
        // Transparent pixels compare as black, as the sources' do: every frame exact.
        #expect(pillow.psnr == [99, 99, 99, 99, 99], "PSNR \(pillow.psnr)")
    }

    @Test(arguments: [
        (["--codec", "vp9"], "--codec vp9 does not go in .webp files"),
        (["--preset", "slow"], "--preset is for movies"),
        (["--quality", "101"], "--quality 101 is out of range"),
    ])
    func impossibleCombinationsAreUsageErrors(extra: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 2, width: 16, height: 16, into: dir.url.path)
        let webp = dir.path("none.webp")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", webp] + extra)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: webp))
    }
}
