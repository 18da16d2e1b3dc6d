import FlipbookTestSupport
import Foundation
import Synchronization
import Testing

@testable import Flipbook

/// `VideoSettings.codec = .av1` through the library: frames in memory, explicit times, AV1's size
/// limits, a writer cancelled while SVT-AV1 still holds pictures, and encoders opened and closed at once.
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

extension AV1WriterTests {
    /// SVT-AV1 keeps process-wide state that each encoder's set-up fills and each tear-down frees:
    /// writers opened, finished and cancelled at once must each still make their movie (or nothing).
    @Test(.timeLimit(.minutes(2)))
    func av1WritersOpenedAndClosedAtOnceEachMakeTheirMovie() async throws {
        let dir = try TemporaryDirectory()
        // Every third writer is cancelled; the others finish with one or two frames.
        let made = try await withThrowingTaskGroup(of: (path: String, frames: Int)?.self) { group in
            for index in 0..<12 {
                group.addTask {
                    let url = dir.url.appendingPathComponent("at-once-\(index).mp4")
                    var settings = VideoSettings(width: 128, height: 64, codec: .av1)
                    settings.preset = .ultrafast
                    let writer = try MovieWriter(url: url, settings: settings)
                    let frames = index % 3
                    for frame in 0..<frames {
                        try await writer.append(MovieWriterTests.syntheticFrame(frame, width: 128, height: 64))
                    }
                    guard frames > 0 else {
                        await writer.cancel()
                        return nil
                    }
                    _ = try await writer.finish()
                    return (url.path, frames)
                }
            }
            var made: [(path: String, frames: Int)] = []
            for try await movie in group { if let movie { made.append(movie) } }
            return made
        }
        #expect(made.count == 8)
        for movie in made {
            #expect(try Judge.frames(of: movie.path).count == movie.frames, "\(movie.path)")
            #expect(try Judge.decodeErrors(of: movie.path) == "", "\(movie.path)")
        }
        #expect(dir.entries().count == 8, "\(dir.entries())")
    }
}

extension AV1WriterTests {
    /// The same on eight threads of their own (the test pool may run only two tasks at once): each
    /// thread opens an encoder, encodes a picture, ends the stream and closes it, six times over.
    @Test(.timeLimit(.minutes(2)))
    func av1EncodersOpenedAndClosedOnEightThreadsEachEncodeTheirPicture() throws {
        var settings = VideoSettings(width: 128, height: 64, codec: .av1)
        settings.preset = .ultrafast
        settings.encoderThreads = 1
        let keyframes = Mutex(0)
        let failures = Mutex<[String]>([])
        let threads = (0..<8).map { thread in
            Thread { [settings] in
                for round in 0..<6 {
                    do {
                        let encoder = try SVTAV1Encoder(settings: settings, colour: .bt709)
                        var packets = try encoder.encode(YUVPicture(width: 128, height: 64), presentationTime: 0)
                        packets += try encoder.flush()
                        keyframes.withLock { $0 += packets.filter(\.isKeyframe).count }
                    } catch {
                        failures.withLock { $0.append("thread \(thread), round \(round): \(error)") }
                    }
                }
            }
        }
        for thread in threads { thread.start() }
        while threads.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(failures.withLock { $0 } == [])
        #expect(keyframes.withLock { $0 } == 48)
    }
}
