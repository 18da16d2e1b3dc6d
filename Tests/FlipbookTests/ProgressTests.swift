import FlipbookTestSupport
import Foundation
import Synchronization
import Testing

@testable import Flipbook

/// `makeMovie` reports its progress after every image, in order, ending at the whole sequence.
@Suite struct ProgressTests {
    @Test func progressCountsEveryImageInOrderUpToTheTotal() async throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let images = try SampleImages.write(count: 24, width: 64, height: 48, into: frames).map {
            URL(fileURLWithPath: $0)
        }
        let updates = Mutex<[SequenceProgress]>([])
        var options = SequenceOptions(settings: VideoSettings(preset: .ultrafast))
        options.progress = { update in updates.withLock { $0.append(update) } }
        let movie = try await MovieWriter.makeMovie(
            fromImagesAt: images, to: dir.url.appendingPathComponent("progress.mp4"), options: options)
        let seen = updates.withLock { $0 }
        #expect(movie.frames == 24)
        #expect(seen.allSatisfy { $0.totalFrames == 24 })
        #expect(seen.last?.framesDone == 24)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.framesDone < $1.framesDone }, "\(seen.map(\.framesDone))")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.elapsedSeconds <= $1.elapsedSeconds })
        // Every image after the first (which sets the movie's size) is reported.
        #expect(seen.count >= 23)
    }
}
