import FlipbookTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--follow`: a renderer (a writer in the test) writes numbered frames at a steady rate, leaves a
/// gap, stalls and finishes, while the tool follows it. ffprobe judges the hidden fragmented movie
/// while it is written and the finished movie at the end.
@Suite struct FollowTests {
    /// How the writer makes a frame appear.
    enum Arrival {
        /// Written under a temporary name, then renamed into place.
        case renamed
        /// Written in place and closed.
        case written
    }

    /// A renderer stand-in: copies numbered source frames into a live folder as `f_NNNN.png`.
    struct Renderer {
        let source: String
        let live: String

        /// Makes frame `number` appear; with `pause`, the file is written in two halves with a pause
        /// between them, as a slow renderer does.
        func write(_ number: Int, _ arrival: Arrival, pause: Double? = nil) throws {
            let name = String(format: "f_%04d.png", number)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(source)/\(name)"))
            let target = arrival == .renamed ? "\(live)/.\(name).partial" : "\(live)/\(name)"
            // One open and one close, as a renderer writes a file.
            let descriptor = open(target, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw JudgeError(description: "cannot create \(target)") }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            if let pause {
                try handle.write(contentsOf: bytes.prefix(bytes.count / 2))
                usleep(useconds_t(pause * 1_000_000))
                try handle.write(contentsOf: bytes.dropFirst(bytes.count / 2))
            } else {
                try handle.write(contentsOf: bytes)
            }
            try handle.close()
            if arrival == .renamed { try FileManager.default.moveItem(atPath: target, toPath: "\(live)/\(name)") }
        }

        /// Writes `numbers` at `fps`, each on its own tick.
        func write(_ numbers: some Sequence<Int>, _ arrival: Arrival, fps: Double = 30) throws {
            let start = Date()
            for (tick, number) in numbers.enumerated() {
                let due = start.addingTimeInterval(Double(tick) / fps)
                let wait = due.timeIntervalSinceNow
                if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
                try write(number, arrival)
            }
        }
    }

    /// `count` source frames `f_0001.png …` of 64x64, and an empty live folder.
    static func renderer(in dir: TemporaryDirectory, count: Int) throws -> Renderer {
        let source = try dir.folder("source")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=30", "-frames:v", "\(count)",
                "-start_number", "1", "\(source)/f_%04d.png",
            ])
        guard made.status == 0 else { throw JudgeError(description: "ffmpeg: \(made.stderr)") }
        return Renderer(source: source, live: try dir.folder("live"))
    }

    /// Starts the tool following `live/f_%04d.png` into `output`, standard error captured.
    static func follow(_ renderer: Renderer, to output: String, _ options: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.flipbookPath)
        process.arguments =
            ["\(renderer.live)/f_%04d.png", "-o", output, "--follow", "--preset", "ultrafast"] + options
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Waits for the tool to end (failing after `seconds`) and returns its standard output and error.
    static func finish(_ process: Process, seconds: Double = 30) throws -> (stdout: String, stderr: String) {
        try InterruptTests.waitUntil(seconds: seconds) { !process.isRunning }
        process.waitUntilExit()
        func read(_ pipe: Any?) -> String {
            String(decoding: (pipe as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        return (read(process.standardOutput), read(process.standardError))
    }

    /// Every frame's presentation time in seconds, as ffprobe decodes them.
    static func frameTimes(of movie: String) throws -> [Double] {
        try Judge.frames(of: movie).map { try #require(Double($0.ptsTime)) }
    }

    /// The frames ffprobe decodes from the hidden movie being written, once there are some.
    static func framesInProgress(in dir: TemporaryDirectory, for name: String, process: Process) throws -> Int {
        var frames = 0
        try InterruptTests.waitUntil(seconds: 10) {
            guard process.isRunning else { return true }
            guard let partial = InterruptTests.temporaryFile(in: dir, for: name) else { return false }
            frames = (try? Judge.stream(of: partial).frameCount) ?? 0
            return frames > 0
        }
        return frames
    }

    @Test(arguments: [Arrival.renamed, .written])
    func aSequenceWithAGapAndAStallPlaysWhileWrittenAndEndsExact(arrival: Arrival) throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 60)
        let output = dir.path("live.mp4")
        let process = try Self.follow(
            renderer, to: output, ["--follow-timeout", "2", "--fragment-duration", "0.25", "--json"])
        try renderer.write((1...40).filter { $0 != 20 }, arrival)
        // The renderer stalls: the movie written so far plays, and holds only part of the sequence.
        let partial = try Self.framesInProgress(in: dir, for: "live.mp4", process: process)
        #expect(process.isRunning, "still following during the stall")
        #expect(partial > 0 && partial < 59, "the movie in progress plays \(partial) frames")
        usleep(300_000)
        try renderer.write(41...60, arrival)
        let (stdout, stderr) = try Self.finish(process)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("frame 20 missing: f_0019.png is followed by f_0021.png"), "\(stderr)")
        #expect(stdout.contains("\"gaps\":[20]"), "\(stdout)")
        #expect(dir.entries() == ["live", "live.mp4", "source"], "no hidden file is left")
        #expect(try Judge.stream(of: output).frameCount == 59)
        let times = try Self.frameTimes(of: output)
        #expect(times.count == 59)
        for (index, time) in times.enumerated() {
            #expect(abs(time - Double(index) / 30) < 1e-6, "frame \(index) at \(time) s")
        }
        #expect(try Judge.formatDuration(of: output) == "1.966667")
        #expect(try Judge.decodeErrors(of: output) == "")
    }

    /// Images written slowly (half, a pause, the rest) are taken only once whole, by inotify's close
    /// event or, polling, by the PNG's end; `--gaps hold` keeps time by the numbers, and
    /// `--follow-until` ends it as soon as the last number is taken.
    @Test(arguments: [false, true])
    func halfWrittenImagesAreNotTakenAndFollowUntilEndsIt(polling: Bool) throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 12)
        let output = dir.path("slow.mp4")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.flipbookPath)
        process.arguments = [
            "\(renderer.live)/f_%04d.png", "-o", output, "--follow", "--preset", "ultrafast", "--follow-until", "12",
            "--follow-timeout", "1", "--gaps", "hold",
        ]
        if polling { process.environment = ["FLIPBOOK_FOLLOW_POLLING": "1"] }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        for number in 1...12 where number != 5 {
            try renderer.write(number, .written, pause: number % 4 == 2 ? 0.4 : nil)
        }
        let started = Date()
        let (_, stderr) = try Self.finish(process)
        #expect(process.terminationStatus == 0, "a half-written PNG taken fails to decode: \(stderr)")
        #expect(Date().timeIntervalSince(started) < 2.5, "ends once 12 is taken, the gap's second given up")
        #expect(stderr.contains("frame 5 missing"), "\(stderr)")
        let numbers = [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12]
        let times = try Self.frameTimes(of: output)
        #expect(times.count == numbers.count)
        for (time, number) in zip(times, numbers) {
            #expect(abs(time - Double(number - 1) / 30) < 1e-6, "image \(number) at \(time) s")
        }
        #expect(try Judge.formatDuration(of: output) == "0.400000", "twelve numbers' worth of time")
        #expect(try Judge.decodeErrors(of: output) == "")
        let psnr = try Judge.psnr(of: output, againstImages: "\(renderer.source)/f_%04d.png")
        #expect(psnr > 20, "the frames are the renderer's images (PSNR \(psnr) dB); the gap is held")
    }

    @Test func theTimeoutEndsItWhenNothingNewArrives() throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 10)
        try renderer.write(1...10, .renamed, fps: 1000)
        let output = dir.path("quiet.mp4")
        let started = Date()
        let process = try Self.follow(renderer, to: output, ["--follow-timeout", "1"])
        let (_, stderr) = try Self.finish(process)
        let seconds = Date().timeIntervalSince(started)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(seconds >= 1 && seconds < 5, "ended \(seconds) s after starting")
        #expect(try Judge.stream(of: output).frameCount == 10)
        #expect(try Judge.frames(of: output).map(\.pts) == (0..<10).map { Int64($0) * 400 })
    }

    @Test func aFolderIsFollowedNumberedLikeItsFirstImage() throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 6)
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: "\(renderer.live)/notes.txt"))
        try Data("half".utf8).write(to: URL(fileURLWithPath: "\(renderer.live)/f_0003.png.tmp"))
        let output = dir.path("folder.mp4")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.flipbookPath)
        process.arguments = [renderer.live, "-o", output, "--follow", "--follow-timeout", "1", "--preset", "ultrafast"]
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        try renderer.write(1...6, .renamed)
        let (_, stderr) = try Self.finish(process)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(try Judge.stream(of: output).frameCount == 6)
        #expect(try Judge.frames(of: output).map(\.pts) == (0..<6).map { Int64($0) * 400 })
    }

    @Test func nothingArrivingIsAnErrorAndLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 1)
        let process = try Self.follow(renderer, to: dir.path("none.mp4"), ["--follow-timeout", "0.5"])
        let (_, stderr) = try Self.finish(process)
        #expect(process.terminationStatus == 1)
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        #expect(stderr.contains("no image of the sequence arrived"), "\(stderr)")
        #expect(dir.entries() == ["live", "source"])
    }

    @Test func failRefusesOnceTheRendererHasMovedOnPastAGap() throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 8)
        let output = dir.path("gap.mp4")
        let process = try Self.follow(renderer, to: output, ["--follow-timeout", "1", "--gaps", "fail"])
        try renderer.write([1, 2, 4, 5, 6, 7, 8], .renamed)
        let (_, stderr) = try Self.finish(process)
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("frame 3 missing: f_0002.png is followed by f_0004.png"), "\(stderr)")
        #expect(stderr.contains("--gaps hold"), "\(stderr)")
        #expect(dir.entries() == ["live", "source"], "nothing at the destination, no hidden file")
    }

    @Test func anImageArrivingAfterItsNumberWasGivenUpOnIsLeftOutAndNamed() throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 20)
        let output = dir.path("late.mp4")
        let process = try Self.follow(renderer, to: output, ["--follow-timeout", "1"])
        // The renderer moves on past 3 for longer than the gap's grace (the timeout), then 3 comes.
        try renderer.write([1, 2] + Array(4...18), .renamed, fps: 10)
        try renderer.write([3, 19, 20], .renamed, fps: 10)
        let (_, stderr) = try Self.finish(process)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("frame 3 missing: f_0002.png is followed by f_0004.png"), "\(stderr)")
        #expect(stderr.contains("f_0003.png arrived after its number was given up on and was left out"), "\(stderr)")
        #expect(try Judge.stream(of: output).frameCount == 19)
    }

    @Test func ctrlCFinishesTheMovieWithTheImagesTaken() throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 30)
        let output = dir.path("stopped.mp4")
        let process = try Self.follow(renderer, to: output, ["--follow-timeout", "30"])
        try renderer.write(1...30, .renamed)
        usleep(500_000)
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGINT)
        let (_, stderr) = try Self.finish(process, seconds: 5)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("SIGINT: stopped following"), "\(stderr)")
        #expect(dir.entries() == ["live", "source", "stopped.mp4"])
        #expect(try Judge.stream(of: output).frameCount == 30)
        #expect(try Judge.frames(of: output).map(\.pts) == (0..<30).map { Int64($0) * 400 })
        #expect(try Judge.decodeErrors(of: output) == "")
    }

    /// The bench's renderer writes 90 frames at 30 a second while the library follows it, in a
    /// process of its own (so this suite's other tests do not hold its threads).
    @Test(arguments: [false, true])
    func everyFrameIsTakenWithinASecondOfBeingClosed(polling: Bool) throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 30)
        let bench = ExternalTool.productsDirectory.appendingPathComponent("FlipbookBench").path
        let movie = dir.path("bench.mp4")
        let result = try ExternalTool.run(
            bench, ["follow", renderer.source, renderer.live, "90", "30", movie] + (polling ? ["polling"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let worst = try #require(
            line.components(separatedBy: "worst ").last?.split(separator: " ").first.flatMap { Double($0) }, "\(line)")
        #expect(line.contains("90 frames, 90 measured"), "\(line)")
        #expect(worst < 1000, "\(line)")
        #expect(try Judge.stream(of: movie).frameCount == 90)
        print(line)
    }

    @Test(arguments: [
        (["--follow-until", "9"], "--follow-until applies to --follow"),
        (["--follow-timeout", "5"], "--follow-timeout applies to --follow"),
        (["--follow", "--follow-timeout", "0"], "--follow-timeout 0 is not a time"),
        (["--follow", "--keep-order"], "--follow and --keep-order cannot be used together"),
    ])
    func misusedOptionsAreUsageErrors(options: [String], message: String) throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["frames/", "-o", "/tmp/x.mp4"] + options)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(.enabled(if: ProgressLineTests.canOpenPseudoTerminal, "no pseudo-terminal can be opened here"))
    func aTerminalSeesFramesTakenAndWaitedFor() throws {
        let dir = try TemporaryDirectory()
        let renderer = try Self.renderer(in: dir, count: 5)
        try renderer.write(1...5, .renamed, fps: 1000)
        let command =
            "'\(ExternalTool.flipbookPath)' '\(renderer.live)/f_%04d.png' -o '\(dir.path("p.mp4"))' --follow "
            + "--follow-timeout 0.5 --preset ultrafast"
        let result = try ExternalTool.run("script", ["-q", "-e", "-c", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("flipbook: following: 5 frames taken, 1 waited for"), "\(result.stdout)")
        #expect(result.stdout.contains("waiting for image 6"), "\(result.stdout)")
    }

    /// A `--follow-until` far past where the render stopped, and a stray file numbered millions on, end
    /// the movie with the images taken (a warning each) instead of listing every missing number.
    @Test func numbersMillionsAwayAreNamedNotListed() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 64, height: 64, into: frames)
        let names = dir.entries("frames").sorted()
        try FileManager.default.copyItem(atPath: "\(frames)/\(names[0])", toPath: "\(frames)/frame9999999.png")
        let movie = dir.path("far.mp4")
        let started = Date()
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath,
            [frames, "-o", movie, "--follow", "--follow-until", "999999999", "--follow-timeout", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("frame9999999.png is numbered"), "\(result.stderr)")
        #expect(result.stderr.contains("never arrived"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(try Judge.stream(of: movie).frameCount == 3)

        let strict = try ExternalTool.run(
            ExternalTool.flipbookPath,
            [
                frames, "-o", dir.path("strict.mp4"), "--follow", "--follow-until", "999999999", "--follow-timeout",
                "1",
                "--gaps", "fail",
            ])
        #expect(strict.status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.path("strict.mp4")))
    }
}
