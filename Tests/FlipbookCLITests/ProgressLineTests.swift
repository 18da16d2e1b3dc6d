import FlipbookTestSupport
import Foundation
import Testing

/// The progress line appears on standard error only when it is a terminal, and is cleared before
/// the summary.
@Suite struct ProgressLineTests {
    /// Whether this machine can give a program a terminal: the pseudo-terminal multiplexer opens
    /// and /dev/pts, where its terminals appear, is mounted (containers may have neither).
    static var canOpenPseudoTerminal: Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: "/dev/pts", isDirectory: &isFolder), isFolder.boolValue else {
            return false
        }
        let descriptor = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    @Test(.enabled(if: canOpenPseudoTerminal, "no pseudo-terminal can be opened here (/dev/pts missing)"))
    func aTerminalGetsAProgressLineThatEndsAtTheLastFrame() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 30, width: 64, height: 48, into: frames)
        let movie = dir.path("progress.mp4")
        // script(1) runs the tool with a pseudo-terminal as its standard error and copies what it wrote.
        let command = "'\(ExternalTool.flipbookPath)' '\(frames)' -o '\(movie)' --preset ultrafast"
        let result = try ExternalTool.run("script", ["-q", "-e", "-c", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let shown = result.stdout
        #expect(shown.contains("flipbook: frame 30/30 (100%)"), "\(shown.debugDescription)")
        #expect(shown.contains(" fps, "), "\(shown.debugDescription)")
        #expect(shown.contains("left"), "\(shown.debugDescription)")
        // Redrawn in place, then cleared, so the summary starts a clean line.
        #expect(shown.contains("\r\u{1B}[Kflipbook: wrote"), "\(shown.debugDescription)")
        #expect(try Judge.stream(of: movie).frameCount == 30)
    }

    @Test func aPipeGetsOnlyTheSummary() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 10, width: 64, height: 48, into: frames)
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", dir.path("quiet.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\r") && !result.stderr.contains("frame 10/10"), "\(result.stderr)")
        #expect(result.stderr.hasPrefix("flipbook: wrote "), "\(result.stderr)")
    }
}
