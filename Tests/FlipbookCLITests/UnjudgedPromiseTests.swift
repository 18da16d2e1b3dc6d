import FlipbookTestSupport
import Foundation
import Testing

/// Promises the README makes about what is on disk after a crash, a race or an odd input, each
/// judged by the kernel: exit status, the folder's listing, the destination's bytes and modes.
@Suite struct UnjudgedPromiseTests {
    /// Frames enough for an encode that lasts well over a second at the medium preset.
    static func longSequence(in dir: TemporaryDirectory) throws -> String {
        let frames = try dir.folder("frames")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30,noise=alls=20:allf=t",
                "-frames:v", "150", "\(frames)/f%03d.png",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return frames
    }

    /// Starts the tool and returns the running process, its standard error collected.
    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.flipbookPath)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    @Test func aFaststartEncodeKilledHalfwayLeavesTheOldMovieAsItWas() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.longSequence(in: dir)
        let folder = try dir.folder("out")
        let movie = "\(folder)/movie.mp4"
        let old = Data("last week's movie".utf8)
        try old.write(to: URL(fileURLWithPath: movie))
        let (process, _) = try Self.start([frames, "-o", movie, "--overwrite", "--preset", "medium", "-q"])
        // Wait until the encode has written media to its hidden file, then kill it without warning.
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline,
            !dir.entries("out").contains(where: { $0.hasSuffix(".media.tmp") })
        {
            usleep(20_000)
        }
        usleep(300_000)
        #expect(process.isRunning, "the encode was still running when killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(FileManager.default.contents(atPath: movie) == old, "the old movie is byte for byte as it was")
        #expect(dir.entries("out").filter { !$0.hasPrefix(".") } == ["movie.mp4"], "no other movie appeared")
    }

    @Test func aFileThatAppearsAtTheDestinationDuringTheEncodeIsLeftAsItIs() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.longSequence(in: dir)
        let folder = try dir.folder("out")
        let movie = "\(folder)/movie.mp4"
        let (process, errors) = try Self.start([frames, "-o", movie, "--preset", "medium"])
        // The file must appear after the tool has checked the destination, that is once it writes media.
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline,
            !dir.entries("out").contains(where: { $0.hasSuffix(".media.tmp") })
        {
            usleep(20_000)
        }
        #expect(process.isRunning, "the encode was still running when the file appeared")
        let newcomer = Data("written by someone else meanwhile".utf8)
        try newcomer.write(to: URL(fileURLWithPath: movie))
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("appeared while the movie was being written"), "\(stderr)")
        #expect(stderr.contains(movie), "\(stderr)")
        #expect(FileManager.default.contents(atPath: movie) == newcomer, "the newcomer is kept, not replaced")
        #expect(dir.entries("out") == ["movie.mp4"], "no hidden file is left")
    }

    @Test(
        .enabled(
            if: Unprivileged.canRun, "as root the tool must run as nobody for a mode to stop it, and setpriv is missing"
        ))
    func anExistingDestinationIsReplacedWithoutBeingOpenedForWriting() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 6, width: 32, height: 32, into: frames)
        let folder = try dir.folder("out")
        let movie = "\(folder)/movie.mp4"
        try Data("read-only old movie".utf8).write(to: URL(fileURLWithPath: movie))
        chmod(dir.url.path, 0o755)
        chmod(frames, 0o755)
        for name in dir.entries("frames") { chmod("\(frames)/\(name)", 0o644) }
        chmod(folder, 0o777)
        // Nobody may open the old movie for writing (mode 0444, and as root the tool runs as nobody):
        // only a rename in the writable folder can replace it.
        chmod(movie, 0o444)
        let result = try Unprivileged.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--overwrite", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.stream(of: movie).frameCount == 6)
    }

    @Test func aSocketAndADeviceGivenAsImagesAreNamedAsSuch() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 32, height: 32, into: frames)
        let socketPath = "\(frames)/frame3.png"
        let bound = try ExternalTool.run(
            "/usr/bin/python3",
            ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", socketPath])
        #expect(bound.status == 0, "\(bound.stderr)")
        let socketRun = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", dir.path("s.mp4")])
        #expect(socketRun.status == 1)
        #expect(socketRun.stderr.contains("a socket"), "\(socketRun.stderr)")
        #expect(socketRun.stderr.contains(socketPath), "\(socketRun.stderr)")

        let deviceRun = try ExternalTool.run(
            ExternalTool.flipbookPath, ["\(frames)/frame1.png", "/dev/zero", "-o", dir.path("d.mp4"), "--keep-order"])
        #expect(deviceRun.status == 1)
        #expect(deviceRun.stderr.contains("a device"), "\(deviceRun.stderr)")
        #expect(deviceRun.stderr.contains("/dev/zero"), "\(deviceRun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.mp4")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("d.mp4")))
    }
}
