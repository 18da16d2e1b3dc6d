import FlipbookTestSupport
import Foundation
import Testing

/// Timecode, judged by ffprobe (the `timecode` tag it gives the video stream and the `tmcd` data stream,
/// the data stream's one packet read with `-show_data`), MediaInfo (`Time code of first frame`) and
/// mkvinfo (the `TIMECODE` tag): frame 1001 of a 24 fps render is 00:00:41:17 in MP4, QuickTime and
/// Matroska, a given timecode is written as given (drop-frame at 29.97 fps too), `none` writes none,
/// `join` starts at the first segment's, and what no container holds is a usage error.
@Suite struct TimecodeTests {
    /// `count` numbered PNGs from `first` (`f1001.png` …) in a folder of `dir`.
    static func frames(from first: Int, count: Int, in dir: TemporaryDirectory) throws -> String {
        let folder = try dir.folder("frames")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=96x64:r=24", "-frames:v", String(count),
                "-start_number",
                String(first), "\(folder)/f%04d.png",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return folder
    }

    static func flipbook(_ arguments: [String]) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-q"])
    }

    /// The `timecode` tags ffprobe gives each stream, and the movie's (`TIMECODE` in Matroska).
    static func probedTimecodes(_ movie: String) throws -> (streams: [String], format: String?) {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_type,codec_tag_string:stream_tags=timecode:format_tags",
                "-of", "json", movie,
            ])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let streams = (json["streams"] as? [[String: Any]] ?? []).map { stream in
            (stream["tags"] as? [String: String])?["timecode"] ?? "-"
        }
        let formatTags = (json["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        return (streams, formatTags["timecode"] ?? formatTags["TIMECODE"])
    }

    /// MediaInfo's `Time code of first frame`, if it gives one.
    static func mediaInfoTimecode(_ movie: String) throws -> String? {
        let result = try ExternalTool.run("mediainfo", ["--Inform=Other;%TimeCode_FirstFrame%", movie])
        let value = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    @Test(arguments: ["mp4", "mov", "mkv"])
    func theFirstImagesNumberIsTheTimecodeByDefault(ext: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1001, count: 12, in: dir)
        let movie = dir.path("dailies.\(ext)")
        let result = try Self.flipbook([frames, "-o", movie, "--fps", "24"])
        #expect(result.status == 0, "\(result.stderr)")
        let probed = try Self.probedTimecodes(movie)
        if ext == "mkv" {
            #expect(probed.format == "00:00:41:17", "\(probed)")
            let info = try ExternalTool.run("mkvinfo", ["--all", movie])
            #expect(
                info.stdout.contains("Name: TIMECODE") && info.stdout.contains("String: 00:00:41:17"), "\(info.stdout)")
        } else {
            // The video stream (through its tref) and the tmcd data stream both say it.
            #expect(probed.streams == ["00:00:41:17", "00:00:41:17"], "\(probed)")
            #expect(try Self.mediaInfoTimecode(movie) == "00:00:41:17")
            // The tmcd track's one sample is the frame number, 1001 (0x3e9), big-endian.
            let data = try ExternalTool.run(
                "ffprobe", ["-v", "error", "-select_streams", "d", "-show_packets", "-show_data", movie])
            #expect(data.stdout.contains("0000 03e9"), "\(data.stdout)")
            #expect(try Judge.frames(of: movie).count == 12)
        }
    }

    @Test func aGivenTimecodeIsWrittenAsGivenDropFrameToo() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1, count: 6, in: dir)
        for (options, expected) in [
            (["--timecode", "01:00:00:00", "--fps", "25"], "01:00:00:00"),
            (["--timecode", "01:00:00;00", "--fps", "29.97"], "01:00:00;00"),
            (["--timecode", "00:10:00;00", "--fps", "29.97"], "00:10:00;00"),
            (["--timecode", "10:09:59;59", "--fps", "59.94"], "10:09:59;59"),
            (["--timecode", "23:59:59:23", "--fps", "24"], "23:59:59:23"),
        ] {
            let movie = dir.path("given.mov")
            let result = try Self.flipbook([frames, "-o", movie, "--overwrite"] + options)
            #expect(result.status == 0, "\(options): \(result.stderr)")
            #expect(try Self.probedTimecodes(movie).streams == [expected, expected], "\(options)")
            #expect(try Self.mediaInfoTimecode(movie) == expected, "\(options)")
        }
        // From the frame number at 29.97 fps: frame 17982 is 00:09:59:12 counted without dropping.
        let numbered = try TemporaryDirectory()
        let late = try Self.frames(from: 17982, count: 3, in: numbered)
        let movie = numbered.path("late.mp4")
        #expect(try Self.flipbook([late, "-o", movie, "--fps", "29.97"]).status == 0)
        #expect(try Self.probedTimecodes(movie).streams == ["00:09:59:12", "00:09:59:12"])
    }

    @Test func noneWritesNoTimecodeAndUnnumberedImagesHaveNone() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1001, count: 4, in: dir)
        let movie = dir.path("none.mp4")
        #expect(try Self.flipbook([frames, "-o", movie, "--timecode", "none"]).status == 0)
        #expect(try Self.probedTimecodes(movie).streams == ["-"])
        #expect(try Self.mediaInfoTimecode(movie) == nil)
        let still = dir.path("still.png")
        try FileManager.default.copyItem(atPath: "\(frames)/f1001.png", toPath: dir.path("still.png"))
        let unnumbered = dir.path("unnumbered.mp4")
        #expect(try Self.flipbook([still, "-o", unnumbered]).status == 0)
        #expect(try Self.probedTimecodes(unnumbered).streams == ["-"])
    }

    @Test(arguments: ["mov", "mkv"])
    func aJoinStartsAtTheFirstSegmentsTimecode(ext: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1001, count: 24, in: dir)
        let parts = (1...3).map { dir.path("part-\($0).\(ext)") }
        for (index, part) in parts.enumerated() {
            let result = try Self.flipbook([frames, "-o", part, "--fps", "24", "--segment", "\(index + 1)/3"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        // Each segment starts at its own first frame's timecode: 1009 is 00:00:42:01.
        let second = try Self.probedTimecodes(parts[1])
        #expect((ext == "mkv" ? second.format : second.streams.first) == "00:00:42:01", "\(second)")
        let joined = dir.path("joined.\(ext)")
        let join = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + parts.reversed() + ["-o", joined, "-q"])
        #expect(join.status == 0, "\(join.stderr)")
        let probed = try Self.probedTimecodes(joined)
        if ext == "mkv" {
            #expect(probed.format == "00:00:41:17", "\(probed)")
        } else {
            #expect(probed.streams == ["00:00:41:17", "00:00:41:17"], "\(probed)")
        }
        #expect(try Judge.frames(of: joined).count == 24)
    }

    @Test func whatNoContainerHoldsIsAUsageErrorAndNothingIsWritten() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(from: 1, count: 2, in: dir)
        for (options, output, words) in [
            (["--timecode", "01:00:00;00", "--fps", "24"], "a.mp4", "only 29.97 and 59.94 fps"),
            (["--timecode", "01:00:00:24", "--fps", "24"], "a.mp4", "frames run 00 to 23"),
            (["--timecode", "01:01:00;01", "--fps", "29.97"], "a.mov", "skips the first frame labels"),
            (["--timecode", "1:00:00:00"], "a.mp4", "write HH:MM:SS:FF"),
            (["--timecode", "01:00:00:00"], "a.gif", "a .gif holds none"),
            (["--timecode", "01:00:00:00", "--duration", "3600"], "a.mp4", "counts 1 to 255 frames a second"),
            (["--timecode", "01:00:00:00", "--fragmented"], "a.mp4", "a fragmented or followed movie holds none"),
        ] {
            let movie = dir.path(output)
            let result = try Self.flipbook([frames, "-o", movie] + options)
            #expect(result.status == 2 && result.stderr.contains(words), "\(options): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }
}
