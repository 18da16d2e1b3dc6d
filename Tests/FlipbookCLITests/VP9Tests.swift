import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

/// `--codec vp9` (libvpx), judged from outside: ffprobe for the stream, its profile, pixel format,
/// colour tags, every frame's time and every packet; ffmpeg's `trace_headers` for the colour space
/// and range in the VP9 frame headers; MediaInfo for `vpcC`; PSNR against the source images; the
/// keyframe interval; and the usage errors of what VP9 cannot do here. The rates and sizes asked for are
/// judged by ``VP9RateControlTests``.
@Suite struct VP9Tests {
    /// Runs the tool with `--codec vp9` and a fast libvpx speed on `inputs`, expecting success and
    /// nothing on standard error.
    @discardableResult
    static func encode(_ inputs: [String], to movie: String, _ options: [String] = []) throws -> ToolResult {
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, inputs + ["-o", movie, "--codec", "vp9", "--preset", "veryfast", "-q"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "-q leaves standard error empty: \(result.stderr)")
        return result
    }

    /// The colour space and range of every VP9 key frame header, and how many frame headers say they
    /// are shown, as ffmpeg's `trace_headers` reads them from the bitstream (superframes split).
    static func frameHeaders(of movie: String) throws -> (colour: [[String: Int]], shown: Int, hidden: Int) {
        let result = try ExternalTool.run(
            "ffmpeg", ["-v", "trace", "-i", movie, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        var colour: [[String: Int]] = []
        var (shown, hidden) = (0, 0)
        for line in result.stderr.split(separator: "\n") where line.contains("[trace_headers") {
            let words = line.split(separator: " ")
            guard words.count >= 4, let value = Int(words[words.count - 1]) else { continue }
            if words.contains("show_frame") {
                if value == 1 { shown += 1 } else { hidden += 1 }
            }
            if words.contains("color_space") { colour.append(["color_space": value]) }
            if words.contains("color_range"), !colour.isEmpty { colour[colour.count - 1]["color_range"] = value }
        }
        return (colour, shown, hidden)
    }

    @Test func a30fpsMovieIsProfileZeroVP09WithExactTimesBT709AndTheSourcePictures() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 45, width: 128, height: 96, into: frames, padded: true)
        let movie = dir.path("vp9.mp4")
        let result = try Self.encode([frames], to: movie, ["--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(summary["codec"] as? String == "vp9")

        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == "vp9")
        #expect(try AV1Tests.codecTag(of: movie) == "vp09")
        #expect(stream.profile == "Profile 0")
        #expect(stream.pixelFormat == "yuv420p")
        #expect(stream.width == 128 && stream.height == 96)
        #expect(
            [stream.colorSpace, stream.colorPrimaries, stream.colorTransfer, stream.colorRange]
                == ["bt709", "bt709", "bt709", "tv"])
        #expect(stream.frameCount == 45, "every image a frame, the last one included")
        let decoded = try Judge.frames(of: movie)
        #expect(decoded.map(\.pts) == (0..<45).map { Int64($0) * 400 }, "30 fps at 12000 ticks a second")
        #expect(decoded.allSatisfy { $0.duration == 400 })
        #expect(try Judge.formatDuration(of: movie) == "1.500000")
        #expect(try Judge.decodeErrors(of: movie) == "")
        let psnr = try Judge.psnr(of: movie, againstImages: "\(frames)/frame%03d.png")
        #expect(psnr >= 33, "PSNR \(psnr) dB at CRF 32")

        // One packet a shown frame, in presentation order: decode time equals presentation time.
        let packets = try Judge.packets(of: movie)
        #expect(packets.count == 45)
        #expect(packets.map(\.dts) == packets.map(\.pts))
        #expect(packets.map(\.pts) == (0..<45).map { Int64($0) * 400 })
        #expect(packets.first?.isKeyframe == true)
        let headers = try Self.frameHeaders(of: movie)
        #expect(headers.shown == 45, "each shown frame once: \(headers)")
        #expect(!headers.colour.isEmpty)
        // VP9's colour space 2 is BT.709; range 0 is studio (limited).
        #expect(headers.colour.allSatisfy { $0 == ["color_space": 2, "color_range": 0] }, "\(headers.colour)")
    }

    @Test func bt601FullRangeIsTaggedInColrVpcCAndTheFrameHeaders() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 10, width: 128, height: 96, into: frames, padded: true)
        let movie = dir.path("sd.mp4")
        try Self.encode([frames], to: movie, ["--colour", "bt601", "--range", "full"])
        let stream = try Judge.stream(of: movie)
        #expect(
            [stream.colorSpace, stream.colorPrimaries, stream.colorTransfer, stream.colorRange]
                == ["smpte170m", "smpte170m", "smpte170m", "pc"])
        // VP9's colour space 3 is SMPTE 170M; range 1 is full.
        let headers = try Self.frameHeaders(of: movie)
        #expect(!headers.colour.isEmpty)
        #expect(headers.colour.allSatisfy { $0 == ["color_space": 3, "color_range": 1] }, "\(headers.colour)")
        // The sources converted as the movie says it was: BT.601 (SMPTE 170M), full range.
        let compared = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "info", "-nostats", "-i", movie, "-framerate", "30", "-i", "\(frames)/frame%03d.png", "-lavfi",
                "[1:v]scale=out_color_matrix=bt601:out_range=pc,format=yuv420p[ref];[0:v]format=yuv420p[mov];"
                    + "[mov][ref]psnr",
                "-f", "null", "-",
            ])
        let line = compared.stderr.split(separator: "\n").last { $0.contains("PSNR") && $0.contains("average:") }
        let psnr = line.flatMap { $0.split(separator: "average:").last?.split(separator: " ").first }.flatMap {
            Double($0)
        }
        #expect((psnr ?? 0) >= 33, "PSNR \(psnr ?? 0) dB against the sources in BT.601 full range")
    }

    @Test func tenBitIsProfileTwoYUV420P10() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 20, width: 160, height: 90, into: frames, padded: true)
        let movie = dir.path("ten.mp4")
        try Self.encode([frames], to: movie, ["--bit-depth", "10"])
        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == "vp9")
        #expect(stream.profile == "Profile 2")
        #expect(stream.pixelFormat == "yuv420p10le")
        #expect(stream.frameCount == 20)
        #expect(try Judge.decodeErrors(of: movie) == "")
        let psnr = try Judge.psnr(of: movie, againstImages: "\(frames)/frame%03d.png")
        #expect(psnr >= 33, "PSNR \(psnr) dB at 10 bits")
        let fields = try BoxReaders.mediaInfoFields(of: movie)
        #expect(fields.contains { $0.key == "Name" && $0.value == "vpcC" }, "MediaInfo finds vpcC")
    }

    @Test func mediaInfoReadsAVP09EntryAndTheLevelIsVP9s() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 5, width: 320, height: 240, into: frames)
        let movie = dir.path("mi.mp4")
        try Self.encode([frames], to: movie)
        let summary = try ExternalTool.run("mediainfo", [movie])
        let codecIDs = summary.stdout.split(separator: "\n").filter { $0.hasPrefix("Codec ID") }
        #expect(codecIDs.contains { $0.hasSuffix(": vp09") }, "\(codecIDs)")
        #expect(summary.stdout.contains("Matrix coefficients                      : BT.709"), "\(summary.stdout)")
        // 320x240 at 30 fps is level 2 (ten times: 20), as ffmpeg marks it; mkvmerge reads the file.
        let probe = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie])
        #expect(probe.stdout.contains("vp9 (Profile 0, level 2.0)"), "\(probe.stdout)")
        let copy = try ExternalTool.run("mkvmerge", ["-q", "-o", dir.path("copy.mkv"), movie])
        #expect(copy.status == 0, "\(copy.stdout)\(copy.stderr)")
    }

    @Test func keyframesComeAtTheAskedInterval() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 35, width: 128, height: 96, into: frames)
        let movie = dir.path("gop.mp4")
        try Self.encode([frames], to: movie, ["--keyint", "10"])
        let keyframes = try Judge.packets(of: movie).enumerated().filter(\.element.isKeyframe).map(\.offset)
        #expect(keyframes == [0, 10, 20, 30])
        #expect(try Judge.frames(of: movie).filter(\.keyFrame).count == 4, "the decoder agrees")
    }

    @Test func whatVP9CannotDoHereIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 64, height: 48, into: frames)
        let movie = dir.path("a.mp4")
        let cases: [(arguments: [String], says: String)] = [
            (["--crf", "64"], "--crf 64 is out of range for vp9; use 0 (best) to 63 (smallest)."),
            (["--alpha"], "--alpha: vp9 keeps alpha only in .webm and .mkv files, not in .mp4."),
            (
                ["--alpha", "--bit-depth", "10"],
                "--alpha: alpha is kept by vp9 at 8 bits only, and the bit depth is 10."
            ),
            (
                ["--max-bitrate", "1M", "--buffer-size", "2M"],
                "--max-bitrate 1M is not available for vp9 (libvpx keeps no cap over a decoder's buffer)"
            ),
            (["--bitrate", "300k", "--two-pass"], "--bitrate 300k in two passes is not available for vp9"),
            (["--bframes", "2"], "--bframes is not available for vp9, which has no B-frames."),
            (["--profile", "main"], "--profile main is not available for vp9."),
            (["--bit-depth", "12"], "--bit-depth 12 is not available"),
            (["-o", dir.path("a.mov")], "--codec vp9 does not go in .mov files; name the output .mp4"),
        ]
        for (arguments, says) in cases {
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath, [frames, "-o", movie, "--codec", "vp9"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(says), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
        #expect(dir.entries() == ["frames"], "nothing written")
    }
}
