import FlipbookTestSupport
import Foundation
import Testing

/// Whether this process may mount a tmpfs in a private mount namespace.
enum SmallFileSystem {
    static let canMount: Bool = {
        guard let dir = try? TemporaryDirectory(),
            let result = try? ExternalTool.run(
                "unshare", ["-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs \(dir.url.path)"])
        else { return false }
        return result.status == 0
    }()
}

/// A disk that fills up, or a file that reaches its size limit, while the movie is written: each
/// way fails with one line naming the movie and the system's reason, leaves no hidden file and
/// leaves the existing destination as it was. Three ways to get there: a real small file system
/// (root only), the fault library failing every write from the twentieth on with ENOSPC, and the
/// file-size limit (`prlimit --fsize`, EFBIG), which need no root.
@Suite struct DiskFullTests {
    static let old = "last week"

    /// 60 frames of 320x240 at CRF 5 (about 460 KB of movie) in `frames`, and the folder `out`
    /// holding an existing `out.mp4`.
    private static func setUp(_ dir: TemporaryDirectory) throws -> (frames: String, folder: String, movie: String) {
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 320, height: 240, into: frames)
        let folder = URL(fileURLWithPath: try dir.folder("out")).resolvingSymlinksInPath().path
        try Data(old.utf8).write(to: URL(fileURLWithPath: "\(folder)/out.mp4"))
        return (frames, folder, "\(folder)/out.mp4")
    }

    private static func arguments(_ frames: String, _ movie: String, fragmented: Bool) -> [String] {
        [frames, "-o", movie, "--overwrite", "--crf", "5", "--preset", "ultrafast"]
            + (fragmented ? ["--fragmented"] : [])
    }

    /// The failure contract, judged from the folder.
    private static func expectCleanFailure(
        _ result: ToolResult, folder: String, reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let movie = "\(folder)/out.mp4"
        #expect(result.status == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains("\(movie):"), "names the movie: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(reason), "\(result.stderr)", sourceLocation: sourceLocation)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        #expect(entries == ["out.mp4"], "no hidden file is left: \(entries)", sourceLocation: sourceLocation)
        #expect(
            FileManager.default.contents(atPath: movie) == Data(old.utf8), "the destination is as it was",
            sourceLocation: sourceLocation)
    }

    @Test(
        .enabled(if: SmallFileSystem.canMount, "needs root and unshare -m to mount a small tmpfs"),
        arguments: [false, true])
    func aFullSmallFileSystemFailsWithOneLineAndLeavesTheDestination(fragmented: Bool) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 320, height: 240, into: frames)
        let small = try dir.folder("small")
        // Everything is checked inside the namespace, where the small file system exists.
        let script = """
            mount -t tmpfs -o size=256k tmpfs "$1" || exit 99
            printf 'last week' > "$1/out.mp4"
            "$2" "$3" -o "$1/out.mp4" --overwrite --crf 5 --preset ultrafast $4 2>"$1/../stderr.txt"
            echo "status=$?"
            ls -A "$1"
            cat "$1/out.mp4"
            """
        let result = try ExternalTool.run(
            "unshare",
            [
                "-m", "sh", "-c", script, "sh", small, ExternalTool.flipbookPath, frames,
                fragmented ? "--fragmented" : "",
            ])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == ["status=1", "out.mp4", "last week"], "exit 1, no temporary file, destination as it was")
        let stderr = try String(contentsOfFile: dir.path("stderr.txt"), encoding: .utf8)
        #expect(stderr.split(separator: "\n").count == 1, "one line: \(stderr)")
        #expect(stderr.contains("\(small)/out.mp4"), "names the movie: \(stderr)")
        #expect(stderr.contains("No space left on device"), "\(stderr)")
    }

    @Test(
        .enabled(if: FaultShim.isAvailable, "needs a C compiler (cc, clang or gcc) to build the fault library"),
        .enabled(
            if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
            "the sanitizers' runtimes must be loaded first and refuse a preloaded library"),
        arguments: [false, true])
    func aDiskThatStaysFullFailsWithOneLineAndLeavesTheDestination(fragmented: Bool) throws {
        let dir = try TemporaryDirectory()
        let (frames, folder, movie) = try Self.setUp(dir)
        // Both write their media a second's worth at a time (a chunk, or a fragment); the fragmented movie's
        // first write is its header.
        let fault = Fault("write", n: fragmented ? 2 : 1, errno: "ENOSPC", in: folder, persistent: true)
        let run = try FaultShim.run(
            ExternalTool.flipbookPath, Self.arguments(frames, movie, fragmented: fragmented), fault: fault)
        #expect(run.failedPath != nil, "the disk filled up during the encode")
        Self.expectCleanFailure(run.result, folder: folder, reason: "No space left on device")
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit (util-linux)"),
        arguments: [false, true])
    func aFileSizeLimitFailsWithOneLineAndLeavesTheDestination(fragmented: Bool) throws {
        let dir = try TemporaryDirectory()
        let (frames, folder, movie) = try Self.setUp(dir)
        // 64 KiB of the ~460 KB movie. SIGXFSZ is ignored (which exec keeps), so the write past the
        // limit fails with EFBIG instead of the signal ending the process.
        let result = try ExternalTool.run(
            "sh",
            [
                "-c", "trap '' XFSZ; exec prlimit --fsize=65536 -- \"$@\"", "sh", ExternalTool.flipbookPath,
            ] + Self.arguments(frames, movie, fragmented: fragmented))
        Self.expectCleanFailure(result, folder: folder, reason: "File too large")
    }
}
