import FlipbookTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile and broken inputs through the tool: each fails with one line naming the file and frame,
/// quickly, with bounded memory, leaving nothing at the destination.
extension ErrorTests {
    @Test(arguments: [UInt8(2), 3])  // RGB takes Flipbook's fast path, palette takes libspng
    func pngClaiming100000x100000FailsInUnderASecondWithUnder100MB(colourType: UInt8) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 64, height: 64, into: frames)
        let bomb = "\(frames)/frame3.png"
        try HostilePNG.claimingSize(width: 100_000, height: 100_000, colourType: colourType)
            .write(to: URL(fileURLWithPath: bomb))

        let message = try expectFailure([frames], in: dir, output: dir.path("out.mp4"))
        #expect(message.contains("frame 2 (\(bomb))"))
        #expect(message.contains("100000x100000"))
        #expect(message.contains("limit"))
    }

    /// The same bomb refused fast and in bounded memory, measured by GNU time: elapsed seconds and
    /// peak resident memory in KiB, on its own last line.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
            "sanitizer builds (make test-asan, test-tsan) start slowly and map shadow memory: no bounds there"),
        arguments: [UInt8(2), 3])
    func pngClaiming100000x100000IsRefusedInUnderASecondWithUnder100MB(colourType: UInt8) throws {
        let dir = try TemporaryDirectory()
        let bomb = dir.path("frame3.png")
        try HostilePNG.claimingSize(width: 100_000, height: 100_000, colourType: colourType)
            .write(to: URL(fileURLWithPath: bomb))
        let timed = try ExternalTool.run(
            "/usr/bin/time", ["-f", "%e %M", ExternalTool.flipbookPath, bomb, "-o", dir.path("out.mp4")])
        #expect(timed.status == 1)
        let figures = timed.stderr.split(separator: "\n").last?.split(separator: " ").compactMap { Double($0) } ?? []
        #expect(figures.count == 2, "\(timed.stderr)")
        if figures.count == 2 {
            #expect(figures[0] < 1, "took \(figures[0]) s")
            #expect(figures[1] < 100 * 1024, "peak memory \(figures[1]) KiB")
        }
    }

    @Test(arguments: [false, true])
    func jpegCutInHalfIsAnErrorNotAGreyBottom(progressive: Bool) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        var pixels: [UInt8] = []
        for index in 0..<(96 * 64) { pixels += [UInt8(index % 251), UInt8(index % 7 * 30), 200] }
        for index in 1...3 {
            try TestJPEG.encode(pixels, width: 96, height: 64, kind: .rgb, progressive: progressive)
                .write(to: URL(fileURLWithPath: "\(frames)/f\(index).jpg"))
        }
        let cut = "\(frames)/f2.jpg"
        let whole = try Data(contentsOf: URL(fileURLWithPath: cut))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))

        let message = try expectFailure([frames], in: dir, output: dir.path("out.mp4"))
        #expect(message.contains("frame 1 (\(cut))"))
        #expect(message.contains("JPEG"))
    }

    @Test func fifoNamedLikeAnImageIsRefusedWithoutWaiting() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 32, height: 32, into: frames)
        let fifo = "\(frames)/frame3.png"
        #expect(mkfifo(fifo, 0o644) == 0)

        let message = try expectFailure([frames], in: dir, output: dir.path("out.mp4"))
        #expect(message.contains("frame 2 (\(fifo))"))
        #expect(message.contains("FIFO"))
    }

    @Test func otherFormatsAndEmptyFilesAreNamed() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let paths = try SampleImages.write(count: 3, width: 32, height: 32, into: frames)
        try Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).write(to: URL(fileURLWithPath: paths[1]))
        let gif = try expectFailure(paths, in: dir, output: dir.path("out.mp4"))
        #expect(gif.contains("frame 1 (\(paths[1]))"))
        #expect(gif.contains("GIF"))

        try Data().write(to: URL(fileURLWithPath: paths[1]))
        let empty = try expectFailure(paths, in: dir, output: dir.path("out.mp4"))
        #expect(empty.contains("frame 1 (\(paths[1]))"))
        #expect(empty.contains("empty"))
    }

    @Test(
        .enabled(
            if: Unprivileged.canRun, "as root the tool must run as nobody to be refused a file, and setpriv is missing")
    )
    func unreadableFileIsNamedWithWhatToDo() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let paths = try SampleImages.write(count: 3, width: 32, height: 32, into: frames)
        for path in [dir.url.path, frames] { chmod(path, 0o777) }
        chmod(paths[1], 0)
        let output = dir.path("out.mp4")

        let result = try Unprivileged.run(ExternalTool.flipbookPath, [frames, "-o", output])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("frame 1 (\(paths[1]))"))
        #expect(result.stderr.contains("permission denied"))
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(dir.entries() == ["frames"])
    }

    @Test func imageLimitsAreSetOnTheCommandLine() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 64, height: 48, into: frames)
        let output = dir.path("out.mp4")
        for limit in [["--max-image-side", "60"], ["--max-image-pixels", "3000"], ["--max-image-pixels", "60x50"]] {
            let message = try expectFailure([frames] + limit, in: dir, output: output)
            #expect(message.contains("frame 0 (\(frames)/frame1.png)"))
            #expect(message.contains("64x48"))
        }
        for limit in [["--max-image-side", "0"], ["--max-image-pixels", "many"]] {
            _ = try expectFailure([frames] + limit, in: dir, output: output, status: 2)
        }
        let fits = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", output, "--max-image-side", "64", "--max-image-pixels", "64x48"])
        #expect(fits.status == 0, "\(fits.stderr)")
    }

    @Test func noInputsIsAUsageMistake() throws {
        let dir = try TemporaryDirectory()
        let message = try expectFailure([], in: dir, output: dir.path("out.mp4"), status: 2)
        #expect(message.contains("no inputs"))
    }
}
