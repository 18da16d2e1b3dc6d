import FlipbookTestSupport
import Foundation
import Testing

/// `flipbook probe` agrees with ffprobe, on Flipbook's movies and on other tools'.
@Suite struct ProbeTests {
    func probe(_ movie: String) throws -> [String: Any] {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func rFrameRate(_ movie: String) throws -> String {
        try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate", "-of", "csv=p=0", movie]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func expectAgreement(_ movie: String, layout: String) throws {
        let probed = try probe(movie)
        let stream = try Judge.stream(of: movie)
        #expect(probed["codec"] as? String == stream.codecName)
        #expect(probed["profile"] as? String == stream.profile)
        #expect(probed["width"] as? Int == stream.width)
        #expect(probed["height"] as? Int == stream.height)
        #expect(probed["frames"] as? Int == stream.frameCount)
        let duration = try #require(Double(try Judge.formatDuration(of: movie)))
        #expect(abs((probed["duration"] as? Double ?? -1) - duration) < 0.0005, "\(movie): \(probed) vs \(duration)")
        let rate = try rFrameRate(movie)
        #expect((probed["frameRate"] as? String).map { $0.contains("/") ? $0 : "\($0)/1" } == rate)
        #expect(probed["layout"] as? String == layout)
        #expect((probed["problems"] as? [String])?.isEmpty == true)
        if probed["colourPrimaries"] != nil {
            #expect(probed["colourPrimaries"] as? String == stream.colorPrimaries)
            #expect(probed["colourTransfer"] as? String == stream.colorTransfer)
            #expect(probed["colourMatrix"] as? String == stream.colorSpace)
        }
    }

    @Test func agreesWithFFprobeOnFlipbookMovies() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 20, width: 128, height: 72, into: frames)
        for (name, extra) in [("a.mp4", ["--fps", "29.97"]), ("b.mov", [])] {
            let movie = dir.path(name)
            #expect(try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "-q"] + extra).status == 0)
            try expectAgreement(movie, layout: "faststart")
        }
        let probed = try probe(dir.path("a.mp4"))
        #expect(probed["colourRange"] as? String == "tv")
        #expect(probed["frameRate"] as? String == "30000/1001")
    }

    @Test(arguments: ["mp4", "mov"])
    func agreesWithFFprobeOnFFmpegMovies(container: String) throws {
        let dir = try TemporaryDirectory()
        let movie = dir.path("ffmpeg.\(container)")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=176x144:rate=25", "-frames:v", "37", "-c:v",
                "libx264",
                "-pix_fmt", "yuv420p", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                movie,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        try expectAgreement(movie, layout: "index at end")
        let fragmented = dir.path("fragmented.mp4")
        let fragmentedMade = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-i", movie, "-c", "copy", "-movflags", "frag_keyframe+empty_moov", fragmented])
        #expect(fragmentedMade.status == 0)
        let probed = try probe(fragmented)
        #expect(probed["layout"] as? String == "fragmented")
        #expect(probed["frames"] as? Int == 37)
    }

    @Test func malformedFilesGiveAnErrorNotACrash() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 5, width: 64, height: 64, into: frames)
        let movie = dir.path("good.mp4")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "-q"]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: movie))
        var generator = SystemRandomNumberGenerator()
        var samples: [Data] = [
            Data(), Data("not a movie at all".utf8), bytes.prefix(20), bytes.prefix(bytes.count / 3),
        ]
        for _ in 0..<20 {
            var damaged = bytes
            for _ in 0..<8 {
                damaged[Int.random(in: 0..<min(damaged.count, 2000), using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            samples.append(damaged)
        }
        for (index, sample) in samples.enumerated() {
            let path = dir.path("bad-\(index).mp4")
            try sample.write(to: URL(fileURLWithPath: path))
            let result = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", path])
            #expect(
                result.status == 0 || result.status == 1,
                "probe of sample \(index) exited \(result.status): \(result.stderr)")
            if result.status == 1 { #expect(result.stderr.contains(path)) }
        }
    }
}
