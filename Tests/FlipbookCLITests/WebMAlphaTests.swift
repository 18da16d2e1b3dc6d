import FlipbookTestSupport
import Foundation
import Testing

/// Transparent video for the web: `--alpha` in a WebM keeps the images' alpha as a second VP9
/// stream in BlockAdditional (BlockAddID 1, `AlphaMode` 1), judged by ffmpeg's libvpx decoder (the
/// one that reads it), ffprobe's `alpha_mode` and mkvtoolnix.
@Suite struct WebMAlphaTests {
    /// RGBA PNGs of a soft-edged disc whose alpha ramps from transparent to opaque over the frames,
    /// on a transparent ground: every alpha level from 0 to 255 occurs.
    static func transparentImages(count: Int, into folder: String) throws {
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i",
                "color=c=black@0:s=160x128:r=30,format=rgba,"
                    + "geq=r='200':g='40+X':b='90':a='clip(255*(1-hypot(X-80-N*2,Y-64)/60)*(N+1)/\(count),0,255)'",
                "-frames:v", String(count), "\(folder)/f%03d.png",
            ])
        guard result.status == 0 else { throw JudgeError(description: "ffmpeg: \(result.stderr)") }
    }

    /// The alpha planes ffmpeg's libvpx decoder gives for a WebM, or the sources' alpha for images.
    static func alphaPlanes(_ arguments: [String]) throws -> [UInt8] {
        [UInt8](
            try ExternalTool.runForData(
                "ffmpeg",
                ["-v", "error"] + arguments + ["-vf", "alphaextract", "-f", "rawvideo", "-pix_fmt", "gray", "-"]
            ))
    }

    static func maximumDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 255
    }

    @Test func theAlphaPlaneComesBackWithinTwoLevelsAndJoinsIntact() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try Self.transparentImages(count: 30, into: frames)
        let movie = dir.path("clip.webm")
        let made = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--alpha", "-q"])
        #expect(made.status == 0, "\(made.stderr)")

        let tags = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-show_entries", "stream=codec_name:stream_tags=alpha_mode", "-of", "csv", movie])
        #expect(tags.stdout.contains("vp9") && tags.stdout.contains(",1"), "\(tags.stdout)")
        let source = try Self.alphaPlanes(["-i", "\(frames)/f%03d.png"])
        let decoded = try Self.alphaPlanes(["-c:v", "libvpx-vp9", "-i", movie])
        #expect(source.count == 30 * 160 * 128 && decoded.count == source.count)
        let worst = Self.maximumDifference(source, decoded)
        #expect(worst <= 2, "an alpha value \(worst) levels from the source's")
        // Every picture's colour still comes through where it is opaque.
        #expect(try Judge.frames(of: movie).count == 30)
        let identified = try MatroskaJudge.identify(movie)
        #expect(identified.errors.isEmpty && identified.warnings.isEmpty && identified.codecIDs == ["V_VP9"])
        let elements = try ExternalTool.run("mkvinfo", ["-v", "--ui-language", "en_US", movie]).stdout
        #expect(elements.contains("Maximum block additional ID: 1"))
        #expect(elements.components(separatedBy: "Block additional ID: 1").count - 1 == 30, "one alpha picture a frame")

        // Three segments joined keep every alpha picture.
        var parts: [String] = []
        for index in 1...3 {
            let part = dir.path("part-\(index).webm")
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath, [frames, "-o", part, "--alpha", "--segment", "\(index)/3", "-q"])
            #expect(result.status == 0, "\(result.stderr)")
            parts.append(part)
        }
        let joined = dir.path("joined.webm")
        let join = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + parts + ["-o", joined, "-q"])
        #expect(join.status == 0, "\(join.stderr)")
        let rejoined = try Self.alphaPlanes(["-c:v", "libvpx-vp9", "-i", joined])
        #expect(Self.maximumDifference(source, rejoined) <= 2 && rejoined.count == source.count)
        // Alpha cannot go into an MP4 by a join either.
        let mp4 = dir.path("joined.mp4")
        let refused = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + parts + ["-o", mp4])
        #expect(refused.status == 1 && refused.stderr.contains("vp9 keeps alpha only in .webm and .mkv"))
        #expect(!FileManager.default.fileExists(atPath: mp4))
    }

    /// A segment that keeps alpha but has a frame without its alpha picture is refused by a join,
    /// naming the file and the frame, rather than joined with that frame opaque.
    @Test func aSegmentFrameWithoutItsAlphaPictureIsRefused() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try Self.transparentImages(count: 6, into: frames)
        let part = dir.path("part-1.webm")
        let made = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", part, "--alpha", "--segment", "1/1", "-q"])
        #expect(made.status == 0, "\(made.stderr)")
        // BlockAddID 1 (0xEE, size 1, value 1) of the first frame becomes 2: an addition that is not alpha.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: part)))
        let at = try #require(
            bytes.indices.dropLast(3).first {
                bytes[$0] == 0xEE && bytes[$0 + 1] == 0x81 && bytes[$0 + 2] == 0x01 && bytes[$0 + 3] == 0xA5
            })
        bytes[at + 2] = 2
        try Data(bytes).write(to: URL(fileURLWithPath: part))
        let joined = dir.path("joined.webm")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["join", part, "-o", joined])
        #expect(result.status == 1)
        #expect(result.stderr.contains(part) && result.stderr.contains("has no alpha picture"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: joined))
    }

    /// Without `--alpha` a WebM is opaque: no alpha stream, no `AlphaMode`.
    @Test func withoutAlphaNothingChanges() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try Self.transparentImages(count: 3, into: frames)
        let movie = dir.path("opaque.webm")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "-q"]).status == 0)
        let elements = try ExternalTool.run("mkvinfo", ["-v", "--ui-language", "en_US", movie]).stdout
        #expect(!elements.contains("Block additional") && !elements.contains("VideoAlphaMode"))
        #expect(try Judge.stream(of: movie).codecName == "vp9")
    }

    @Test(arguments: [
        (["--codec", "av1", "--alpha"], "webm", "--alpha"), (["--alpha"], "mp4", "--alpha"),
        (["--alpha", "--bit-depth", "10"], "webm", "--alpha"),
    ])
    func alphaWhereItCannotBeKeptIsAUsageError(options: [String], ext: String, option: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try Self.transparentImages(count: 3, into: frames)
        let movie = dir.path("out.\(ext)")
        let codec = ext == "mp4" ? ["--codec", "vp9"] : []
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie] + codec + options)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("flipbook: \(option)") && result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: movie))
    }
}
