import FlipbookTestSupport
import Foundation
import Testing

/// `--keyint`, `--bframes`, `--profile`, `--level`, `--tune` and `--encoder-params`, judged by
/// ffprobe (key frames, packet order, profile and level) and MediaInfo (the encoder's own settings line).
@Suite struct EncoderChoiceTests {
    static func frames(_ dir: TemporaryDirectory, count: Int = 90) throws -> String {
        let frames = try dir.folder("frames")
        try SampleImages.write(count: count, width: 320, height: 240, into: frames)
        return frames
    }

    static func encode(_ arguments: [String]) throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-q"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    /// The distances between key frames, and from the last one to the end.
    static func keyframeGaps(_ movie: String) throws -> [Int] {
        let keys = try Judge.packets(of: movie).sorted { $0.pts < $1.pts }.enumerated().filter(\.element.isKeyframe)
            .map(\.offset)
        return zip(keys, keys.dropFirst()).map { $1 - $0 }
    }

    @Test(arguments: CodecGuaranteeTests.codecNames)
    func keyframesComeAtMostEveryInterval(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(dir)
        let counted = dir.path("frames.mp4")
        let timed = dir.path("seconds.mp4")
        try Self.encode([frames, "-o", counted, "--codec", codec, "--keyint", "20", "--preset", "veryfast"])
        try Self.encode([frames, "-o", timed, "--codec", codec, "--keyint", "0.5s", "--preset", "veryfast"])
        let gaps = try Self.keyframeGaps(counted)
        #expect(!gaps.isEmpty && gaps.allSatisfy { $0 <= 20 }, "\(codec): \(gaps)")
        #expect(gaps.count >= 4, "\(codec): \(gaps)")  // 90 frames need at least 5 keyframes
        let halfSecond = try Self.keyframeGaps(timed)
        #expect(!halfSecond.isEmpty && halfSecond.allSatisfy { $0 <= 15 }, "\(codec): \(halfSecond)")
        // probe reports the longest distance ffprobe's key flags show, and the stream's bit rate.
        let probed = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", "--json", counted])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any])
        let packets = try Judge.packets(of: counted).sorted { $0.pts < $1.pts }
        let keys = packets.enumerated().filter(\.element.isKeyframe).map(\.offset)
        let longest = max(zip(keys, keys.dropFirst()).map { $1 - $0 }.max() ?? 0, packets.count - keys.last!)
        #expect(info["keyframeInterval"] as? Int == longest)
        let rate = try RateJudge.videoBitrate(of: counted)
        #expect(abs((info["videoBitrate"] as? Double ?? 0) - rate) <= rate * 0.001, "\(info) against \(rate)")
    }

    /// Any number of B-frames, or none by a tune, keeps the times of every packet sound: decode times
    /// rising, each picture shown no earlier than it is decoded, every frame decoded cleanly.
    @Test(arguments: [
        ("h264", ["--bframes", "8"]), ("hevc", ["--bframes", "1"]), ("hevc", ["--bframes", "8"]),
        ("hevc", ["--tune", "zerolatency"]), ("h264", ["--tune", "zerolatency"]), ("h264", ["--keyint", "1"]),
        ("av1", ["--keyint", "2"]),
    ])
    func reorderedOrNotEveryPacketIsTimedSoundly(codec: String, options: [String]) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(dir, count: 60)
        let movie = dir.path("out.mp4")
        try Self.encode([frames, "-o", movie, "--codec", codec, "--preset", "veryfast"] + options)
        let packets = try Judge.packets(of: movie)
        #expect(packets.count == 60)
        #expect(zip(packets, packets.dropFirst()).allSatisfy { $0.dts < $1.dts }, "\(codec) \(options)")
        #expect(packets.allSatisfy { $0.pts >= $0.dts }, "\(codec) \(options)")
        #expect(try Judge.frames(of: movie).map(\.pts) == (0..<60).map { Int64($0) * 400 })
        #expect(try Judge.decodeErrors(of: movie) == "")
        if options == ["--keyint", "1"] { #expect(packets.allSatisfy { $0.isKeyframe }) }
        if options == ["--keyint", "2"] { #expect(packets.enumerated().allSatisfy { $1.isKeyframe == ($0 % 2 == 0) }) }
    }

    @Test(arguments: ["h264", "hevc"])
    func noBFramesMeansDecodeOrderIsDisplayOrderWithoutAnEdit(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(dir)
        let plain = dir.path("plain.mp4")
        let ordered = dir.path("ordered.mp4")
        try Self.encode([frames, "-o", plain, "--codec", codec])
        try Self.encode([frames, "-o", ordered, "--codec", codec, "--bframes", "0"])
        // The default reorders (the test can fail), --bframes 0 does not.
        #expect(try Judge.packets(of: plain).contains { $0.pts != $0.dts })
        let packets = try Judge.packets(of: ordered)
        #expect(packets.count == 90 && packets.allSatisfy { $0.pts == $0.dts })
        let hasBFrames = try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream=has_b_frames", "-of", "csv=p=0", ordered])
        #expect(hasBFrames.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ordered))
        #expect(bytes.range(of: Data("elst".utf8)) == nil, "an edit list in a movie without reordering")
        #expect(try Judge.frames(of: ordered).first?.pts == 0)
    }

    @Test(arguments: [
        ("h264", "baseline", "3.1", "Constrained Baseline", "31"), ("h264", "main", "4", "Main", "40"),
        ("h264", "high10", "5.1", "High 10", "51"), ("hevc", "main10", "4.1", "Main 10", "123"),
        ("hevc", "main", "3", "Main", "90"), ("av1", "main", "4", "Main", "8"),
    ])
    func profileAndLevelAreWhatFFprobeReads(
        codec: String, profile: String, level: String, expectedProfile: String, expectedLevel: String
    ) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(dir, count: 30)
        let movie = dir.path("out.mp4")
        try Self.encode([frames, "-o", movie, "--codec", codec, "--profile", profile, "--level", level])
        let probed = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=profile,level,pix_fmt", "-of",
                "default=nw=1", movie,
            ])
        #expect(probed.stdout.contains("profile=\(expectedProfile)\n"), "\(probed.stdout)")
        #expect(probed.stdout.contains("level=\(expectedLevel)\n"), "\(probed.stdout)")
        #expect(
            probed.stdout.contains(profile.hasSuffix("10") ? "yuv420p10le" : "pix_fmt=yuv420p\n"), "\(probed.stdout)")
        if profile == "baseline" {
            #expect(try Judge.packets(of: movie).allSatisfy { $0.pts == $0.dts })
        }
    }

    @Test func tuneAndEncoderParametersReachTheEncoder() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(dir, count: 10)
        let plain = dir.path("plain.mp4")
        let tuned = dir.path("tuned.mp4")
        try Self.encode([frames, "-o", plain])
        try Self.encode([frames, "-o", tuned, "--tune", "stillimage", "--encoder-params", "aq-mode=3:ref=2"])
        func settings(_ movie: String) throws -> String {
            try ExternalTool.run("mediainfo", ["--Inform=Video;%Encoded_Library_Settings%", movie]).stdout
        }
        // x264's stillimage tune: deblocking -3:-3 and psy-rd 2.0; then the parameters given.
        let tunedSettings = try settings(tuned)
        #expect(tunedSettings.contains("deblock=1:-3:-3") && tunedSettings.contains("psy_rd=2.00"), "\(tunedSettings)")
        #expect(tunedSettings.contains("aq=3:") && tunedSettings.contains("ref=2 "), "\(tunedSettings)")
        #expect(!(try settings(plain)).contains("aq=3:"))
    }

    @Test func badChoicesAreUsageErrors() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(dir, count: 3)
        let movie = dir.path("out.mp4")
        let cases: [([String], String)] = [
            (
                ["--level", "1", "--size", "1920x1080"],
                "--level 1 of h264 holds pictures of at most 25344 luma samples"
            ),
            (["--level", "3.9"], "--level 3.9 is not a level of h264"),
            (["--level", "x"], "--level x is not a level"),
            (["--codec", "hevc", "--tune", "stillimage"], "--tune stillimage is not available for hevc"),
            (["--tune", "cartoon"], "--tune cartoon is not available for h264"),
            (
                ["--profile", "main10"],
                "--profile main10 is not available for h264; use baseline, main, high or high10."
            ),
            (
                ["--profile", "ultra"],
                "--profile ultra is not a profile of h264; h264 takes baseline, main, high or high10."
            ),
            (["--profile", "high10", "--bit-depth", "8"], "--profile high10 is 10-bit, and the bit depth is 8"),
            (["--keyint", "0"], "--keyint 0 is not an interval"),
            (["--codec", "av1", "--keyint", "1"], "--keyint 1 is out of range for av1; use 2 to 100000 frames"),
            (["--bframes", "9"], "--bframes 9 is out of range for h264; use 0 to 8"),
            (["--bframes", "2", "--profile", "baseline"], "--bframes 2 is not available in profile baseline"),
            (["--codec", "av1", "--bframes", "0", "--bitrate", "1M"], "--bframes 0 goes with a CRF only for av1"),
            (["--profile", "high", "--crf", "0"], "--profile high cannot code losslessly"),
            (["--encoder-params", "annexb=1"], "--encoder-params: the encoder parameter annexb is Flipbook's to set"),
            (["--encoder-params", "keyint=10"], "the encoder parameter keyint is Flipbook's to set; use --keyint"),
            (["--codec", "av1", "--bframes", "2"], "--bframes 2 is out of range for av1; use only 0"),
            (["--encoder-params", "nonsense=1"], "--encoder-params: x264 does not know the parameter nonsense"),
            (["--encoder-params", "ref=many"], "--encoder-params: x264 does not take ref=many"),
            (["--codec", "hevc", "--encoder-params", "nonsense=1"], "x265 does not know the parameter nonsense"),
            (["--encoder-params", "novalue"], "--encoder-params novalue is not a list of key=value pairs"),
        ]
        for (arguments, message) in cases {
            let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
        // A slideshow's rate is one image a --duration: 160x120 at 10 images a second fits level 1
        // (380160 luma samples a second), as 30 would not.
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--level", "1", "--duration", "0.1", "--size", "160x120"])
        #expect(result.status == 0, "\(result.stderr)")
        let level = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=level", "-of", "csv=p=0", movie])
        #expect(level.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "10")
        let fast = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", dir.path("fast.mp4"), "--level", "1", "--size", "160x120"])
        #expect(fast.status == 2 && fast.stderr.contains("--level 1 of h264 holds at most 380160"), "\(fast.stderr)")
    }

    /// A level that cannot hold the first image's size is the same usage error as one that cannot hold
    /// `--size`: exit 2, one line, nothing written and an existing movie left as it was.
    @Test func aLevelTooSmallForTheFirstImageIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 640, height: 360, into: frames)
        let movie = dir.path("out.mp4")
        let old = Data("an older movie".utf8)
        try old.write(to: URL(fileURLWithPath: movie))
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--level", "1", "--overwrite"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.contains("level 1 of h264 holds pictures of at most 25344 luma samples"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: movie)) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("")).sorted() == ["frames", "out.mp4"])
    }
}
