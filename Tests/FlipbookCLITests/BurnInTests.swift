import FlipbookTestSupport
import Foundation
import Testing

/// Burn-ins, judged by Tesseract reading the text back from ffmpeg's decode (``TextJudge``): every frame's
/// own number and timecode, the fields given, after scaling, in an 8-bit H.264 MP4, a 10-bit PQ HEVC
/// movie and a GIF; the same bytes every run; and each template, field or font that cannot be used a
/// usage error that leaves nothing behind.
@Suite struct BurnInTests {
    /// `count` numbered PNGs from `first` (`f1001.png` …) of ffmpeg's `gradients` source at `size`, whose
    /// colours never come near white.
    static func frames(from first: Int, count: Int, size: String = "640x360", in dir: TemporaryDirectory) throws
        -> String
    {
        let folder = try dir.folder("frames")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "gradients=s=\(size):r=24:c0=0x203060:c1=0x905020:speed=0.05",
                "-frames:v", String(count), "-start_number", String(first), "\(folder)/f%04d.png",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return folder
    }

    static func flipbook(_ arguments: [String]) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-q"])
    }

    /// The timecode `frames` after 00:00:41:17 at 24 fps.
    static func timecode(after frames: Int) -> String {
        let total = 41 * 24 + 17 + frames
        let seconds = total / 24
        return String(format: "00:00:%02d:%02d", seconds, total % 24)
    }

    @Test func eachFramesNumberTimecodeAndFieldsAreReadBackAfterScaling() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1001, count: 12, in: dir)
        let movie = dir.path("dailies.mp4")
        let result = try Self.flipbook([
            frames, "-o", movie, "--fps", "24", "--size", "1280x720", "--burn-in", "BR:{frame}", "--burn-in",
            "TR:{timecode}", "--burn-in", "TL:{shot} v{version}", "--field", "shot=KESTREL", "--field", "version=3",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.frames(of: movie).count == 12)
        let numbers = try TextJudge.read(movie, region: TextJudge.bottomRight)
        #expect(numbers == (1001...1012).map(String.init), "\(numbers)")
        let timecodes = try TextJudge.read(movie, region: TextJudge.topRight)
        #expect(timecodes == (0..<12).map { Self.timecode(after: $0) }, "\(timecodes)")
        let shots = try TextJudge.read(
            movie, region: TextJudge.topLeft, frames: 0...0, characters: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 v")
        #expect(shots == ["KESTREL v3"], "\(shots)")
    }

    @Test func aTenBitPQMovieAndAGIFCarryTheirBurnInsToo() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1001, count: 3, size: "1280x720", in: dir)
        // PQ's reference white (203 nits) is code 0.58, so its text is darker in ffmpeg's plain decode.
        for (name, options, threshold) in [
            ("pq.mp4", ["--codec", "hevc", "--bit-depth", "10", "--colour", "pq"], 110), ("anim.gif", [], 170),
        ] {
            let movie = dir.path(name)
            let result = try Self.flipbook([frames, "-o", movie, "--fps", "24", "--burn-in", "BR:{frame}"] + options)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let numbers = try TextJudge.read(movie, region: TextJudge.bottomRight, threshold: threshold)
            #expect(numbers == ["1001", "1002", "1003"], "\(name): \(numbers)")
        }
    }

    @Test func theSameMovieComesOutByteForByteEveryRun() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1, count: 6, in: dir)
        var movies: [Data] = []
        for run in 0..<2 {
            let movie = dir.path("run\(run).mp4")
            let result = try Self.flipbook([
                frames, "-o", movie, "--burn-in", "BR:{frame} {timecode}", "--burn-in", "TL:{file} {date} {fps}",
                "--creation-time", "2026-01-02", "--slate", "3",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            movies.append(try Data(contentsOf: URL(fileURLWithPath: movie)))
        }
        #expect(movies[0] == movies[1])
        let dates = try TextJudge.read(
            dir.path("run0.mp4"), region: TextJudge.bottomLeft, frames: 3...3, characters: nil)
        #expect(dates.isEmpty == false)
        let date = try TextJudge.read(
            dir.path("run0.mp4"), region: (0, 0, 0.6, 0.125), frames: 3...3, characters: "f0123456789.-png ")
        #expect(date.first?.contains("2026-01-02") == true, "\(date)")
    }

    @Test func cyrillicFieldsAreDrawnAndTextTheFontLacksIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1, count: 2, in: dir)
        let drawn = try Self.flipbook([
            frames, "-o", dir.path("cyrillic.mp4"), "--burn-in", "TL:{shot}", "--field", "shot=Сцена 1",
        ])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let movie = dir.path("cjk.mp4")
        let refused = try Self.flipbook([frames, "-o", movie, "--burn-in", "TL:{shot}", "--field", "shot=镜头"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("has no glyph for some of '镜头'") && refused.stderr.contains("--font"))
        #expect(!FileManager.default.fileExists(atPath: movie))
    }

    @Test func templatesFieldsAndFontsThatCannotBeUsedAreUsageErrors() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1, count: 2, in: dir)
        let movie = dir.path("refused.mp4")
        let cases: [([String], String)] = [
            (["--burn-in", "{frame}"], "has no corner; write one of TL, TC, TR, BL, BC, BR"),
            (["--burn-in", "XX:{frame}"], "has no corner"),
            (["--burn-in", "TL:{shot}"], "names the field {shot}, which has no value; the fields are {frame}"),
            (["--burn-in", "TL:{frame"], "has a brace that is not a field"),
            (["--burn-in", "TL:frame}"], "has a brace that is not a field"),
            (["--field", "frame=3", "--burn-in", "TL:x"], "field 'frame' cannot be named"),
            (["--field", "=3"], "--field =3 needs KEY=VALUE"),
            (["--burn-in", "TL:{timecode}", "--fps", "1/120"], "a timecode counts 1 to 255 frames a second"),
            (["--burn-in", "TL:x", "--font", dir.path("missing.ttf")], "missing.ttf"),
            (["--slate", "0"], "--slate 0 is not a length"),
            (["--slate", "1s", "--segment", "1/2"], "--slate begins the whole movie"),
            (["--timecode-on-slate"], "--timecode-on-slate is for a movie with --slate"),
        ]
        for (options, message) in cases {
            let result = try Self.flipbook([frames, "-o", movie] + options)
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(options): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie), "\(options)")
        }
        // Not a font at all: FreeType's verdict, named with the file.
        let notAFont = dir.path("notes.ttf")
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: notAFont))
        let result = try Self.flipbook([frames, "-o", movie, "--burn-in", "TL:x", "--font", notAFont])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("notes.ttf") && result.stderr.contains("cannot be read as TrueType"))
        #expect(!FileManager.default.fileExists(atPath: movie))
    }
}
