import FlipbookTestSupport
import Foundation
import Testing

/// The colour conversions a movie records (`com.flipbook.colour-conversions`), judged from outside by
/// ffprobe's format tags, and read back by `flipbook probe`. Sources: the Display P3 and Adobe RGB
/// (1998) JPEGs and the plain sRGB PNG of `Tests/Colour/colour_sources.py`.
@Suite struct ProbeColourTests {
    static let name = "com.flipbook.colour-conversions"

    /// Two Display P3 images, one Adobe RGB (1998) and one sRGB, in that order, as a folder of files.
    static func mixedSources(in dir: TemporaryDirectory) throws -> String {
        let folder = try ColourManagementTests.sources(in: dir)
        let frames = try dir.folder("frames")
        let copies = [("p3-jpeg", "f1.jpg"), ("p3-jpeg", "f2.jpg"), ("adobe-jpeg", "f3.jpg"), ("srgb-plain", "f4.png")]
        for (source, copy) in copies {
            try FileManager.default.copyItem(
                atPath: ColourManagementTests.source(source, in: folder), toPath: "\(frames)/\(copy)")
        }
        return frames
    }

    /// ffprobe's format tags, by name in lower case (Matroska's tag names are capitals).
    static func formatTags(_ movie: String) throws -> [String: String] {
        let result = try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", movie])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(movie): \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let tags = (object?["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        return Dictionary(tags.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    static func probeJSON(_ movie: String) throws -> [String: Any] {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test(arguments: ["mp4", "mov", "webm", "mkv"])
    func probeReportsTheConversionsTheMovieRecords(container: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.mixedSources(in: dir)
        let movie = dir.path("movie.\(container)")
        _ = try ColourManagementTests.flipbook([frames, "-o", movie, "--size", "64x48", "--quiet"])

        #expect(try Self.formatTags(movie)[Self.name] == "Adobe RGB (1998)=1; Display P3=2")
        let probed = try Self.probeJSON(movie)
        #expect(probed["colourConversions"] as? [String: Int] == ["Display P3": 2, "Adobe RGB (1998)": 1], "\(probed)")
        #expect((probed["metadata"] as? [String: String])?[Self.name] == nil, "\(probed)")
        let plain = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie])
        #expect(
            plain.stdout.contains(
                "\n  converted   1 from Adobe RGB (1998), 2 from Display P3 (images, into the movie's colour)\n"),
            "\(plain.stdout)")
    }

    /// sRGB images convert nothing: no tag in the file, nothing in probe's report.
    @Test(arguments: ["mp4", "webm"])
    func anSRGBMovieRecordsNoConversions(container: String) throws {
        let dir = try TemporaryDirectory()
        let folder = try ColourManagementTests.sources(in: dir)
        let plain = ColourManagementTests.source("srgb-plain", in: folder)
        let movie = dir.path("movie.\(container)")
        _ = try ColourManagementTests.flipbook([plain, plain, "-o", movie, "--quiet"])

        let tags = try Self.formatTags(movie)
        #expect(!tags.keys.contains(where: { $0.contains("colour") }), "\(tags)")
        #expect(try Self.probeJSON(movie)["colourConversions"] == nil)
        let probed = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie])
        #expect(!probed.stdout.contains("converted"), "\(probed.stdout)")
    }

    /// A joined movie records the sum of its segments' conversions; a fragmented movie records none
    /// (its tags are written before the first image is read).
    @Test func aJoinedMovieRecordsTheSumAndAFragmentedOneNone() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.mixedSources(in: dir)
        for part in 1...2 {
            _ = try ColourManagementTests.flipbook([
                frames, "-o", dir.path("part\(part).mkv"), "--segment", "\(part)/2", "--size", "64x48", "--quiet",
            ])
        }
        #expect(try Self.formatTags(dir.path("part1.mkv"))[Self.name] == "Display P3=2")
        #expect(try Self.formatTags(dir.path("part2.mkv"))[Self.name] == "Adobe RGB (1998)=1")
        let joined = dir.path("joined.mp4")
        let join = try ColourManagementTests.flipbook([
            "join", dir.path("part2.mkv"), dir.path("part1.mkv"), "-o", joined, "--json",
        ])
        #expect(join.stdout.contains(#""colourConversions":{"Adobe RGB (1998)":1,"Display P3":2}"#), "\(join.stdout)")
        #expect(try Self.formatTags(joined)[Self.name] == "Adobe RGB (1998)=1; Display P3=2")
        #expect(
            try Self.probeJSON(joined)["colourConversions"] as? [String: Int] == [
                "Display P3": 2, "Adobe RGB (1998)": 1,
            ])

        let fragmented = dir.path("fragmented.mp4")
        _ = try ColourManagementTests.flipbook([frames, "-o", fragmented, "--fragmented", "--size", "64x48", "--quiet"])
        #expect(try Self.formatTags(fragmented)[Self.name] == nil)
        #expect(try Self.probeJSON(fragmented)["colourConversions"] == nil)
    }
}
