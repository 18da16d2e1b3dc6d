import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// Animated GIF, APNG and WebP files through the library: `append(imageAt:)` and `makeMovie`, the
/// limits, and the browsers' rule for short delays, judged by ffprobe and Pillow.
@Suite struct AnimatedImageTests {
    /// Each frame's start in the movie, in seconds, as ffprobe reads it.
    private func starts(of movie: String) throws -> [Double] {
        let scale = Double(try Judge.stream(of: movie).timeBase.split(separator: "/").last.map(String.init) ?? "") ?? 0
        return try Judge.frames(of: movie).map { Double($0.pts) / scale }
    }

    @Test func appendImageAtAppendsEveryFrameForItsOwnDelay() async throws {
        let dir = try TemporaryDirectory()
        let webp = dir.path("in.webp")
        try AnimationMaker.make(.pillowWebP, at: webp)
        let durations = try AnimationMaker.pillowFrames(of: webp, into: try dir.folder("reference"))
        let still = try SampleImages.write(count: 1, width: 64, height: 48, into: dir.url.path, prefix: "still")[0]
        let movie = dir.path("out.mp4")
        let writer = try MovieWriter(
            url: URL(fileURLWithPath: movie), settings: VideoSettings(width: 64, height: 48, frameRate: FrameRate(30)))
        try await writer.append(imageAt: URL(fileURLWithPath: webp))
        try await writer.append(imageAt: URL(fileURLWithPath: still))
        let summary = try await writer.finish()
        #expect(summary.frames == durations.count + 1)

        var expected = [0.0]
        for duration in durations { expected.append(expected.last! + duration / 1000) }
        let times = try starts(of: movie)
        #expect(times.count == expected.count)
        #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(times) against \(expected)")
    }

    @Test func makeMovieReadsAnAPNGFrameByFrame() async throws {
        let dir = try TemporaryDirectory()
        let apng = dir.path("in.png")
        try AnimationMaker.make(.ffmpegAPNG, at: apng)
        let reference = try dir.folder("reference")
        let durations = try AnimationMaker.pillowFrames(of: apng, into: reference)
        let movie = dir.path("out.mp4")
        var options = SequenceOptions(settings: VideoSettings(frameRate: FrameRate(30)))
        options.settings.crf = 12
        let summary = try await MovieWriter.makeMovie(
            fromImagesAt: [URL(fileURLWithPath: apng)], to: URL(fileURLWithPath: movie), options: options)
        #expect(summary.frames == durations.count)
        let psnr = try AnimationMaker.psnrPerFrame(
            of: movie, againstImages: "\(reference)/f%03d.png", stats: dir.path("psnr.txt"))
        #expect(psnr.count == durations.count && psnr.allSatisfy { $0 > 38 }, "\(psnr)")
    }

    @Test func anAnimationOverTheLimitIsRefusedBeforeAnyFrameIsDecoded() async throws {
        let dir = try TemporaryDirectory()
        let gif = dir.path("in.gif")
        try AnimationMaker.makeGIF(frames: 20, at: gif)
        var options = SequenceOptions(settings: VideoSettings(frameRate: FrameRate(30)))
        // Room for 19 frames of the 64x48 screen, not 20.
        options.imageLimits.maxAnimationPixels = 64 * 48 * 19
        let movie = URL(fileURLWithPath: dir.path("out.mp4"))
        do {
            _ = try await MovieWriter.makeMovie(fromImagesAt: [URL(fileURLWithPath: gif)], to: movie, options: options)
            Issue.record("an animation over the limit must be refused")
        } catch let error as FlipbookError {
            #expect(error.code == .unsupportedImage)
            #expect(error.path == gif)
            #expect(error.message.contains("20 frames of 64x48"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: movie.path))
    }

    @Test func withSkippingAnAnimationOverTheLimitIsLeftOutWhole() async throws {
        let dir = try TemporaryDirectory()
        let still = try SampleImages.write(count: 1, width: 64, height: 48, into: dir.url.path, prefix: "a")[0]
        let gif = dir.path("b.gif")
        try AnimationMaker.makeGIF(frames: 20, at: gif)
        var options = SequenceOptions(settings: VideoSettings(frameRate: FrameRate(30)))
        options.imageLimits.maxAnimationPixels = 64 * 48 * 19
        options.skipInvalidImages = true
        let movie = dir.path("out.mp4")
        let summary = try await MovieWriter.makeMovie(
            fromImagesAt: [URL(fileURLWithPath: still), URL(fileURLWithPath: gif)], to: URL(fileURLWithPath: movie),
            options: options)
        #expect(summary.skippedImages.count == 1)
        #expect(summary.skippedImages.first?.path?.hasPrefix(gif) ?? false, "\(summary.skippedImages)")
        #expect(try Judge.stream(of: movie).frameCount == 1)
    }

    @Test func aDurationGivenWithAnAnimationIsRefused() async throws {
        let dir = try TemporaryDirectory()
        let gif = dir.path("in.gif")
        try AnimationMaker.makeGIF(frames: 3, at: gif)
        let writer = try MovieWriter(
            url: URL(fileURLWithPath: dir.path("out.mp4")),
            settings: VideoSettings(width: 64, height: 48, frameRate: FrameRate(30)))
        await #expect(throws: FlipbookError.self) {
            try await writer.append(imageAt: URL(fileURLWithPath: gif), duration: MediaTime(value: 1, timescale: 1))
        }
        await writer.cancel()
    }

    /// A still PNG or WebP is told from an animation by its first bytes, as Pillow tells them apart
    /// (`is_animated`), so a long sequence of stills is not read twice.
    @Test func stillsAreToldFromAnimationsByTheirFirstBytes() throws {
        let dir = try TemporaryDirectory()
        let still = try SampleImages.write(count: 1, width: 32, height: 24, into: dir.url.path, prefix: "still")[0]
        let made = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=32x24", "-frames:v", "1", dir.path("still.webp")])
        #expect(made.status == 0, "\(made.stderr)")
        try AnimationMaker.make(.pillowAPNG, at: dir.path("anim.png"))
        try AnimationMaker.make(.ffmpegWebP, at: dir.path("anim.webp"))
        for path in [still, dir.path("still.webp"), dir.path("anim.png"), dir.path("anim.webp")] {
            let pillow = try ExternalTool.run(
                "/usr/bin/python3",
                [
                    "-c",
                    "import sys; from PIL import Image; print(getattr(Image.open(sys.argv[1]), 'is_animated', False))",
                    path,
                ])
            let animated = pillow.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "True"
            let head = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(AnimatedInputs.headLength)
            #expect(AnimatedInputs.mayBeAnimated(head, isWhole: true) == animated, "\(path)")
            #expect(
                (AnimatedInputs.layout(of: ImageReference(file: URL(fileURLWithPath: path))) != nil) == animated,
                "\(path)")
        }
    }

    @Test(arguments: [(0, 100), (1, 100), (2, 20), (7, 70)])
    func delaysOfTenMillisecondsOrLessAreShownAsBrowsersShowThem(hundredths: Int, shownMilliseconds: Int) {
        let shown = AnimationLayout.browserDelay(MediaTime(value: Int64(hundredths), timescale: 100))
        #expect(shown == MediaTime(value: Int64(shownMilliseconds), timescale: 1000))
    }
}
