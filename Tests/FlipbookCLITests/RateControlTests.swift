import FlipbookTestSupport
import Foundation
import Testing

/// `--bitrate`, `--two-pass`, `--target-size`, `--max-bitrate` with `--buffer-size`, judged by ffprobe:
/// the video stream's average from every packet's size, the file's size on disk, and a leaky-bucket
/// simulation of the packets' sizes at their decode times.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
        "long two-pass and target-size encodes are the encoders' own work; RateControlSettingsTests checks Flipbook's side"
    ))
struct RateControlTests {
    static let codecs = ["h264", "hevc", "av1"]

    /// 300 frames (10 s at 30 fps) of ffmpeg's moving test pattern at 480x270.
    static func frames(in dir: TemporaryDirectory) throws -> String {
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 300, width: 480, height: 270, into: frames)
        return frames
    }

    static func encode(_ arguments: [String], environment: [String: String]? = nil) throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-q"], environment: environment)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    @Test(arguments: codecs)
    func onePassLandsWithinTenPercentOfTheRate(codec: String) throws {
        let dir = try TemporaryDirectory()
        let movie = dir.path("one.mp4")
        try Self.encode([
            try Self.frames(in: dir), "-o", movie, "--codec", codec, "--bitrate", "400k", "--preset", "veryfast",
        ])
        let rate = try RateJudge.videoBitrate(of: movie)
        #expect(abs(rate / 400_000 - 1) <= 0.10, "\(codec): \(Int(rate)) b/s for 400k")
    }

    @Test(arguments: ["h264", "hevc"])
    func twoPassesLandWithinThreePercentAndLeaveNoStatistics(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let temporary = try dir.folder("tmp")
        let movie = dir.path("two.mp4")
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary
        try Self.encode(
            [frames, "-o", movie, "--codec", codec, "--bitrate", "400k", "--two-pass", "--preset", "veryfast"],
            environment: environment)
        let rate = try RateJudge.videoBitrate(of: movie)
        #expect(abs(rate / 400_000 - 1) <= 0.03, "\(codec): \(Int(rate)) b/s for 400k in two passes")
        #expect(try Judge.stream(of: movie).frameCount == 300)
        #expect(try Judge.decodeErrors(of: movie) == "")
        // The statistics' private folder beside the movie is gone, and nothing went to $TMPDIR.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
        #expect(dir.entries() == ["frames", "tmp", "two.mp4"])
    }

    /// A 10 s movie and a 3-image slideshow of 9 s, each with and without sound: the file at or under
    /// the size and at least 95% of it (90% for AV1's slideshow).
    @Test(arguments: codecs, [false, true])
    func targetSizeLandsAtOrJustUnder(codec: String, withSound: Bool) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let stills = try dir.folder("stills")
        try SampleImages.write(count: 3, width: 960, height: 540, into: stills)
        let sound = dir.path("song.wav")
        try AudioJudge.makeSound(sound, source: "sine=frequency=440:duration=12:sample_rate=48000", ["-ac", "2"])
        // The sound (AAC at 160 kb/s, about 20 kB a second) comes on top of the pictures' share.
        let audio = withSound ? ["--audio", sound] : []
        let soundShare = withSound ? 200_000 : 0
        for (name, inputs, target) in [
            ("movie", [frames], 300_000 + soundShare),
            ("slideshow", [stills, "--duration", "3"], 100_000 + soundShare),
        ] {
            let movie = dir.path("\(name).mp4")
            try Self.encode(
                inputs + ["-o", movie, "--codec", codec, "--target-size", String(target), "--preset", "veryfast"]
                    + audio)
            let bytes = try FileManager.default.attributesOfItem(atPath: movie)[.size] as! Int
            // AV1 at its best quality (CRF 1) keeps these three pictures with sound under 95% of the size.
            let least = codec == "av1" && name == "slideshow" ? 0.90 : 0.95
            #expect(
                bytes <= target && Double(bytes) >= least * Double(target), "\(codec) \(name): \(bytes) of \(target)")
            #expect(try Judge.decodeErrors(of: movie) == "")
        }
    }

    @Test(arguments: ["h264", "hevc"])
    func aCappedRateNeverEmptiesTheBuffer(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let capped = dir.path("capped.mp4")
        let free = dir.path("free.mp4")
        let quality = ["--codec", codec, "--crf", "12", "--preset", "veryfast"]
        try Self.encode([frames, "-o", capped] + quality + ["--max-bitrate", "600k", "--buffer-size", "600k"])
        try Self.encode([frames, "-o", free] + quality)
        #expect(try RateJudge.lowestBufferLevel(of: capped, rate: 600_000, buffer: 600_000) >= 0)
        // The same pictures without the cap overflow such a buffer: the simulation can fail.
        #expect(try RateJudge.lowestBufferLevel(of: free, rate: 600_000, buffer: 600_000) < 0)
    }

    /// A size the sound alone fills: an error naming the movie, and an existing file left as it was.
    @Test func aSizeThatCannotHoldThePicturesLeavesTheOldMovie() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 30, width: 160, height: 120, into: frames)
        let sound = dir.path("song.wav")
        try AudioJudge.makeSound(sound, source: "sine=frequency=440:duration=2:sample_rate=48000", ["-ac", "2"])
        let movie = dir.path("out.mp4")
        let old = Data("an older movie".utf8)
        try old.write(to: URL(fileURLWithPath: movie))
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--target-size", "10k", "--audio", sound, "--overwrite"])
        // A target the sound alone fills is a usage error, as a size that cannot hold the frames is.
        #expect(result.status == 2)
        #expect(result.stderr.contains("leaves no room for the pictures"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: movie)) == old)
        #expect(
            dir.entries() == [
                "frames", "out.mp4", "song.wav",
            ])
    }

    /// `--level` without a cap keeps x264's stream within the level's rate and buffer (1.3: 768 kb/s, 2000 kbit).
    @Test func aLevelKeepsTheRateWithinItsBuffer() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        // Grainy pictures, which CRF 8 codes at about 13 Mb/s: far past the level without its buffer.
        let grain = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-vf", "noise=alls=30:allf=t",
                "-frames:v", "150", "-pix_fmt", "rgb24", "\(frames)/frame%03d.png",
            ])
        #expect(grain.status == 0, "\(grain.stderr)")
        let levelled = dir.path("levelled.mp4")
        let free = dir.path("free.mp4")
        try Self.encode([frames, "-o", levelled, "--crf", "8", "--profile", "main", "--level", "1.3"])
        try Self.encode([frames, "-o", free, "--crf", "8", "--profile", "main"])
        #expect(try RateJudge.lowestBufferLevel(of: levelled, rate: 768_000, buffer: 2_000_000) >= 0)
        #expect(try RateJudge.lowestBufferLevel(of: free, rate: 768_000, buffer: 2_000_000) < 0)
    }

    @Test func badRatesAndSizesAreUsageErrors() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 64, height: 64, into: frames)
        let movie = dir.path("out.mp4")
        let cases: [([String], String)] = [
            (["--bitrate", "0"], "--bitrate 0 is out of range; use 1k to 1000M."),
            (["--bitrate", "fast"], "--bitrate fast is not a rate"),
            (["--target-size", "8 parsecs"], "--target-size 8 parsecs is not a size"),
            (["--target-size", "1k"], "--target-size 1000 bytes is too small for any movie"),
            (["--two-pass"], "--two-pass needs --bitrate RATE"),
            (["--crf", "20", "--bitrate", "1M"], "--crf and --bitrate cannot be used together"),
            (["--max-bitrate", "1M"], "--max-bitrate needs --buffer-size"),
            (
                ["--bitrate", "2M", "--max-bitrate", "1M", "--buffer-size", "2M"],
                "--bitrate 2M is above the max bitrate 1M"
            ),
            (["--codec", "prores", "--bitrate", "1M"], "--bitrate: prores has no rate control"),
            (["--follow", "--bitrate", "1M", "--two-pass"], "--two-pass encodes the images twice"),
            (
                ["--codec", "av1", "--bitrate", "1M", "--two-pass"],
                "--bitrate 1M in two passes is not available for av1"
            ),
        ]
        for (arguments, message) in cases {
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath,
                [
                    frames, "-o",
                    movie.replacingOccurrences(of: ".mp4", with: arguments.contains("prores") ? ".mov" : ".mp4"),
                ] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
        // A minute of 4K frames cannot fit in 100 kB: said before any image is decoded.
        let many = try dir.folder("many")
        for index in 1...1800 {
            _ = FileManager.default.createFile(
                atPath: "\(many)/f\(String(format: "%04d", index)).png", contents: Data())
        }
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [many, "-o", movie, "--target-size", "10k"])
        #expect(
            result.status == 2 && result.stderr.contains("--target-size 10000 bytes cannot hold 1800 frames"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
    }
}

/// Rates judged from ffprobe's packets.
enum RateJudge {
    /// Each video packet's size in bytes and decode time in seconds, in decode order.
    static func packets(of movie: String) throws -> [(size: Int, time: Double)] {
        let result = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size,dts_time", "-of", "csv=p=0", movie])
        guard result.status == 0 else { throw JudgeError(description: "ffprobe: \(result.stderr)") }
        return try result.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]), let size = Int(fields[1]) else {
                throw JudgeError(description: "ffprobe gave a packet line without a time and a size: \(line)")
            }
            return (size, time)
        }
    }

    /// The video stream's bytes over its duration, in bits a second.
    static func videoBitrate(of movie: String) throws -> Double {
        let bytes = try packets(of: movie).reduce(0) { $0 + $1.size }
        let duration = try #require(Double(try Judge.stream(of: movie).duration))
        return Double(bytes) * 8 / duration
    }

    /// The lowest level of a decoder's buffer of `buffer` bits filled at `rate` bits a second (from 90%
    /// full, as x264 and x265 start it, and never past full), each packet taking its bits out at its
    /// decode time: negative when the buffer underflows.
    static func lowestBufferLevel(of movie: String, rate: Double, buffer: Double) throws -> Double {
        var level = 0.9 * buffer
        var lowest = level
        var last: Double?
        for packet in try packets(of: movie) {
            if let last { level = min(buffer, level + rate * (packet.time - last)) }
            last = packet.time
            level -= Double(packet.size * 8)
            lowest = min(lowest, level)
        }
        return lowest
    }
}
