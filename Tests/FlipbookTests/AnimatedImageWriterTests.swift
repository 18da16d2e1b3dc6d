import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// The library writes animated images by the URL's extension: `MovieWriter` and `makeMovie` give
/// a `.gif` or `.webp` its own codec, judged by ffprobe's GIF demuxer and by Pillow.
@Suite struct AnimatedImageWriterTests {
    /// A 48x32 RGBA frame whose left `step * 4` columns are red and the rest blue.
    static func frame(_ step: Int) throws -> Frame {
        var pixels = [UInt8](repeating: 0, count: 48 * 32 * 4)
        for y in 0..<32 {
            for x in 0..<48 {
                let index = (y * 48 + x) * 4
                let red = x < step * 4
                (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3]) =
                    (red ? 220 : 20, 40, red ? 30 : 200, 255)
            }
        }
        return try Frame(width: 48, height: 32, format: .rgba, pixels: pixels)
    }

    @Test func aWriterToAGIFURLWritesAGIFWhateverTheSettingsCodec() async throws {
        let dir = try TemporaryDirectory()
        let url = URL(fileURLWithPath: dir.path("frames.gif"))
        var settings = VideoSettings(width: 48, height: 32, frameRate: FrameRate(25))
        settings.loopCount = 2
        let writer = try MovieWriter(url: url, settings: settings)
        #expect(writer.settings.codec == .gif)
        for step in 0..<6 { try await writer.append(try Self.frame(step)) }
        let movie = try await writer.finish()
        #expect(movie.codec == "gif" && movie.frames == 6)
        #expect(movie.bytes == UInt64(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int))
        let frames = try Judge.frames(of: url.path)
        #expect(frames.map(\.duration) == [4, 4, 4, 4, 4, 4], "25 fps is 4/100 s a frame")
        let pillow = try AnimatedImageJudge.read(url.path)
        #expect(pillow.frameCount == 6 && pillow.loop == 1, "plays twice: one repeat")
    }

    @Test func makeMovieToAWebPURLWritesAnAnimatedWebP() async throws {
        let dir = try TemporaryDirectory()
        let sources = try AnimatedImageJudge.writeMovingSquare(count: 4, width: 40, height: 24, into: dir.url.path)
        let url = URL(fileURLWithPath: dir.path("frames.webp"))
        var options = SequenceOptions(settings: VideoSettings(frameRate: FrameRate(10)))
        options.settings.lossless = true
        let movie = try await MovieWriter.makeMovie(
            fromImagesAt: sources.map { URL(fileURLWithPath: $0) }, to: url, options: options)
        #expect(movie.codec == "webp" && movie.frames == 4)
        let pillow = try AnimatedImageJudge.read(url.path, sources: sources)
        #expect(pillow.durations == [100, 100, 100, 100])
        #expect(pillow.psnr == [99, 99, 99, 99], "lossless: \(pillow.psnr)")
    }

    @Test func aGIFHasNoSound() throws {
        let dir = try TemporaryDirectory()
        #expect {
            try MovieWriter(
                url: URL(fileURLWithPath: dir.path("a.gif")), settings: VideoSettings(width: 8, height: 8),
                audio: AudioFormat(sampleRate: 48000, channelCount: 1))
        } throws: { error in
            (error as? FlipbookError)?.message.contains("has no sound") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }
}
