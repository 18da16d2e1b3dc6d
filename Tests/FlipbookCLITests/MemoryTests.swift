import FlipbookTestSupport
import Foundation
import Testing

/// Memory stays flat however many frames there are, and frame order survives parallel decoding.
@Suite struct MemoryTests {
    /// Peak resident memory in KiB of the bench's in-memory path for `frames` frames.
    func peakMemory(frames: Int, in dir: TemporaryDirectory) throws -> Int {
        let bench = ExternalTool.productsDirectory.appendingPathComponent("FlipbookBench").path
        let report = dir.path("time-\(frames).txt")
        let result = try ExternalTool.run(
            "/usr/bin/time",
            [
                "-f", "%M", "-o", report, bench, "memory", "96x64", "\(frames)", "ultrafast", "23",
                dir.path("m\(frames).mp4"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.stream(of: dir.path("m\(frames).mp4")).frameCount == frames)
        let text = try String(contentsOfFile: report, encoding: .utf8)
        return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? ""))
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
            "sanitizers hold freed memory in quarantine, so resident memory grows with the work"))
    func threeThousandFramesTakeNoMoreMemoryThanThreeHundred() throws {
        let dir = try TemporaryDirectory()
        let few = try peakMemory(frames: 300, in: dir)
        let many = try peakMemory(frames: 3000, in: dir)
        // Ten times the frames; the sample tables grow by a few bytes a frame, nothing else may.
        #expect(Double(many) <= Double(few) * 1.10, "peak RSS \(few) KiB for 300 frames, \(many) KiB for 3000")
    }

    @Test func frameOrderSurvivesParallelDecoding() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        // 60 images of rising brightness, decoded several at a time: any reordering shows as a dip.
        try SampleImages.writeGreyLevels((0..<60).map { 20 + $0 * 3 }, width: 32, height: 32, into: frames)
        let movie = dir.path("order.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--crf", "5", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let means = try Judge.lumaMeans(of: movie)
        #expect(means.count == 60)
        #expect(zip(means, means.dropFirst()).allSatisfy { $0 < $1 }, "brightness should rise: \(means)")
    }

    /// However many images are decoded at once, the encoder gets them in the same order: the movies
    /// are byte for byte the same.
    @Test func decodeWorkersChangeNothingInTheMovie() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 40, width: 96, height: 64, into: frames)
        var movies: [Data] = []
        for workers in ["1", "5"] {
            let movie = dir.path("workers\(workers).mp4")
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath, [frames, "-o", movie, "--decode-workers", workers, "--threads", "1", "-q"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Judge.stream(of: movie).frameCount == 40)
            movies.append(try Data(contentsOf: URL(fileURLWithPath: movie)))
        }
        #expect(movies[0] == movies[1])
        let refused = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", dir.path("no.mp4"), "--decode-workers", "-1"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--decode-workers -1 is out of range"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("no.mp4")))
    }
}
