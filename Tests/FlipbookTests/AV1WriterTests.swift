import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// `VideoSettings.codec = .av1` through the library: frames in memory, explicit times, AV1's size
/// limits, and a writer cancelled while SVT-AV1 still holds pictures.
@Suite struct AV1WriterTests {
    @Test func framesInMemoryAtExplicitTimesBecomeAnAV1MovieWithThoseTimes() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("av1.mp4")
        var settings = VideoSettings(width: 160, height: 96, frameRate: FrameRate(24), codec: .av1)
        settings.preset = .veryfast
        let writer = try MovieWriter(url: url, settings: settings)
        // Irregular times on the movie's clock: each frame lasts until the next starts.
        let milliseconds = [0, 40, 100, 125, 250, 300, 500, 750]
        for (index, time) in milliseconds.enumerated() {
            try await writer.append(
                MovieWriterTests.syntheticFrame(index, width: 160, height: 96),
                at: MediaTime(value: Int64(time), timescale: 1000))
        }
        let movie = try await writer.finish()
        #expect(movie.frames == 8)
        #expect(movie.codec == "av1")
        let frames = try Judge.frames(of: url.path)
        #expect(frames.map(\.ptsTime) == milliseconds.map { String(format: "%.6f", Double($0) / 1000) })
        #expect(try Judge.stream(of: url.path).codecName == "av1")
        #expect(try Judge.decodeErrors(of: url.path) == "")
    }

    @Test(arguments: [(62, 64), (64, 62), (16386, 64), (64, 8706)])
    func sizesOutsideSVTAV1sLimitsAreRefused(width: Int, height: Int) throws {
        var settings = VideoSettings(width: width, height: height, codec: .av1)
        #expect(throws: FlipbookError.self) { try settings.validate() }
        settings.codec = .h264
        if width <= 16384 && height <= 16384 { try settings.validate() }
    }

    @Test func aCancelledWriterReleasesTheEncoderAndLeavesNothing() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("cancelled.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 128, height: 64, codec: .av1))
        for index in 0..<12 {
            try await writer.append(MovieWriterTests.syntheticFrame(index, width: 128, height: 64))
        }
        await writer.cancel()
        #expect(dir.entries().isEmpty, "\(dir.entries())")
    }
}

extension AV1WriterTests {
    /// SVT-AV1 waits in its teardown for a stream end it was never sent: a writer cancelled before
    /// its first frame, or one that fails on it, must still release the encoder and return.
    @Test(.timeLimit(.minutes(1)))
    func aWriterCancelledBeforeItsFirstFrameReturns() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("empty.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 128, height: 64, codec: .av1))
        await writer.cancel()
        #expect(dir.entries().isEmpty, "\(dir.entries())")
    }
}
