import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// A disk that fails under ``MovieWriter``. The fault library (`Tests/FaultInjection/faultshim.c`)
/// must be preloaded before a process starts, so the test runs this test binary again as a child
/// with the library preloaded, and the child writes the movie; the parent judges what it left.
@Suite struct MovieWriterFaultTests {
    /// The movie's folder, set only in the child process.
    static let childFolder = ProcessInfo.processInfo.environment["FLIPBOOK_FAULT_CHILD_FOLDER"]

    @Test(
        .enabled(if: FaultShim.isAvailable, "needs a C compiler (cc, clang or gcc) to build the fault library"),
        .enabled(
            if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
            "the sanitizers' runtimes must be loaded first and refuse a preloaded library"))
    func aFailedWriteIsThrownByTheNextCallAndTheExistingMovieIsKept() throws {
        let dir = try TemporaryDirectory()
        let folder = URL(fileURLWithPath: try dir.folder("out")).resolvingSymlinksInPath().path
        let movie = "\(folder)/movie.mp4"
        let old = Data("last week's movie".utf8)
        try old.write(to: URL(fileURLWithPath: movie))
        let calls = dir.path("calls.txt")
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path

        let run = try FaultShim.run(
            testBinary, ["--testing-library", "swift-testing", "--filter", "childAppendsFortyFiveFrames"],
            fault: Fault("write", n: 1, errno: "ENOSPC", in: folder),
            environment: ["FLIPBOOK_FAULT_CHILD_FOLDER": folder, "FLIPBOOK_FAULT_CHILD_CALLS": calls])

        #expect(run.result.status == 0, "the child's own checks: \(run.result.stdout.suffix(3000))")
        #expect(run.failedPath?.hasSuffix(".media.tmp") == true, "the first write of the media failed")
        // Each call's outcome, in order. Media is written a chunk (a second, 30 frames) at a time: the
        // first chunk is complete once frame 30's sample is, when frame 31 is encoded (in the
        // background, after append 31 returned), so append 32 is the first call to see the failure.
        let outcomes = try String(contentsOfFile: calls, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Array(outcomes.prefix(32)) == (0..<32).map { "append \($0): ok" }, "\(outcomes)")
        let failures = outcomes.dropFirst(32)
        #expect(failures.count == 14, "appends 32 to 44 and finish: \(outcomes)")
        let error = "\(movie): cannot write the movie: No space left on device"
        #expect(failures.allSatisfy { $0.contains(": \(error) (write of \(folder)/.movie.mp4.") }, "\(outcomes)")
        #expect(FileManager.default.contents(atPath: movie) == old, "the existing movie is as it was")
        #expect(dir.entries("out") == ["movie.mp4"], "no hidden file is left")
    }

    /// The child's part: 45 frames over an existing movie, each call's outcome written down.
    @Test(
        .enabled(
            if: childFolder != nil,
            "runs only in the child process that aFailedWriteIsThrownByTheNextCallAndTheExistingMovieIsKept starts"))
    func childAppendsFortyFiveFrames() async throws {
        let folder = try #require(Self.childFolder)
        let calls = try #require(ProcessInfo.processInfo.environment["FLIPBOOK_FAULT_CHILD_CALLS"])
        // One encoder thread: each frame's packet comes out of its own encode call, not frames later.
        let settings = VideoSettings(width: 64, height: 64, preset: .ultrafast, encoderThreads: 1)
        let writer = try MovieWriter(
            url: URL(fileURLWithPath: "\(folder)/movie.mp4"), settings: settings, overwrite: true)
        var outcomes: [String] = []
        for index in 0..<45 {
            do {
                try await writer.append(MovieWriterTests.syntheticFrame(index, width: 64, height: 64))
                outcomes.append("append \(index): ok")
            } catch {
                outcomes.append("append \(index): \(error)")
            }
        }
        do {
            _ = try await writer.finish()
            outcomes.append("finish: ok")
        } catch {
            outcomes.append("finish: \(error)")
        }
        try Data(outcomes.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: calls))
    }
}
