import FlipbookTestSupport
import Foundation
import Testing

/// Every failure: a non-zero status, one line naming the file or frame, nothing at the output path,
/// an existing file left byte for byte as it was, no temporary files left.
@Suite struct ErrorTests {
    /// Runs the tool and checks the failure contract; returns standard error.
    func expectFailure(
        _ arguments: [String], in dir: TemporaryDirectory, output: String, status: Int32 = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let before = FileManager.default.contents(atPath: output)
        let entriesBefore = dir.entries()
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-o", output])
        #expect(result.status == status, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line on stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            FileManager.default.contents(atPath: output) == before, "output changed", sourceLocation: sourceLocation)
        #expect(dir.entries() == entriesBefore, "no files added or removed", sourceLocation: sourceLocation)
        return result.stderr
    }

    @Test func existingOutputIsRefusedAndLeftUntouched() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 64, height: 64, into: frames)
        let output = dir.path("old.mp4")
        try Data("last week's movie".utf8).write(to: URL(fileURLWithPath: output))

        let message = try expectFailure([frames], in: dir, output: output)
        #expect(message.contains(output))
        #expect(message.contains("--overwrite"))
    }

    @Test func overwriteReplacesAnExistingOutput() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 64, height: 64, into: frames)
        let output = dir.path("old.mp4")
        try Data("last week's movie".utf8).write(to: URL(fileURLWithPath: output))

        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", output, "--overwrite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.stream(of: output).frameCount == 3)
        #expect(dir.entries() == ["frames", "old.mp4"])
    }

    @Test func truncatedPNGIsNamedWithItsFrameIndex() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let paths = try SampleImages.write(count: 5, width: 64, height: 64, into: frames)
        let damaged = try Data(contentsOf: URL(fileURLWithPath: paths[3]))
        try damaged.prefix(damaged.count / 2).write(to: URL(fileURLWithPath: paths[3]))

        let message = try expectFailure([frames], in: dir, output: dir.path("out.mp4"))
        #expect(message.contains("frame 3"))
        #expect(message.contains(paths[3]))
    }

    @Test func textFileNamedPNGIsNotAnImage() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let paths = try SampleImages.write(count: 2, width: 64, height: 64, into: frames)
        try Data("hello, I am not a picture\n".utf8).write(to: URL(fileURLWithPath: paths[1]))

        let message = try expectFailure(paths, in: dir, output: dir.path("out.mp4"))
        #expect(message.contains("frame 1"))
        #expect(message.contains(paths[1]))
        #expect(
            message.contains("not a PNG, JPEG, WebP, GIF, camera raw, TIFF, HEIC, AVIF, OpenEXR, DPX or Cineon image"))
    }

    @Test func missingInputIsNamed() throws {
        let dir = try TemporaryDirectory()
        let message = try expectFailure([dir.path("nowhere")], in: dir, output: dir.path("out.mp4"))
        #expect(message.contains(dir.path("nowhere")))
    }

    @Test func folderWithoutImagesIsNamed() throws {
        let dir = try TemporaryDirectory()
        let empty = try dir.folder("empty")
        let message = try expectFailure([empty], in: dir, output: dir.path("out.mp4"))
        #expect(message.contains(empty))
        #expect(message.contains("holds no images"))
    }

    @Test func usageMistakesExitWithStatus2() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 1, width: 64, height: 64, into: frames)
        let output = dir.path("out.mp4")
        for arguments in [
            [frames, "--crf", "99"], [frames, "--fps", "fast"], [frames, "--preset", "quick"], [frames, "--bogus"],
            [frames, "--fit", "squash"], [frames, "--background", "#12345"], [frames, "--colour", "bt2100"],
            [frames, "--range", "tv"], [frames, "--size", "641x360"], [frames, "--raw-size", "64x64"],
        ] {
            let message = try expectFailure(arguments, in: dir, output: output, status: 2)
            #expect(message.hasPrefix("flipbook: "))
        }
        let noOutput = try ExternalTool.run(ExternalTool.flipbookPath, [frames])
        #expect(noOutput.status == 2)
        #expect(noOutput.stderr.contains("-o"))
    }

    @Test func helpListsEveryOptionOfTheContract() throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["--help"])
        #expect(result.status == 0)
        for option in [
            "-o, --output", "--fps", "--crf", "--preset", "--overwrite", "--keep-order", "--quiet", "--json",
            "--size", "--fit", "--background", "--colour, --color", "--range", "--raw-size", "--raw-format",
            "--title TEXT", "--artist NAME", "--comment TEXT", "--creation-time ISO8601|now", "--location ISO6709",
            "--metadata KEY=VALUE", "--rotate DEGREES", "--colour-management, --color-management on|off",
            "--intent INTENT",
        ] {
            #expect(result.stdout.contains(option), "help mentions \(option)")
        }
    }
}
