import FlipbookTestSupport
import Foundation
import Testing

/// `--skip-invalid`: unreadable images are left out with a warning; the frame before a skipped image
/// is shown for its time, so every later frame keeps its time and the movie its length.
@Suite struct SkipInvalidTests {
    /// Six frames at 30 fps, with images 0, 3 and 5 (the first, one inside, the last) broken.
    func brokenSequence(in dir: TemporaryDirectory) throws -> [String] {
        let frames = try dir.folder("frames")
        let paths = try SampleImages.write(count: 6, width: 64, height: 48, into: frames)
        try Data("not a picture\n".utf8).write(to: URL(fileURLWithPath: paths[0]))
        let whole = try Data(contentsOf: URL(fileURLWithPath: paths[3]))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: paths[3]))
        try Data().write(to: URL(fileURLWithPath: paths[5]))
        return paths
    }

    @Test func skippedImagesGiveTheirTimeToTheFrameBefore() throws {
        let dir = try TemporaryDirectory()
        let paths = try brokenSequence(in: dir)
        let output = dir.path("out.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [dir.path("frames"), "-o", output, "--skip-invalid"])
        #expect(result.status == 0, "\(result.stderr)")

        let lines = result.stderr.split(separator: "\n").map(String.init)
        let warnings = lines.filter { $0.hasPrefix("flipbook: warning: skipped") }
        #expect(warnings.count == 3, "\(result.stderr)")
        for (warning, index) in zip(warnings, [0, 3, 5]) {
            #expect(warning.contains("frame \(index) (\(paths[index]))"), "\(warning)")
        }
        #expect(lines.last?.contains("3 frames") == true)
        #expect(lines.last?.contains("3 invalid images skipped") == true)

        // Images 1, 2 and 4 remain: image 1 starts at zero (taking image 0's time) and lasts until
        // image 2 at 2/30; image 2 takes image 3's time; image 4 starts at 4/30 and takes image 5's.
        #expect(try Judge.stream(of: output).frameCount == 3)
        #expect(try Judge.frames(of: output).map(\.ptsTime) == ["0.000000", "0.066667", "0.133333"])
        #expect(try Judge.formatDuration(of: output) == "0.200000")
        #expect(try Judge.decodeErrors(of: output) == "")
    }

    @Test func segmentsWithSkippedImagesJoinToTheSameTimes() throws {
        // Segments of two images each: the first segment is only a skipped image and a good one.
        let dir = try TemporaryDirectory()
        _ = try brokenSequence(in: dir)
        var parts: [String] = []
        for segment in 1...3 {
            let part = dir.path("part\(segment).mp4")
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath,
                [dir.path("frames"), "-o", part, "--segment", "\(segment)/3", "--skip-invalid", "-q"])
            #expect(result.status == 0, "\(result.stderr)")
            parts.append(part)
        }
        #expect(try Judge.formatDuration(of: parts[0]) == "0.066667")
        let joined = dir.path("joined.mp4")
        let join = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + parts + ["-o", joined, "-q"])
        #expect(join.status == 0, "\(join.stderr)")
        #expect(try Judge.frames(of: joined).map(\.ptsTime) == ["0.000000", "0.066667", "0.133333"])
        #expect(try Judge.formatDuration(of: joined) == "0.200000")
    }

    @Test func slideshowKeepsEveryImagesTime() throws {
        let dir = try TemporaryDirectory()
        let paths = try SampleImages.write(count: 4, width: 64, height: 48, into: dir.folder("frames"))
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: paths[2]))
        let output = dir.path("show.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, paths + ["-o", output, "--duration", "2", "--skip-invalid", "--json", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(summary?["skipped"] as? Int == 1)
        #expect(summary?["frames"] as? Int == 3)
        #expect(try Judge.frames(of: output).map(\.ptsTime) == ["0.000000", "2.000000", "6.000000"])
        #expect(try Judge.formatDuration(of: output) == "8.000000")
    }

    @Test func repeatedFramesSkipEveryCopyOfAnImage() throws {
        let dir = try TemporaryDirectory()
        let paths = try SampleImages.write(count: 3, width: 64, height: 48, into: dir.folder("frames"))
        try Data("junk".utf8).write(to: URL(fileURLWithPath: paths[1]))
        let output = dir.path("out.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath,
            paths + ["-o", output, "--duration", "0.1", "--repeat-frames", "--skip-invalid", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try Judge.frames(of: output).map(\.ptsTime) == [
                "0.000000", "0.033333", "0.066667", "0.200000", "0.233333", "0.266667",
            ])
        #expect(try Judge.formatDuration(of: output) == "0.300000")
    }

    @Test func everyImageInvalidFailsClearly() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        for name in ["a.png", "b.jpg"] { try Data("junk".utf8).write(to: URL(fileURLWithPath: "\(frames)/\(name)")) }
        let output = dir.path("out.mp4")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", output, "--skip-invalid", "--overwrite"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("none of the 2 images can be used"))
        #expect(result.stderr.contains("frame 0 (\(frames)/a.png)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("old".utf8))
        #expect(dir.entries() == ["frames", "out.mp4"])
    }

    @Test func otherFailuresAreNotSkipped() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 64, height: 48, into: frames)
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", dir.path("nowhere/out.mp4"), "--skip-invalid"])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("warning"))
    }
}
