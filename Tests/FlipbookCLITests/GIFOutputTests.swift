import FlipbookTestSupport
import Foundation
import Testing

/// `-o out.gif`: an animated GIF with a palette a frame, judged by ffprobe's GIF demuxer (frames,
/// every delay, the total) and Pillow (frames, durations, loop, transparency, every frame's PSNR
/// against its source image).
@Suite struct GIFOutputTests {
    /// Delay `i` of a constant rate, in hundredths: `round(100(i+1)/fps) - round(100 i/fps)`.
    static func delays(frames: Int, fps: Double) -> [Int64] {
        (0..<frames).map { i in
            Int64((100 * Double(i + 1) / fps).rounded()) - Int64((100 * Double(i) / fps).rounded())
        }
    }

    @Test func everyFrameHasItsDelayWithoutDriftAndLooksLikeItsSource() throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 20, width: 96, height: 64, into: dir.url.path)
        let gif = dir.path("out.gif")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", gif, "--fps", "30"])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try Judge.stream(of: gif)
        #expect(stream.codecName == "gif" && stream.width == 96 && stream.height == 64)
        #expect(stream.frameCount == 20)
        let frames = try Judge.frames(of: gif)
        let expected = Self.delays(frames: 20, fps: 30)
        #expect(frames.map(\.duration) == expected, "ffprobe's delays \(frames.map(\.duration))")
        #expect(expected.reduce(0, +) == 67, "20 frames at 30 fps end at round(66.67) hundredths")
        let pillow = try AnimatedImageJudge.read(gif, sources: sources)
        #expect(pillow.frameCount == 20)
        #expect(pillow.durations == expected.map { Int($0) * 10 })
        #expect(pillow.loop == 0, "loops for ever by default")
        #expect(pillow.psnr.count == 20 && pillow.psnr.allSatisfy { $0 > 30 }, "PSNR \(pillow.psnr)")
    }

    @Test func whereThePictureStandsStillTheDitheringDoesToo() throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 12, width: 120, height: 80, into: dir.url.path)
        let gif = dir.path("still.gif")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", gif])
        #expect(result.status == 0, "\(result.stderr)")
        // The lower half never changes in the sources: every decoded frame shows it exactly as the first.
        let pillow = try AnimatedImageJudge.read(gif, sources: sources, region: [0, 40, 120, 80])
        #expect(Set(pillow.regionHashes).count == 1, "the still half changed between frames")
        #expect(pillow.psnr.allSatisfy { $0 > 30 }, "PSNR \(pillow.psnr)")
        // Frames cost what moves: all twelve take far less than twelve first frames.
        let single = dir.path("single.gif")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, [sources[0], "-o", single]).status == 0)
        let whole = try FileManager.default.attributesOfItem(atPath: gif)[.size] as! Int
        let one = try FileManager.default.attributesOfItem(atPath: single)[.size] as! Int
        #expect(whole < one * 2, "12 frames \(whole) bytes, one frame \(one) bytes")
    }

    @Test func ratesAbove50AreReducedWithAWarningAndKeepTheLength() throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 12, width: 64, height: 48, into: dir.url.path)
        let gif = dir.path("fast.gif")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", gif, "--fps", "60"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: a GIF's delays"), "\(result.stderr)")
        let frames = try Judge.frames(of: gif)
        #expect(frames.count < 12 && frames.count >= 8, "\(frames.count) frames kept")
        #expect(frames.allSatisfy { $0.duration >= 2 }, "delays \(frames.map(\.duration))")
        #expect(frames.map(\.duration).reduce(0, +) == 20, "12 frames at 60 fps last 20 hundredths")
    }

    @Test func loopCountAndOneBitAlpha() throws {
        let dir = try TemporaryDirectory()
        // Half of each frame transparent, the other half an opaque colour that changes.
        let script = #"""
            import sys
            from PIL import Image
            for i in range(4):
                im = Image.new("RGBA", (32, 16), (0, 0, 0, 0))
                for x in range(16, 32):
                    for y in range(16):
                        im.putpixel((x, y), (60 * i, 200, 90, 255))
                im.save("%s/a%d.png" % (sys.argv[1], i + 1))
            """#
        #expect(try ExternalTool.run("/usr/bin/python3", ["-c", script, dir.url.path]).status == 0)
        let sources = (1...4).map { dir.path("a\($0).png") }
        let gif = dir.path("alpha.gif")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, sources + ["-o", gif, "--alpha", "--loop", "3", "--quality", "70"])
        #expect(result.status == 0, "\(result.stderr)")
        let pillow = try AnimatedImageJudge.read(gif)
        #expect(pillow.frameCount == 4)
        #expect(pillow.loop == 2, "plays 3 times: the NETSCAPE2.0 count of repeats is 2")
        #expect(pillow.transparentPixels == [256, 256, 256, 256], "\(pillow.transparentPixels)")
        let once = dir.path("once.gif")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", once, "--loop", "1"]).status == 0)
        #expect(try AnimatedImageJudge.read(once).loop == nil, "a GIF that plays once has no loop extension")
    }

    @Test(arguments: [
        (["--codec", "h264"], "--codec h264 does not go in .gif files"),
        (["--crf", "20"], "--crf is for movies"),
        (["--quality", "0"], "--quality 0 is out of range"),
        (["--loop", "-1"], "--loop -1 is out of range"),
        (["--lossless"], "--lossless is available for h264, ffv1 or .webp output only"),
        (["--fragmented"], "--fragmented does not go with .gif output"),
        (["--title", "A clip"], "are not written in .gif files"),
    ])
    func impossibleCombinationsAreUsageErrorsAndLeaveTheFileAlone(extra: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 2, width: 16, height: 16, into: dir.url.path)
        let gif = dir.path("kept.gif")
        let old = Data("an old GIF".utf8)
        try old.write(to: URL(fileURLWithPath: gif))
        let result = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", gif, "--overwrite"] + extra)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: gif)) == old)
    }

    @Test func soundIsAUsageErrorAndAnExistingFileIsKeptWithoutOverwrite() throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 2, width: 16, height: 16, into: dir.url.path)
        let gif = dir.path("kept.gif")
        let sound = dir.path("tone.wav")
        try AudioJudge.makeSound(sound, source: "sine=frequency=440:duration=1", [])
        let audio = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", gif, "--audio", sound])
        #expect(audio.status == 2 && audio.stderr.contains("has no sound"), "\(audio.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gif))
        let old = Data("an old GIF".utf8)
        try old.write(to: URL(fileURLWithPath: gif))
        let again = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", gif])
        #expect(again.status != 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: gif)) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".") }.isEmpty)
    }
}

extension GIFOutputTests {
    @Test func aHeavyGIFIsWarnedAboutWithASmallerSize() throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 2, width: 1000, height: 600, into: dir.url.path)
        let gif = dir.path("heavy.gif")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", gif])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("the GIF is 1000x600") && result.stderr.contains("--size 600x360"),
            "\(result.stderr)")
        #expect(try Judge.stream(of: gif).frameCount == 2)
    }
}

extension GIFOutputTests {
    /// Noise of 200 colours codes long LZW streams (12-bit codes, clear codes when the table fills);
    /// within 256 colours libimagequant's palette keeps every colour, but at Flipbook's speed (8) it
    /// drops the lowest bit of its input, so a pixel may be one level off (at least 48 dB); a code
    /// out of step would scramble the rest of the frame.
    @Test func noiseOfFewerThan256ColoursComesBackExactly() throws {
        let dir = try TemporaryDirectory()
        let script = #"""
            import random, sys
            from PIL import Image
            rng = random.Random(7)
            colours = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(200)]
            for i in range(3):
                im = Image.new("RGB", (200, 150))
                im.putdata([colours[rng.randrange(200)] for _ in range(200 * 150)])
                im.save("%s/n%d.png" % (sys.argv[1], i + 1))
            """#
        #expect(try ExternalTool.run("/usr/bin/python3", ["-c", script, dir.url.path]).status == 0)
        let sources = (1...3).map { dir.path("n\($0).png") }
        let gif = dir.path("noise.gif")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", gif, "--quality", "100"])
        #expect(result.status == 0, "\(result.stderr)")
        let pillow = try AnimatedImageJudge.read(gif, sources: sources)
        #expect(pillow.psnr.count == 3 && pillow.psnr.allSatisfy { $0 > 48 }, "PSNR \(pillow.psnr)")
        #expect(try Judge.decodeErrors(of: gif).isEmpty)
    }
}

extension GIFOutputTests {
    /// `--target-size` searches the quality of a GIF or WebP: the file is at or under the size, every
    /// frame still there.
    @Test(arguments: ["gif", "webp"])
    func aTargetSizeIsReachedByQualityAndNeverPassed(ext: String) throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 6, width: 160, height: 96, into: dir.url.path)
        let free = dir.path("free.\(ext)")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", free]).status == 0)
        let freeBytes = try FileManager.default.attributesOfItem(atPath: free)[.size] as! Int
        // Seven eighths: a quarter off the small WebP would fall under the least the tool takes (2048 + 32 a frame).
        let target = freeBytes * 7 / 8
        let fitted = dir.path("fitted.\(ext)")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, sources + ["-o", fitted, "--target-size", String(target)])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try FileManager.default.attributesOfItem(atPath: fitted)[.size] as! Int
        #expect(bytes <= target, "\(bytes) bytes for a target of \(target) (quality 90: \(freeBytes))")
        let pillow = try AnimatedImageJudge.read(fitted, sources: sources)
        #expect(pillow.frameCount == 6 && pillow.psnr.allSatisfy { $0 > 20 }, "PSNR \(pillow.psnr)")
    }

    /// A target no quality reaches (the smallest the tool takes for 6 frames, 2048 + 32 a frame, under
    /// a GIF of 160x96 dithered gradient at any quality) writes nothing, and says what it came to.
    @Test func aTargetSizeNoQualityReachesWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 6, width: 160, height: 96, into: dir.url.path)
        let impossible = dir.path("impossible.gif")
        let refused = try ExternalTool.run(
            ExternalTool.flipbookPath, sources + ["-o", impossible, "--target-size", "2240"])
        #expect(refused.status == 1 && refused.stderr.contains("nothing was written there"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: impossible))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix(".") }.isEmpty)
    }
}

extension GIFOutputTests {
    /// A GIF or WebP has no chroma subsampling, so an odd-sized image keeps its size.
    @Test(arguments: ["gif", "webp"])
    func anOddSizedImageKeepsItsSize(ext: String) throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 2, width: 33, height: 17, into: dir.url.path)
        let output = dir.path("odd.\(ext)")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", output])
        #expect(result.status == 0 && !result.stderr.contains("rounded"), "\(result.stderr)")
        let pillow = try AnimatedImageJudge.read(output, sources: sources)
        #expect(pillow.frameCount == 2 && pillow.width == 33 && pillow.height == 17, "\(pillow)")
        #expect(pillow.psnr.count == 2 && pillow.psnr.allSatisfy { $0 > 24 }, "PSNR \(pillow.psnr)")
    }
}

extension GIFOutputTests {
    /// `flipbook probe` reads movies' boxes; for a GIF or WebP it says which tools read those.
    @Test(arguments: ["gif", "webp"])
    func probeNamesTheToolsForAnAnimatedImage(ext: String) throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 2, width: 16, height: 16, into: dir.url.path)
        let output = dir.path("made.\(ext)")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, sources + ["-o", output]).status == 0)
        let probed = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", output])
        #expect(probed.status == 2 && probed.stderr.contains("use ffprobe"), "\(probed.stderr)")
    }
}
