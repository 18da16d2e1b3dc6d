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
        return try Self.peak(inReport: report)
    }

    /// The peak resident memory in KiB that GNU time's `-f %M -o report` wrote (its last line).
    static func peak(inReport report: String) throws -> Int {
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

    /// Camera-size JPEGs (24 MP) made into a 1080p movie: each is decoded at a reduced scale and
    /// shrunk a row at a time, so memory is bounded by the movie's size times the decode workers, not
    /// by the photos' size (one 6000x4000 RGB decode alone is 72 MB; before scaled decoding two
    /// workers took over 600 MB).
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
            "sanitizers hold freed memory in quarantine, so resident memory grows with the work"))
    func cameraSizeJPEGsTakeMemoryBoundedByTheMovieNotThePhotos() throws {
        let dir = try TemporaryDirectory()
        let all = try dir.folder("all")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=6000x4000:rate=30", "-frames:v", "12", "-q:v", "3",
                "-pix_fmt", "yuvj420p", "\(all)/photo%02d.jpg",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        var peaks: [Int: Int] = [:]
        for count in [4, 12] {
            let folder = try dir.folder("photos\(count)")
            for index in 1...count {
                let name = String(format: "photo%02d.jpg", index)
                try FileManager.default.copyItem(atPath: "\(all)/\(name)", toPath: "\(folder)/\(name)")
            }
            let movie = dir.path("photos\(count).mp4")
            let report = dir.path("time\(count).txt")
            let result = try ExternalTool.run(
                "/usr/bin/time",
                [
                    "-f", "%M", "-o", report, ExternalTool.flipbookPath, folder, "-o", movie, "--size", "1920x1080",
                    "--fit", "cover", "--preset", "ultrafast", "--decode-workers", "2", "-q",
                ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Judge.stream(of: movie).frameCount == count)
            let text = try String(contentsOfFile: report, encoding: .utf8)
            guard let peak = Int(text.split(separator: "\n").last ?? "") else {
                Issue.record("GNU time's report has no peak: \(text)")
                return
            }
            peaks[count] = peak
        }
        let few = try #require(peaks[4])
        let many = try #require(peaks[12])
        #expect(many < 300 * 1024, "peak RSS \(many / 1024) MB for twelve 24 MP photos")
        // Three times the photos; the allocator's arenas settle over the first few, hence the margin.
        #expect(Double(many) <= Double(few) * 1.5, "peak RSS \(few) KiB for 4 photos, \(many) KiB for 12")
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

extension MemoryTests {
    /// ProRes 4444 with alpha from raw RGBA frames: libavcodec's frame threads hold a few frames each,
    /// and nothing may grow with the number of frames.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
            "sanitizers hold freed memory in quarantine, so resident memory grows with the work"))
    func proResWithAlphaTakesNoMoreMemoryForThreeThousandFramesThanThreeHundred() throws {
        let dir = try TemporaryDirectory()
        let (width, height) = (160, 120)
        // One second of a moving pattern, repeated: the pipe is fed in whole seconds.
        let second = try ExternalTool.runForData(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30,format=rgba",
                "-frames:v", "30", "-f", "rawvideo", "-",
            ])
        #expect(second.count == 30 * width * height * 4)
        func peak(frames: Int) throws -> Int {
            let movie = dir.path("p\(frames).mov")
            let report = dir.path("time-prores-\(frames).txt")
            var input = Data()
            for _ in 0..<(frames / 30) { input.append(second) }
            _ = try ExternalTool.runForData(
                "/usr/bin/time",
                [
                    "-f", "%M", "-o", report, ExternalTool.flipbookPath, "-", "--raw-size", "\(width)x\(height)",
                    "-o", movie, "--codec", "prores", "--alpha", "-q",
                ], stdin: input)
            #expect(try Judge.stream(of: movie).frameCount == frames)
            try FileManager.default.removeItem(atPath: movie)
            return try Self.peak(inReport: report)
        }
        let few = try peak(frames: 300)
        let many = try peak(frames: 3000)
        #expect(Double(many) <= Double(few) * 1.10, "peak RSS \(few) KiB for 300 frames, \(many) KiB for 3000")
    }
}
