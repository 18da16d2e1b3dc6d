import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

@testable import Flipbook

@Suite struct FragmentedMovieWriterTests {
    static func settings(fragment: MediaTime = MediaTime(value: 1, timescale: 2)) -> VideoSettings {
        var settings = VideoSettings(width: 160, height: 90, frameRate: FrameRate(24), crf: 28, preset: .fast)
        settings.fragmentDuration = fragment
        return settings
    }

    @Test func aFragmentedMovieHasExactTimesAndFragmentsThatStartWithKeyframes() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("fragmented.mp4")
        let writer = try MovieWriter(url: url, settings: Self.settings())
        for index in 0..<60 {
            try await writer.append(MovieWriterTests.syntheticFrame(index, width: 160, height: 90))
        }
        let movie = try await writer.finish()
        #expect(movie.frames == 60)
        #expect(movie.duration == MediaTime(value: 5, timescale: 2))
        #expect(dir.entries() == ["fragmented.mp4"])

        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(movie.bytes == UInt64(bytes.count))
        let reader = try FragmentedMovieReader(bytes: bytes)
        #expect(reader.validate() == [])
        #expect(reader.boxes.map(\.type).prefix(2) == ["ftyp", "moov"])
        #expect(reader.boxes.last?.type == "mfra")
        let lengths = reader.fragments.map(\.samples.count)
        #expect(lengths.dropLast().allSatisfy { (6...12).contains($0) }, "half to all of 12 frames (0.5 s): \(lengths)")
        #expect(lengths.last.map { (1...12).contains($0) } == true)
        #expect(reader.fragments.allSatisfy { $0.samples.first?.isSync == true })
        #expect(reader.samples.count == 60)
        #expect(reader.randomAccess?.count == lengths.count)

        let frames = try Judge.frames(of: url.path)  // 12000 ticks a second at 24 fps: 500 a frame
        #expect(frames.map(\.pts) == (0..<60).map { Int64($0) * 500 })
        #expect(frames.allSatisfy { $0.duration == 500 })
        #expect(try Judge.stream(of: url.path).frameCount == 60)
        #expect(try Judge.formatDuration(of: url.path) == "2.500000")
        #expect(try Judge.decodeErrors(of: url.path) == "")
    }

    /// What a crash would leave: the hidden file holds every finished fragment and plays as it is.
    @Test func theFileBeingWrittenPlaysWithEveryFinishedFragment() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("live.mp4")
        let writer = try MovieWriter(url: url, settings: Self.settings())
        for index in 0..<40 {
            try await writer.append(MovieWriterTests.syntheticFrame(index, width: 160, height: 90))
        }
        let hidden = try #require(dir.entries().first { $0.hasPrefix(".live.mp4.flipbook-") && $0.hasSuffix(".tmp") })
        let partial = dir.path("partial.mp4")
        try FileManager.default.copyItem(atPath: dir.path(hidden), toPath: partial)
        await writer.cancel()
        #expect(dir.entries() == ["partial.mp4"], "cancel removes the file being written")

        let reader = try FragmentedMovieReader(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: partial))))
        #expect(reader.validate() == [])
        #expect(reader.fragments.count >= 1, "frames leave the encoder about 25 frames late: \(reader.samples.count)")
        let kept = reader.samples.count
        let frames = try Judge.frames(of: partial)
        #expect(frames.count == kept)
        #expect(frames.map(\.pts) == (0..<kept).map { Int64($0) * 500 }, "the first frame still starts at 0")
        #expect(try Judge.decodeErrors(of: partial) == "")
    }

    @Test(arguments: [MediaTime(value: 0, timescale: 1), MediaTime(value: 3601, timescale: 1)])
    func aFragmentDurationOutOfRangeIsRefused(duration: MediaTime) throws {
        let dir = try TemporaryDirectory()
        #expect(throws: FlipbookError.self) {
            _ = try MovieWriter(
                url: dir.url.appendingPathComponent("x.mp4"), settings: Self.settings(fragment: duration))
        }
        #expect(dir.entries().isEmpty)
    }
}

extension FragmentedMovieWriterTests {
    @Test func aLateStartKeepsItsEmptyEditInAFragmentedMovie() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("late.mp4")
        let writer = try MovieWriter(url: url, settings: Self.settings())
        for index in 0..<30 {
            let time = MediaTime(value: Int64(24 + index), timescale: 24)  // from 1 s on
            try await writer.append(MovieWriterTests.syntheticFrame(index, width: 160, height: 90), at: time)
        }
        _ = try await writer.finish()
        let frames = try Judge.frames(of: url.path)
        let expected: [Int64] = (0..<30).map { 12000 + Int64($0) * 500 }
        #expect(frames.map(\.pts) == expected)
        #expect(try Judge.decodeErrors(of: url.path) == "")
        let dump = try BoxDump.render([UInt8](try Data(contentsOf: url)))
        #expect(dump.contains("elst size=40 version=0 entries=2"), "\(dump)")
    }
}
