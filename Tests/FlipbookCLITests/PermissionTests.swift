import FlipbookTestSupport
import Foundation
import Testing

/// Runs the tool as a user that file permissions apply to: this user when it is not root, and
/// `nobody` (through `setpriv`) as root, which reads and writes any file.
enum Unprivileged {
    static let isRoot = getuid() == 0
    static let setpriv = "/usr/bin/setpriv"

    /// Whether a permission can be refused here.
    static var canRun: Bool { !isRoot || FileManager.default.isExecutableFile(atPath: setpriv) }

    static func run(_ executable: String, _ arguments: [String]) throws -> ToolResult {
        guard isRoot else { return try ExternalTool.run(executable, arguments) }
        return try ExternalTool.run(
            setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments)
    }
}

/// A movie's folder that cannot be written: the failure is found before any work is lost and said
/// in one line naming the movie, and an existing movie there stays as it was.
@Suite struct PermissionTests {
    @Test(
        .enabled(
            if: Unprivileged.canRun,
            "as root the tool must run as nobody to be refused a folder, and setpriv is missing"),
        arguments: [false, true])
    func aFolderThatCannotBeWrittenFailsWithOneLineAndKeepsTheMovie(fragmented: Bool) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 32, height: 32, into: frames)
        let folder = try dir.folder("out")
        let movie = "\(folder)/out.mp4"
        let old = Data("last week".utf8)
        try old.write(to: URL(fileURLWithPath: movie))
        chmod(dir.url.path, 0o755)
        chmod(movie, 0o666)
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }

        let result = try Unprivileged.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--overwrite"] + (fragmented ? ["--fragmented"] : []))
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.contains("\(movie): cannot write the movie: Permission denied"), "\(result.stderr)")
        #expect(dir.entries("out") == ["out.mp4"])
        #expect(FileManager.default.contents(atPath: movie) == old)
    }
}
