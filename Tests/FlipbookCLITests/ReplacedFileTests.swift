import FlipbookTestSupport
import Foundation
import Testing

/// Replacing a movie keeps what its owner set on it, judged with `stat`, `getfattr` and ffprobe:
/// permissions, owner and group (where the process may set them), extended attributes, and a
/// symbolic link at the destination, which is written through. Run as root and, through `setpriv`,
/// as the unprivileged user `nobody`.
@Suite(.enabled(if: getuid() == 0, "needs root, to make files of other users and to run the tool as nobody"))
struct ReplacedFileTests {
    static let nobody: UInt32 = 65534

    /// A folder `nobody` may write, with one image to make movies of.
    static func workspace() throws -> (dir: TemporaryDirectory, frames: String, out: String) {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 32, height: 32, into: frames)
        let out = try dir.folder("out")
        for path in [dir.url.path, frames, out] { chmod(path, 0o777) }
        for image in try FileManager.default.contentsOfDirectory(atPath: frames) { chmod("\(frames)/\(image)", 0o644) }
        return (dir, frames, out)
    }

    /// Runs the tool, as `nobody` when `unprivileged`.
    static func flipbook(_ arguments: [String], unprivileged: Bool = false) throws -> ToolResult {
        let tool = ExternalTool.flipbookPath
        if !unprivileged { return try ExternalTool.run(tool, arguments) }
        return try ExternalTool.run(
            "setpriv", ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", tool] + arguments)
    }

    /// An old "movie" at `path` with these permissions, owner and group.
    static func oldFile(_ path: String, permissions: mode_t, owner: UInt32 = 0, group: UInt32 = 0) throws {
        try Data("the old movie".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chown(path, owner, group) == 0)
        #expect(chmod(path, permissions) == 0)
    }

    static func status(_ path: String) -> (permissions: mode_t, owner: UInt32, group: UInt32, isLink: Bool) {
        var info = stat()
        lstat(path, &info)
        let isLink = (info.st_mode & S_IFMT) == S_IFLNK
        if isLink { stat(path, &info) }
        return (info.st_mode & 0o7777, info.st_uid, info.st_gid, isLink)
    }

    static func hiddenFiles(_ folders: String...) throws -> [String] {
        try folders.flatMap { try FileManager.default.contentsOfDirectory(atPath: $0).filter { $0.hasPrefix(".") } }
    }

    @Test(arguments: [(0o600, false), (0o640, false), (0o755, false), (0o600, true), (0o640, true)])
    func aReplacedFileKeepsItsPermissions(permissions: Int, unprivileged: Bool) throws {
        let (dir, frames, out) = try Self.workspace()
        defer { withExtendedLifetime(dir) {} }
        let movie = "\(out)/review.mp4"
        let owner = unprivileged ? Self.nobody : 0
        try Self.oldFile(movie, permissions: mode_t(permissions), owner: owner, group: owner)
        let result = try Self.flipbook([frames, "-o", movie, "--overwrite", "-q"], unprivileged: unprivileged)
        #expect(result.status == 0, "\(result.stderr)")
        let after = Self.status(movie)
        #expect(after.permissions == mode_t(permissions), "\(String(after.permissions, radix: 8))")
        #expect(after.owner == owner && after.group == owner)
        #expect(try Judge.stream(of: movie).frameCount == 2)
        #expect(try Self.hiddenFiles(out).isEmpty)
    }

    @Test func aNewMovieFollowsTheUmaskAndASetGroupIDFolderGivesItsGroup() throws {
        let (dir, frames, out) = try Self.workspace()
        defer { withExtendedLifetime(dir) {} }
        #expect(chown(out, 0, 100) == 0 && chmod(out, 0o2775) == 0)
        let movie = "\(out)/new.mp4"
        let result = try Self.flipbook([frames, "-o", movie, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let after = Self.status(movie)
        #expect(after.group == 100, "the kernel gives a file made in a set-group-ID folder the folder's group")
        #expect(
            after.permissions == 0o644 & ~0o022 || after.permissions == 0o644, "\(String(after.permissions, radix: 8))")
    }

    @Test(arguments: [false, true])
    func rootKeepsTheOwnerAndGroupOfAnotherUsersFile(fragmented: Bool) throws {
        let (dir, frames, out) = try Self.workspace()
        defer { withExtendedLifetime(dir) {} }
        let movie = "\(out)/shared.mp4"
        try Self.oldFile(movie, permissions: 0o664, owner: Self.nobody, group: 100)
        let result = try Self.flipbook(
            [frames, "-o", movie, "--overwrite", "-q"] + (fragmented ? ["--fragmented"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        let after = Self.status(movie)
        #expect((after.permissions, after.owner, after.group) == (0o664, Self.nobody, 100))
    }

    @Test func aUserWhoMayNotKeepTheOwnerIsWarnedAndThePermissionsAreKept() throws {
        let (dir, frames, out) = try Self.workspace()
        defer { withExtendedLifetime(dir) {} }
        let movie = "\(out)/roots.mp4"
        try Self.oldFile(movie, permissions: 0o640, owner: 0, group: 0)
        let result = try Self.flipbook([frames, "-o", movie, "--overwrite"], unprivileged: true)
        #expect(result.status == 0, "\(result.stderr)")
        let warning = result.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warning.count == 1, "\(result.stderr)")
        #expect(
            warning.first?.contains(
                "\(movie): the new movie keeps the replaced file's permissions but not its owner and group") == true,
            "\(result.stderr)")
        let after = Self.status(movie)
        #expect((after.permissions, after.owner) == (0o640, Self.nobody))
    }

    @Test func extendedAttributesSurvive() throws {
        let (dir, frames, out) = try Self.workspace()
        defer { withExtendedLifetime(dir) {} }
        let movie = "\(out)/tagged.mp4"
        try Self.oldFile(movie, permissions: 0o644)
        let set = try ExternalTool.run("setfattr", ["-n", "user.flipbook.review", "-v", "approved", movie])
        try #require(set.status == 0, "the file system takes no user extended attributes: \(set.stderr)")
        let result = try Self.flipbook([frames, "-o", movie, "--overwrite", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let read = try ExternalTool.run("getfattr", ["--only-values", "-n", "user.flipbook.review", movie])
        #expect(read.stdout == "approved", "\(read.stderr)")
        #expect(try Judge.stream(of: movie).frameCount == 2)
    }

    @Test(arguments: ["make", "join"])
    func aSymbolicLinkIsWrittenThroughAndStillPointsAtTheNewMovie(command: String) throws {
        let (dir, frames, out) = try Self.workspace()
        defer { withExtendedLifetime(dir) {} }
        let renders = try dir.folder("renders")
        let target = "\(renders)/v12.mp4"
        try Self.oldFile(target, permissions: 0o640)
        let link = "\(out)/latest.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../renders/v12.mp4")
        var arguments = [frames, "-o", link, "--overwrite", "-q"]
        if command == "join" {
            for k in 1...2 {
                let part = try Self.flipbook([frames, "-o", dir.path("part-\(k).mp4"), "--segment", "\(k)/2", "-q"])
                #expect(part.status == 0, "\(part.stderr)")
            }
            arguments = ["join", dir.path("part-1.mp4"), dir.path("part-2.mp4"), "-o", link, "--overwrite", "-q"]
        }
        let result = try Self.flipbook(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../renders/v12.mp4")
        #expect(Self.status(link).isLink)
        #expect(Self.status(target).permissions == 0o640)
        #expect(try Judge.stream(of: link).frameCount == 2, "ffprobe reads the movie through the link")
        #expect(try Self.hiddenFiles(out, renders).isEmpty)
    }

    @Test func aDanglingLinkIsRefusedNamingBothPathsWithNothingWritten() throws {
        let (dir, frames, out) = try Self.workspace()
        let link = "\(out)/latest.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.path("gone/v13.mp4"))
        let result = try Self.flipbook([frames, "-o", link, "--overwrite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(link) && result.stderr.contains(dir.path("gone/v13.mp4")), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["latest.mp4"])
        #expect(!FileManager.default.fileExists(atPath: dir.path("gone")))
    }

    @Test func aLinkIntoAFolderThatCannotBeWrittenIsRefusedNamingBothPaths() throws {
        let (dir, frames, out) = try Self.workspace()
        let locked = try dir.folder("locked")
        chmod(locked, 0o755)  // root's: nobody may not write here
        let target = "\(locked)/v1.mp4"
        try Self.oldFile(target, permissions: 0o666)
        let link = "\(out)/latest.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try Self.flipbook([frames, "-o", link, "--overwrite"], unprivileged: true)
        #expect(result.status == 1)
        #expect(result.stderr.contains(link) && result.stderr.contains(target), "\(result.stderr)")
        #expect(result.stderr.contains("Permission denied"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("the old movie".utf8))
    }

    @Test func withoutOverwriteALinkIsAnExistingFile() throws {
        let (dir, frames, out) = try Self.workspace()
        let target = dir.path("v1.mp4")
        try Self.oldFile(target, permissions: 0o644)
        let link = "\(out)/latest.mp4"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try Self.flipbook([frames, "-o", link])
        #expect(result.status == 1)
        #expect(result.stderr.contains("already exists"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("the old movie".utf8))
    }
}

/// The calls that keep a replaced file's ownership, failed: a failed `fchmod` or `fchown` (an I/O
/// error) leaves the old movie as it was; `fchown` refused for want of permission is a warning.
@Suite(
    .enabled(if: getuid() == 0, "needs root, to make a file of another group"),
    .enabled(if: FaultShim.isAvailable, "needs a C compiler (cc, clang or gcc) to build the fault library"),
    .enabled(
        if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
        "the sanitizers' runtimes must be loaded first and refuse a preloaded library")
)
struct ReplacedFileFaultTests {
    @Test(arguments: [("fchmod", "EIO"), ("fchown", "EIO"), ("fchown", "EPERM")])
    func aFailedOwnershipCall(operation: String, errno: String) throws {
        let (dir, frames, out) = try ReplacedFileTests.workspace()
        defer { withExtendedLifetime(dir) {} }
        let folder = URL(fileURLWithPath: out).resolvingSymlinksInPath().path
        let movie = "\(folder)/movie.mp4"
        try ReplacedFileTests.oldFile(movie, permissions: 0o640, owner: ReplacedFileTests.nobody, group: 100)
        let run = try FaultShim.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--overwrite"],
            fault: Fault(operation, n: 1, errno: errno, in: folder))
        #expect(run.failedPath != nil, "\(operation) was called")
        #expect(try ReplacedFileTests.hiddenFiles(folder).isEmpty)
        if errno == "EPERM" {
            #expect(run.result.status == 0, "\(run.result.stderr)")
            #expect(run.result.stderr.contains("not its owner"), "\(run.result.stderr)")
            #expect(ReplacedFileTests.status(movie).permissions == 0o640)
            #expect(try Judge.stream(of: movie).frameCount == 2)
        } else {
            #expect(run.result.status == 1, "\(run.result.stderr)")
            #expect(run.result.stderr.contains(movie) && run.result.stderr.contains("Input/output error"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: movie)) == Data("the old movie".utf8))
            let old = ReplacedFileTests.status(movie)
            #expect((old.permissions, old.owner, old.group) == (0o640, ReplacedFileTests.nobody, 100))
        }
    }
}
