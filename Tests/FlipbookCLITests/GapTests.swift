import FlipbookTestSupport
import Foundation
import Testing

/// Numbered images with numbers missing (`f4.png` and `f8.png` of `f1 … f10`), and ffmpeg-style
/// printf patterns, judged by ffprobe: frames, every frame's time, the movie's length.
@Suite struct GapTests {
    /// `f1.png … f10.png` without f4 and f8, 64x48.
    static func framesWithGaps(in dir: TemporaryDirectory) throws -> String {
        let frames = try dir.folder("frames")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30", "-frames:v", "10", "-start_number",
                "1",
                "\(frames)/f%d.png",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        try FileManager.default.removeItem(atPath: "\(frames)/f4.png")
        try FileManager.default.removeItem(atPath: "\(frames)/f8.png")
        return frames
    }

    static func presentationTimes(of movie: String) throws -> [Double] {
        let result = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", movie])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { Double($0.split(separator: ",")[0]) }.sorted()
    }

    @Test func warnMakesTheMovieFromTheImagesThereAreAndNamesTheGaps() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.framesWithGaps(in: dir)
        let movie = dir.path("warn.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "flipbook: warning: frames 4, 8 missing: f3.png is followed by f5.png, f7.png by f9.png"),
            "\(result.stderr)")
        #expect(result.stdout.contains("\"gaps\":[4,8]"), "\(result.stdout)")
        #expect(try Judge.stream(of: movie).frameCount == 8)
        #expect(try Self.presentationTimes(of: movie).count == 8)
    }

    @Test func holdKeepsTimeByTheNumbers() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.framesWithGaps(in: dir)
        let movie = dir.path("hold.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--gaps", "hold", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let times = try Self.presentationTimes(of: movie)
        let numbers = [1, 2, 3, 5, 6, 7, 9, 10]
        #expect(times.count == numbers.count)
        for (time, number) in zip(times, numbers) {
            #expect(abs(time - Double(number - 1) / 30) < 1e-6, "image \(number) at \(time) s")
        }
        #expect(try Judge.formatDuration(of: movie) == "0.333333", "ten numbers' worth of time")
    }

    @Test func holdInSegmentsJoinsToTheSameTimesAsOneEncode() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.framesWithGaps(in: dir)
        let whole = dir.path("whole.mp4")
        #expect(
            try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", whole, "--gaps", "hold", "-q"]).status == 0)
        for k in 1...2 {
            let part = try ExternalTool.run(
                ExternalTool.flipbookPath,
                [frames, "-o", dir.path("part\(k).mp4"), "--gaps", "hold", "--segment", "\(k)/2", "-q"])
            #expect(part.status == 0, "\(part.stderr)")
        }
        let joined = dir.path("joined.mp4")
        let join = try ExternalTool.run(
            ExternalTool.flipbookPath,
            ["join", dir.path("part1.mp4"), dir.path("part2.mp4"), "-o", joined, "-q"])
        #expect(join.status == 0, "\(join.stderr)")
        #expect(try Self.presentationTimes(of: joined) == Self.presentationTimes(of: whole))
        #expect(try Judge.formatDuration(of: joined) == "0.333333")
    }

    @Test func failRefusesNamingTheGapsAndWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.framesWithGaps(in: dir)
        let movie = dir.path("fail.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--gaps", "fail"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("frames 4, 8 missing"), "\(result.stderr)")
        #expect(result.stderr.contains("--gaps hold"), "\(result.stderr)")
        #expect(dir.entries() == ["frames"])
    }

    @Test func twoImagesWithTheSameNumberAreAnErrorNamingBoth() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.framesWithGaps(in: dir)
        try FileManager.default.copyItem(atPath: "\(frames)/f1.png", toPath: "\(frames)/f01.png")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", dir.path("dup.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("f1.png and f01.png have the same number 1"), "\(result.stderr)")
        #expect(dir.entries() == ["frames"])
    }

    /// The same file given more than once in an explicit order (a title card held for three frames) is a
    /// list of frames, not two files with one number.
    @Test func aFileGivenAgainWithKeepOrderIsAnotherFrame() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.framesWithGaps(in: dir)
        let movie = dir.path("held.mp4")
        let inputs = ["f1", "f1", "f6", "f1", "f10"].map { "\(frames)/\($0).png" }
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, inputs + ["--keep-order", "-o", movie, "--crf", "0", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try Judge.decodedRGB(of: movie)
        #expect(decoded.frames.count == 5)
        if decoded.frames.count == 5 {
            #expect(decoded.frames[0] == decoded.frames[1] && decoded.frames[0] == decoded.frames[3])
            #expect(decoded.frames[0] != decoded.frames[2] && decoded.frames[2] != decoded.frames[4])
        }
    }

    /// A stray file numbered millions past the sequence is named, quickly, instead of listing millions of
    /// missing numbers.
    @Test func aStrayFileMillionsOfNumbersAwayIsNamed() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.framesWithGaps(in: dir)
        try FileManager.default.copyItem(atPath: "\(frames)/f1.png", toPath: "\(frames)/f20240101.png")
        let started = Date()
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", dir.path("stray.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("f10.png is followed by f20240101.png"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(dir.entries() == ["frames"])
    }

    @Test func aPrintfPatternTakesTheNumberedFilesFromTheStartNumber() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.framesWithGaps(in: dir)
        let all = dir.path("all.mp4")
        let everything = try ExternalTool.run(ExternalTool.flipbookPath, ["\(frames)/f%d.png", "-o", all, "-q"])
        #expect(everything.status == 0, "\(everything.stderr)")
        #expect(try Judge.stream(of: all).frameCount == 8, "every number present, past the gaps")
        let late = dir.path("late.mp4")
        let fromFive = try ExternalTool.run(
            ExternalTool.flipbookPath, ["\(frames)/f%d.png", "--start-number", "5", "-o", late, "-q"])
        #expect(fromFive.status == 0, "\(fromFive.stderr)")
        #expect(try Judge.stream(of: late).frameCount == 5, "5, 6, 7, 9 and 10")

        let padded = try dir.folder("padded")
        for number in [7, 8, 9, 11] {
            try FileManager.default.copyItem(
                atPath: "\(frames)/f1.png", toPath: "\(padded)/frame_\(String(format: "%04d", number)).png")
        }
        let zeros = dir.path("zeros.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, ["\(padded)/frame_%04d.png", "-o", zeros, "--gaps", "hold", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.presentationTimes(of: zeros).count == 4)
        #expect(try Judge.formatDuration(of: zeros) == "0.166667", "numbers 7 to 11: five frames' time")
    }

    @Test func aStartNumberWithoutAPatternIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.framesWithGaps(in: dir)
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "--start-number", "3", "-o", dir.path("x.mp4")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--start-number is for printf pattern inputs"), "\(result.stderr)")
    }
}
