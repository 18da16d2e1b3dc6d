import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct TimedOut: Error {}

/// The tool under SIGINT, SIGTERM and SIGKILL: nothing finished is lost and nothing unfinished is
/// passed off as a movie.
@Suite struct InterruptTests {
    /// Starts the tool with standard output and error discarded.
    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.flipbookPath)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Waits until `condition` holds, or fails after `seconds`.
    static func waitUntil(seconds: Double = 180, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { throw TimedOut() }
            usleep(10_000)
        }
    }

    /// The hidden file a movie is being written to, if there is one yet.
    static func temporaryFile(in dir: TemporaryDirectory, for name: String) -> String? {
        dir.entries().first { $0.hasPrefix(".\(name).flipbook-") && $0.hasSuffix(".tmp") }.map { dir.path($0) }
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))], [false, true])
    func aSignalStopsTheToolRemovesItsFilesAndLeavesTheDestination(
        signal: (number: Int32, status: Int32), fragmented: Bool
    ) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        // Long enough (several seconds at veryslow) that the signal, which a dispatch source hands to the
        // tool a moment after the kernel does, lands well before the end even on a loaded machine.
        try SampleImages.write(count: 450, width: 320, height: 240, into: frames)
        let output = dir.path("kept.mp4")
        let precious = Data("last week's movie".utf8)
        try precious.write(to: URL(fileURLWithPath: output))

        let process = try Self.start(
            [frames, "-o", output, "--overwrite", "--preset", "veryslow"] + (fragmented ? ["--fragmented"] : []))
        try Self.waitUntil { Self.temporaryFile(in: dir, for: "kept.mp4") != nil || !process.isRunning }
        #expect(process.isRunning, "the encode must still be running when the signal is sent")
        let sent = Date()
        kill(process.processIdentifier, signal.number)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(sent) < 5, "stops promptly")
        #expect(process.terminationStatus == signal.status)
        let stderr = String(
            decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.split(separator: "\n").count == 1, "one line: \(stderr)")
        #expect(stderr.contains("interrupted"))
        #expect(dir.entries() == ["frames", "kept.mp4"], "no temporary files are left")
        #expect(FileManager.default.contents(atPath: output) == precious, "the destination is byte for byte as it was")
    }

    /// `kill -9` halfway through a fragmented encode: the hidden file plays, and holds at least
    /// every fragment that was complete before the kill.
    @Test func aKilledFragmentedEncodeKeepsEveryFinishedFragment() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 400, width: 320, height: 240, into: frames)
        let output = dir.path("live.mp4")
        let process = try Self.start(
            [frames, "-o", output, "--fragmented", "--fragment-duration", "0.5", "--preset", "slower"])
        var finishedBeforeKill = 0
        var samplesBeforeKill = 0
        try Self.waitUntil {
            guard let path = Self.temporaryFile(in: dir, for: "live.mp4"),
                let data = FileManager.default.contents(atPath: path)
            else { return !process.isRunning }
            let reader = try FragmentedMovieReader(bytes: [UInt8](data))
            finishedBeforeKill = reader.fragments.count
            samplesBeforeKill = reader.samples.count
            return finishedBeforeKill >= 3 || !process.isRunning
        }
        #expect(process.isRunning, "the encode must still be running when it is killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let partial = try #require(Self.temporaryFile(in: dir, for: "live.mp4"), "the hidden file stays after kill -9")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing unfinished appears at the destination")
        let reader = try FragmentedMovieReader(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: partial))))
        #expect(reader.validate() == [])
        #expect(reader.fragments.count >= finishedBeforeKill)
        let decoded = try Judge.frames(of: partial)
        #expect(decoded.count == reader.samples.count)
        #expect(decoded.count >= samplesBeforeKill, "every frame of every finished fragment decodes")
        let expected = (0..<decoded.count).map { Int64($0) * 400 }  // 30 fps at 12000 ticks a second
        #expect(decoded.map(\.pts) == expected)
        let errors = try Judge.decodeErrors(of: partial)
        #expect(errors.isEmpty || errors.lowercased().contains("trunc"), "clean, or only the torn tail: \(errors)")
        print(
            "kill -9: \(finishedBeforeKill) fragments (\(samplesBeforeKill) frames) finished before the kill; "
                + "\(reader.fragments.count) fragments, \(decoded.count) frames decoded after")
    }

    @Test func aFragmentedMovieFromTheToolIsExactAndClean() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 45, width: 160, height: 120, into: frames)
        let output = dir.path("frag.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", output, "--fragmented", "--fragment-duration", "0.5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(dir.entries() == ["frag.mp4", "frames"])
        let decoded = try Judge.frames(of: output)
        #expect(decoded.map(\.pts) == (0..<45).map { Int64($0) * 400 })
        #expect(decoded.allSatisfy { $0.duration == 400 })
        #expect(try Judge.stream(of: output).frameCount == 45)
        #expect(try Judge.formatDuration(of: output) == "1.500000")
        #expect(try Judge.decodeErrors(of: output) == "")
        let reader = try FragmentedMovieReader(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(reader.validate() == [])
        #expect(reader.fragments.count >= 3)
    }

    @Test func fragmentDurationWithoutFragmentedIsAUsageError() throws {
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, ["x.png", "-o", "/tmp/x.mp4", "--fragment-duration", "2"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--fragmented"))
    }
}
