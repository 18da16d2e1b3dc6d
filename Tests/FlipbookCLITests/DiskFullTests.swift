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

/// A disk that fills up while the movie is written: a size-limited tmpfs in a private mount
/// namespace (`unshare -m`, as root). Skipped where mounting is not permitted.
@Suite(.enabled(if: SmallFileSystem.canMount, "needs root and unshare -m to mount a small tmpfs"))
struct DiskFullTests {
    @Test(arguments: [false, true])
    func aFullDiskFailsWithOneLineNamingThePathAndLeavesTheDestination(fragmented: Bool) throws {
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
}
