import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

@testable import Flipbook

/// Exact time end to end: what ffprobe reads back is what was asked for, to the tick.
@Suite struct TimingTests {
    /// A small frame whose content changes with `index`, so the encoder makes real P and B frames.
    static func frame(_ index: Int, size: Int = 32) throws -> Frame {
        var pixels = [UInt8](repeating: 0, count: size * size * 3)
        for offset in stride(from: 0, to: pixels.count, by: 3) {
            let x = (offset / 3) % size
            pixels[offset] = UInt8(truncatingIfNeeded: x * 8 + index * 5)
            pixels[offset + 1] = UInt8(truncatingIfNeeded: (offset / 3 / size) * 8)
            pixels[offset + 2] = UInt8(truncatingIfNeeded: index * 3)
        }
        return try Frame(width: size, height: size, format: .rgb, pixels: pixels)
    }

    static func write(
        _ name: String, in dir: TemporaryDirectory, settings: VideoSettings,
        frames: (MovieWriter) async throws -> Void
    ) async throws -> (String, MovieSummary) {
        let url = dir.url.appendingPathComponent(name)
        let writer = try MovieWriter(url: url, settings: settings)
        try await frames(writer)
        return (url.path, try await writer.finish())
    }

    @Test func threeHundredFramesAtNTSCRateHaveExactTimesAndLastExactly10Point01Seconds() async throws {
        let dir = try TemporaryDirectory()
        let (movie, summary) = try await Self.write(
            "ntsc.mp4", in: dir, settings: VideoSettings(width: 32, height: 32, frameRate: .ntsc30)
        ) { writer in
            for index in 0..<300 { try await writer.append(Self.frame(index)) }
        }
        #expect(summary.duration == MediaTime(value: 1001, timescale: 100))
        #expect(try Judge.stream(of: movie).timeBase == "1/30000")
        let frames = try Judge.frames(of: movie)
        #expect(frames.map(\.pts) == (0..<300).map { Int64($0) * 1001 })
        #expect(frames.allSatisfy { $0.duration == 1001 })
        #expect(try Judge.formatDuration(of: movie) == "10.010000")
        let durations = try MovieDurations(of: movie)
        #expect(durations.movieDuration == 300_300)
        #expect(durations.trackDuration == 300_300)
        #expect(durations.edits.map(\.segmentDuration).reduce(0, +) == 300_300)
    }

    @Test func threeThousandFramesAt30fpsEndAtExactly100Seconds() async throws {
        let dir = try TemporaryDirectory()
        let (movie, summary) = try await Self.write(
            "long.mp4", in: dir, settings: VideoSettings(width: 16, height: 16, preset: .veryfast)
        ) { writer in
            let frames = try (0..<30).map { try Self.frame($0, size: 16) }
            for index in 0..<3000 { try await writer.append(frames[index % 30]) }
        }
        #expect(summary.duration == MediaTime(value: 100, timescale: 1))
        let frames = try Judge.frames(of: movie)
        #expect(frames.count == 3000)
        // Frame 2999 starts at exactly 2999/30 s (tick 2999 x 400 of 12000) and lasts 1/30 s.
        #expect(frames.last?.pts == Int64(2999 * 400))
        #expect(frames.last?.ptsTime == "99.966667")
        #expect(frames.last?.duration == 400)
        #expect(try Judge.formatDuration(of: movie) == "100.000000")
    }

    @Test func bFramesStartAtZeroWithValidDecodeOrderAndAgreeingDurations() async throws {
        let dir = try TemporaryDirectory()
        let (movie, _) = try await Self.write("b.mp4", in: dir, settings: VideoSettings(width: 32, height: 32)) {
            writer in
            for index in 0..<60 { try await writer.append(Self.frame(index)) }
        }
        let packets = try Judge.packets(of: movie)
        #expect(packets.count == 60)
        #expect(packets.contains { $0.pts != $0.dts }, "preset medium reorders frames")
        #expect(packets.allSatisfy { $0.pts >= 0 && $0.dts <= $0.pts })
        #expect(zip(packets, packets.dropFirst()).allSatisfy { $0.dts < $1.dts })
        #expect(packets.map(\.pts).min() == 0)
        #expect(try Judge.frames(of: movie).first?.pts == 0)
        #expect(try Judge.decodeErrors(of: movie) == "")

        // Movie, track and edit durations are the presentation (60 frames); the media also holds the
        // decode delay the edit list skips, so that the last frame keeps its full duration.
        let durations = try MovieDurations(of: movie)
        #expect(durations.movieDuration == 60 * 400)
        #expect(durations.trackDuration == 60 * 400)
        #expect(durations.edits.count == 1)
        #expect(durations.edits.map(\.segmentDuration) == [60 * 400])  // unwrapped: see README (sanitizers)
        let delay = try #require(durations.edits.first?.mediaTime)
        #expect(delay > 0)
        #expect(durations.mediaDuration == 60 * 400 + UInt64(delay))
        let table = try SampleTableReader(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: movie))))
        #expect(table.validate().isEmpty)
        #expect(
            table.samples.map { Int64($0.decodeTime) + $0.compositionOffset - delay }.sorted()
                == (0..<60).map { Int64($0) * 400 })
    }

    @Test func explicitTimesMakeAVariableRateMovieWithEveryTimeAsGiven() async throws {
        let dir = try TemporaryDirectory()
        let times = ["0", "0.1", "0.25", "0.3", "1", "1.04"].map { MediaTime(parsingSeconds: $0)! }
        let (movie, summary) = try await Self.write("vfr.mp4", in: dir, settings: VideoSettings(width: 32, height: 32))
        {
            writer in
            for (index, time) in times.enumerated() {
                let duration = index == times.count - 1 ? MediaTime(value: 1, timescale: 2) : nil
                try await writer.append(Self.frame(index), at: time, duration: duration)
            }
        }
        #expect(summary.duration == MediaTime(value: 154, timescale: 100))
        let frames = try Judge.frames(of: movie)
        #expect(frames.map(\.ptsTime) == ["0.000000", "0.100000", "0.250000", "0.300000", "1.000000", "1.040000"])
        #expect(try Judge.formatDuration(of: movie) == "1.540000")
        #expect(try Judge.decodeErrors(of: movie) == "")
    }

    @Test func perFrameDurationsMakeOneSampleEach() async throws {
        let dir = try TemporaryDirectory()
        let seconds = [2, 1, 3].map { MediaTime(value: $0, timescale: 1) }
        let (movie, summary) = try await Self.write("show.mp4", in: dir, settings: VideoSettings(width: 32, height: 32))
        {
            writer in
            for (index, duration) in seconds.enumerated() {
                try await writer.append(Self.frame(index), duration: duration)
            }
        }
        #expect(summary.frames == 3)
        #expect(summary.duration == MediaTime(value: 6, timescale: 1))
        #expect(try Judge.frames(of: movie).map(\.ptsTime) == ["0.000000", "2.000000", "3.000000"])
        #expect(try Judge.formatDuration(of: movie) == "6.000000")
    }

    @Test func aFirstFrameAfterZeroKeepsItsTime() async throws {
        let dir = try TemporaryDirectory()
        let (movie, _) = try await Self.write("late.mp4", in: dir, settings: VideoSettings(width: 32, height: 32)) {
            writer in
            try await writer.append(Self.frame(0), at: MediaTime(value: 1, timescale: 2))
            try await writer.append(Self.frame(1))
        }
        #expect(try Judge.frames(of: movie).map(\.ptsTime) == ["0.500000", "0.533333"])
        #expect(try Judge.formatDuration(of: movie) == "0.566667")
    }

    @Test func nonIncreasingTimesAreRefusedNamingTheFrameAndBothTimes() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("backwards.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 32, height: 32))
        try await writer.append(Self.frame(0), at: .zero)
        try await writer.append(Self.frame(1), at: MediaTime(value: 1, timescale: 10))
        for bad in [MediaTime(value: 1, timescale: 10), MediaTime(value: 1, timescale: 20)] {
            do {
                try await writer.append(Self.frame(2), at: bad)
                Issue.record("a time that does not increase must be refused")
            } catch let error as FlipbookError {
                #expect(error.code == .invalidTimestamp)
                #expect(error.frameIndex == 2)
                #expect(error.description.contains("frame 1's 0.1 s"), "\(error)")
                #expect(error.description.contains("frame 2"))
            }
        }
        await writer.cancel()
        #expect(dir.entries().isEmpty, "no output file, no temporary file")
    }

    @Test func timesThatAreNotWholeTicksOrOverlapAreRefused() async throws {
        let dir = try TemporaryDirectory()
        let writer = try MovieWriter(
            url: dir.url.appendingPathComponent("t.mp4"), settings: VideoSettings(width: 32, height: 32))
        await #expect(throws: FlipbookError.self) {
            try await writer.append(Self.frame(0), at: MediaTime(value: 1, timescale: 7))
        }
        do {
            try await writer.append(Self.frame(0), at: MediaTime(value: 1, timescale: 7))
        } catch let error as FlipbookError {
            #expect(error.message.contains("time scale 12000"))
            #expect(error.message.contains("multiple of 7"))
        }
        try await writer.append(Self.frame(0), duration: MediaTime(value: 2, timescale: 1))
        await #expect(throws: FlipbookError.self) {
            try await writer.append(Self.frame(1), at: MediaTime(value: 1, timescale: 1))
        }
        await #expect(throws: FlipbookError.self) {
            try await writer.append(Self.frame(1), duration: .zero)
        }
        try await writer.append(Self.frame(1), at: MediaTime(value: 2, timescale: 1))
        #expect(try await writer.finish().duration == MediaTime(value: 61, timescale: 30))
    }
}
