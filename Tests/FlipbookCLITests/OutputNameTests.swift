import FlipbookTestSupport
import Foundation
import Testing

/// The destination's extension chooses the kind of file; a name that asks for a kind Flipbook does
/// not write is a usage error (exit 2) naming the extensions there are, with nothing written and an
/// existing file left as it was.
@Suite struct OutputNameTests {
    static func image(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("one.png")
        try TestPNG.encode(width: 16, height: 16, colourType: 2, bitDepth: 8, samples: Array(repeating: 90, count: 768))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: ["out.wmv", "out.apng", "out.flv", "out.avi", "out", "out.MP4.part"])
    func aNameWithoutAContainerIsAUsageErrorAndNothingIsWritten(name: String) throws {
        let dir = try TemporaryDirectory()
        let image = try Self.image(in: dir)
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [image, "-o", dir.path(name)])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(".mp4, .m4v, .mov, .qt, .webm, .mkv, .gif or .webp"), "\(result.stderr)")
        #expect(result.stderr.contains(dir.path(name)), "the line names the output: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["one.png"])
    }

    @Test func anExistingFileUnderAnUnwritableNameIsLeftAsItWas() throws {
        let dir = try TemporaryDirectory()
        let image = try Self.image(in: dir)
        let old = Data("an old movie".utf8)
        try old.write(to: URL(fileURLWithPath: dir.path("clip.avi")))
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [image, "-o", dir.path("clip.avi"), "--overwrite"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("clip.avi"))) == old)
    }

    @Test func aJoinToAnUnwritableNameIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, ["join", dir.path("part-1.mp4"), "-o", dir.path("joined.wmv")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(".mp4, .m4v, .mov, .qt, .webm, .mkv, .gif or .webp"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("joined.wmv")))
    }

    /// Each extension gives its container, judged by ffprobe's format name and the `ftyp` brand.
    @Test(arguments: [("clip.mp4", "isom"), ("clip.M4V", "M4V "), ("clip.mov", "qt  "), ("clip.qt", "qt  ")])
    func eachExtensionGivesItsContainer(name: String, brand: String) throws {
        let dir = try TemporaryDirectory()
        let image = try Self.image(in: dir)
        let movie = dir.path(name)
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [image, "-o", movie, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "format_tags=major_brand", "-of", "csv=p=0", movie])
        #expect(probe.stdout.trimmingCharacters(in: .newlines) == brand)
    }
}
