import FlipbookTestSupport
import Foundation
import Synchronization
import Testing

@testable import Flipbook

/// Misuse that depends on timing: cancelled tasks, cancel() racing append(), calls after cancel().
/// Each throws a clear error or does nothing; none crashes or leaves a file behind.
@Suite struct WriterLifecycleMisuseTests {
    static let settings = VideoSettings(width: 64, height: 64, preset: .ultrafast)

    /// A task appending `frame` over and over, once it has appended five.
    static func appendingWithoutEnd(_ frame: Frame, to writer: MovieWriter) async -> Task<Void, any Error> {
        let appender = Task {
            for _ in 0..<100_000 {
                try await writer.append(frame)
                await Task.yield()  // lets the test's task run on a busy cooperative pool
            }
        }
        while await writer.framesAppended < 5 { await Task.yield() }
        return appender
    }

    static func frame(_ index: Int) throws -> Frame {
        try MovieWriterTests.syntheticFrame(index, width: 64, height: 64)
    }

    @Test func cancellingTheAppendingTaskThrowsAndTheWriterStaysUsable() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("task.mp4")
        let writer = try MovieWriter(url: url, settings: Self.settings)
        let frame = try Self.frame(0)
        let appender = await Self.appendingWithoutEnd(frame, to: writer)
        appender.cancel()
        await #expect(throws: CancellationError.self) { try await appender.value }
        let appended = await writer.framesAppended
        let movie = try await writer.finish()
        #expect(movie.frames == appended, "every frame appended before the cancellation is in the movie")
        #expect(try Judge.stream(of: url.path).frameCount == appended)
        #expect(dir.entries() == ["task.mp4"])
    }

    @Test func cancelWhileAnotherTaskAppendsStopsItAndRemovesTheFiles() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("raced.mp4")
        try Data("precious".utf8).write(to: url)
        let writer = try MovieWriter(url: url, settings: Self.settings, overwrite: true)
        let frame = try Self.frame(0)
        let appender = await Self.appendingWithoutEnd(frame, to: writer)
        await writer.cancel()
        do {
            try await appender.value
            Issue.record("the appender must be stopped")
        } catch let error as FlipbookError {
            #expect(error.code == .cancelled)
            #expect(error.message.contains("cancel()"))
        }
        #expect(dir.entries() == ["raced.mp4"], "temporary files removed")
        #expect(try Data(contentsOf: url) == Data("precious".utf8))
    }

    @Test(arguments: [false, true])
    func callsAfterCancelThrowCancelledAndCancelAgainDoesNothing(fragmented: Bool) async throws {
        let dir = try TemporaryDirectory()
        var settings = Self.settings
        if fragmented { settings.fragmentDuration = MediaTime(value: 1, timescale: 10) }
        let writer = try MovieWriter(url: dir.url.appendingPathComponent("gone.mp4"), settings: settings)
        for index in 0..<10 { try await writer.append(Self.frame(index)) }
        await writer.cancel()
        await writer.cancel()
        #expect(dir.entries().isEmpty)
        for call in 0..<2 {
            do {
                if call == 0 { try await writer.append(Self.frame(0)) } else { _ = try await writer.finish() }
                Issue.record("a cancelled writer must throw")
            } catch let error as FlipbookError {
                #expect(error.code == .cancelled)
            }
        }
        #expect(dir.entries().isEmpty)
    }

    @Test func cancellingMakeMovieRemovesEverythingAndKeepsTheDestination() async throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let images = try SampleImages.write(count: 400, width: 160, height: 120, into: frames).map {
            URL(fileURLWithPath: $0)
        }
        let url = dir.url.appendingPathComponent("made.mp4")
        try Data("precious".utf8).write(to: url)
        var options = SequenceOptions(settings: VideoSettings(preset: .veryslow))
        options.overwrite = true
        let started = Flag()
        options.progress = { _ in started.set() }
        let task = Task { [options] in try await MovieWriter.makeMovie(fromImagesAt: images, to: url, options: options)
        }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        await #expect(throws: (any Error).self) { _ = try await task.value }
        #expect(dir.entries() == ["frames", "made.mp4"])
        #expect(try Data(contentsOf: url) == Data("precious".utf8))
    }
}

/// A flag set from a progress callback on another thread.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
