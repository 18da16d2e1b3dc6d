import FlipbookTestSupport
import Foundation
import Testing

/// The same inputs and options give the same bytes, whatever the heap held (glibc's
/// `MALLOC_PERTURB_` fills freed and new memory with a byte of its choosing, so a read of memory
/// nobody wrote shows up as a different movie) and however many workers decode the images. The full
/// matrix (32 runs of each) is `scripts/determinism.sh`, run by `make test-sanitizers`.
@Suite struct DeterminismTests {
    /// The three ways each movie is made: the heap as glibc leaves it with one decode worker, and
    /// filled with two different bytes with three workers.
    static let runs: [(perturb: String?, workers: String)] = [(nil, "1"), ("85", "3"), ("170", "3")]

    /// Thirty 320x240 pictures (the size at which x264's AVX-512 read showed) and three seconds of
    /// sound, made by ffmpeg.
    static func inputs(in dir: TemporaryDirectory) throws -> (frames: String, tone: String) {
        let frames = try dir.folder("frames")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "30",
                "\(frames)/f%02d.png",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let tone = dir.path("tone.wav")
        let sound = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1.5", "-ac", "2", tone])
        #expect(sound.status == 0, "\(sound.stderr)")
        return (frames, tone)
    }

    /// Runs the tool with `arguments`, glibc's heap filled with `perturb` (or as it comes) and
    /// `workers` decode workers, and returns the bytes of `output`.
    static func make(
        _ arguments: [String], output: String, perturb: String?, workers: String
    ) throws -> Data {
        var environment = ProcessInfo.processInfo.environment
        environment["MALLOC_PERTURB_"] = perturb
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, arguments + ["-o", output, "--overwrite", "-q", "--decode-workers", workers],
            environment: environment)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    /// Each codec at the settings where a stray read once changed the stream (x264 at `slower`, its
    /// macroblock tree on), with two encoder threads, and the container that takes it with sound.
    @Test(arguments: [
        ("h264", "mp4", ["--preset", "slower"]), ("hevc", "mp4", []), ("av1", "mp4", ["--preset", "faster"]),
        ("vp9", "webm", ["--preset", "veryfast"]), ("prores", "mov", []),
    ])
    func everyCodecMakesOneMovieWhateverTheHeapAndTheWorkers(codec: String, ext: String, extra: [String]) throws {
        let dir = try TemporaryDirectory()
        let (frames, tone) = try Self.inputs(in: dir)
        let output = dir.path("movie.\(ext)")
        let arguments = [frames, "--codec", codec, "--threads", "2", "--audio", tone] + extra
        let movies = try Self.runs.map {
            try Self.make(arguments, output: output, perturb: $0.perturb, workers: $0.workers)
        }
        #expect(movies[0].count > 10_000)
        #expect(Set(movies).count == 1, "\(codec): \(movies.map(\.count)) bytes, not one movie")
        #expect(try Judge.stream(of: output).frameCount == 30, "and it is the whole movie")
    }

    /// The codecs whose stream does not depend on the encoder's thread count, as the README says:
    /// av1 and prores with any count, vp9 with any from two up.
    @Test(arguments: [
        ("av1", "mp4", ["1", "4"], ["--preset", "faster"]), ("prores", "mov", ["1", "4"], []),
        ("vp9", "webm", ["2", "4"], ["--preset", "veryfast"]),
    ])
    func theseCodecsMakeOneMovieWithAnyThreadCount(
        codec: String, ext: String, threads: [String], extra: [String]
    ) throws {
        let dir = try TemporaryDirectory()
        let (frames, _) = try Self.inputs(in: dir)
        let output = dir.path("movie.\(ext)")
        let movies = try threads.map {
            try Self.make(
                [frames, "--codec", codec, "--threads", $0] + extra, output: output, perturb: nil, workers: "2")
        }
        #expect(Set(movies).count == 1, "\(codec) with \(threads) threads: \(movies.map(\.count)) bytes")
    }

    /// Fragmented MP4 and WebM with sound and alpha, and segments joined with sound: each the same
    /// bytes every way it is made.
    @Test(arguments: [
        ["--fragmented", "--fragment-duration", "0.25"],
        ["--fragmented", "--fragment-duration", "0.25", "--codec", "vp9", "--preset", "veryfast", "--alpha"],
    ])
    func fragmentedMoviesAreOneMovie(options: [String]) throws {
        let dir = try TemporaryDirectory()
        let (frames, tone) = try Self.inputs(in: dir)
        let ext = options.contains("vp9") ? "webm" : "mp4"
        let output = dir.path("movie.\(ext)")
        let movies = try Self.runs.map {
            try Self.make(
                [frames, "--audio", tone, "--threads", "2"] + options, output: output, perturb: $0.perturb,
                workers: $0.workers)
        }
        #expect(Set(movies).count == 1, "\(options): \(movies.map(\.count)) bytes, not one movie")
    }

    @Test func segmentsAndTheirJoinAreOneMovie() throws {
        let dir = try TemporaryDirectory()
        let (frames, tone) = try Self.inputs(in: dir)
        var joins: [Data] = []
        for run in Self.runs {
            let parts = try (1...3).map { k in
                let part = dir.path("part-\(k).mp4")
                _ = try Self.make(
                    [frames, "--segment", "\(k)/3", "--threads", "2", "--preset", "slower"], output: part,
                    perturb: run.perturb, workers: run.workers)
                return part
            }
            let joined = dir.path("joined.mp4")
            let join = try ExternalTool.run(
                ExternalTool.flipbookPath, ["join"] + parts + ["--audio", tone, "-o", joined, "--overwrite", "-q"])
            #expect(join.status == 0, "\(join.stderr)")
            joins.append(try Data(contentsOf: URL(fileURLWithPath: joined)))
        }
        #expect(Set(joins).count == 1, "\(joins.map(\.count)) bytes, not one movie")
    }
}
