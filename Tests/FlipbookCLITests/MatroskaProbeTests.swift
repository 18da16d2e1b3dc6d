import FlipbookTestSupport
import Foundation
import Testing

/// `flipbook probe` on WebM and Matroska files agrees with ffprobe and mkvmerge, finished or killed.
@Suite struct MatroskaProbeTests {
    func probe(_ movie: String) throws -> [String: Any] {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// ffprobe's figures of the first stream of `kind` (`v` or `a`), with packets counted.
    func ffprobe(_ movie: String, stream kind: String) throws -> [String: Any] {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "\(kind):0", "-count_packets", "-show_entries",
                "stream=codec_name,width,height,r_frame_rate,nb_read_packets,sample_rate,channels", "-of", "json",
                movie,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require((object["streams"] as? [[String: Any]])?.first, "\(movie) has a stream \(kind)")
    }

    /// mkvmerge's identification of the file: its container's duration in nanoseconds and its tracks.
    func mkvmerge(_ movie: String) throws -> (duration: Int, tracks: [[String: Any]]) {
        let result = try ExternalTool.run("mkvmerge", ["-J", movie])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((object["errors"] as? [Any])?.isEmpty == true, "\(movie): \(result.stdout)")
        let properties = (object["container"] as? [String: Any])?["properties"] as? [String: Any]
        return (properties?["duration"] as? Int ?? -1, object["tracks"] as? [[String: Any]] ?? [])
    }

    func expectAgreement(_ movie: String) throws {
        let probed = try probe(movie)
        let video = try ffprobe(movie, stream: "v")
        #expect(probed["codec"] as? String == video["codec_name"] as? String)
        #expect(probed["width"] as? Int == video["width"] as? Int)
        #expect(probed["height"] as? Int == video["height"] as? Int)
        #expect("\(probed["frames"] ?? "none")" == "\(video["nb_read_packets"] ?? "")")
        let duration = try #require(Double(try Judge.formatDuration(of: movie)))
        #expect(abs((probed["duration"] as? Double ?? -1) - duration) < 0.0005, "\(movie): \(probed) vs \(duration)")
        #expect(
            (probed["frameRate"] as? String).map { $0.contains("/") ? $0 : "\($0)/1" } == video["r_frame_rate"]
                as? String)
        #expect((probed["problems"] as? [String]) == [], "\(probed)")
        #expect(probed["layout"] as? String == "cues at end")
        let identified = try mkvmerge(movie)
        #expect(abs(Double(identified.duration) / 1e9 - (probed["duration"] as? Double ?? -1)) < 0.0005)
        let pixels = identified.tracks.first { $0["type"] as? String == "video" }?["properties"] as? [String: Any]
        #expect(pixels?["pixel_dimensions"] as? String == "\(probed["width"] ?? 0)x\(probed["height"] ?? 0)")
    }

    @Test func agreesWithFFprobeAndMkvmergeOnFlipbookMovies() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 45, width: 128, height: 72, into: frames)
        let sound = dir.path("tone.wav")
        try AudioJudge.makeSound(sound, source: "sine=frequency=440:sample_rate=48000:duration=2", ["-ac", "2"])
        for (name, extra) in [
            ("a.mkv", ["--fps", "29.97", "--bframes", "3"]), ("b.webm", ["--codec", "av1"]),
            ("c.mkv", ["--audio", sound, "--title", "Probed", "--artist", "Flipbook"]),
            ("d.webm", ["--codec", "av1", "--audio", sound, "--fps", "24"]),
        ] {
            let movie = dir.path(name)
            let made = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "-q"] + extra)
            #expect(made.status == 0, "\(made.stderr)")
            try expectAgreement(movie)
        }
        let a = try probe(dir.path("a.mkv"))
        #expect(a["frameRate"] as? String == "30000/1001")
        #expect(a["majorBrand"] as? String == "matroska")
        #expect(a["profile"] as? String == "High")
        #expect(try probe(dir.path("b.webm"))["majorBrand"] as? String == "webm")
        for (name, codec) in [("c.mkv", "aac"), ("d.webm", "opus")] {
            let probed = try probe(dir.path(name))
            let audio = try #require(probed["audio"] as? [String: Any], "\(name) has sound")
            let judged = try ffprobe(dir.path(name), stream: "a")
            #expect(audio["codec"] as? String == codec)
            #expect(audio["codec"] as? String == judged["codec_name"] as? String)
            #expect("\(audio["sampleRate"] ?? 0)" == judged["sample_rate"] as? String)
            #expect(audio["channels"] as? Int == judged["channels"] as? Int)
            let duration = try #require(probed["duration"] as? Double)
            #expect(abs((audio["duration"] as? Double ?? 0) - duration) < 0.001, "the sound lasts the pictures' length")
        }
        let tagged = try #require(try probe(dir.path("c.mkv"))["metadata"] as? [String: String])
        #expect(tagged["title"] == "Probed")
        #expect(tagged["artist"] == "Flipbook")
    }

    @Test func agreesWithFFprobeOnAnFFmpegMatroskaMovie() throws {
        let dir = try TemporaryDirectory()
        let movie = dir.path("ffmpeg.mkv")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=176x144:rate=25", "-frames:v", "37", "-c:v",
                "libx264", "-pix_fmt", "yuv420p", movie,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        try expectAgreement(movie)
        #expect(try probe(movie)["timescale"] as? Int == 1000, "ffmpeg's millisecond ticks")
    }

    /// `kill -9` in the middle of a fragmented Matroska encode: probe says what the file holds, as
    /// many frames as ffprobe reads, and that it was not finished.
    @Test func saysWhatAKilledFragmentedMovieHolds() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 400, width: 320, height: 240, into: frames)
        let output = dir.path("live.mkv")
        let process = try InterruptTests.start(
            [frames, "-o", output, "--fragmented", "--fragment-duration", "0.5", "--preset", "slower"])
        try InterruptTests.waitUntil {
            guard let path = InterruptTests.temporaryFile(in: dir, for: "live.mkv") else { return !process.isRunning }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return size > 60_000 || !process.isRunning
        }
        #expect(process.isRunning, "the encode must still be running when it is killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try #require(InterruptTests.temporaryFile(in: dir, for: "live.mkv"))
        let probed = try probe(partial)
        #expect(probed["layout"] as? String == "unfinished")
        #expect((probed["problems"] as? [String])?.contains { $0.contains("not finished") } == true, "\(probed)")
        let video = try ffprobe(partial, stream: "v")
        let count = try #require(probed["frames"] as? Int)
        #expect(count > 0)
        #expect("\(count)" == "\(video["nb_read_packets"] ?? "")", "the frames ffprobe reads")
        #expect(abs((probed["duration"] as? Double ?? 0) - Double(count) / 30) < 0.001, "\(probed)")
    }

    @Test func anUnreadableMatroskaFileIsOneLineNamingIt() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 10, width: 64, height: 64, into: frames)
        let movie = dir.path("whole.webm")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "-q"]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: movie))
        let cut = dir.path("cut.webm")
        try bytes.prefix(120).write(to: URL(fileURLWithPath: cut))
        let garbage = dir.path("garbage.mkv")
        try Data([0x1A, 0x45, 0xDF, 0xA3, 0x00, 0x00]).write(to: URL(fileURLWithPath: garbage))
        for path in [cut, garbage] {
            let result = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", path])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(path) && result.stderr.contains("not a readable Matroska or WebM movie"))
        }
    }
}
