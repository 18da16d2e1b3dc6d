import FlipbookTestSupport
import Foundation
import Testing

/// The tool's output options, each judged from outside: ffprobe for the stream and container,
/// ffmpeg's decoded RGB for the pixels, MediaInfo for where the colour tags were read from.
@Suite struct OutputOptionTests {
    /// An 8-bit RGB PNG of `width`x`height` whose pixel at (x, y) is `colour(x, y)`.
    static func writeImage(
        _ path: String, width: Int, height: Int, colour: (_ x: Int, _ y: Int) -> [Int]
    ) throws {
        var samples: [Int] = []
        samples.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width { samples += colour(x, y) }
        }
        try TestPNG.encode(width: width, height: height, colourType: 2, bitDepth: 8, samples: samples)
            .write(to: URL(fileURLWithPath: path))
    }

    /// The decoded RGB of pixel (x, y) in a frame `width` pixels wide.
    static func rgb(_ frame: [UInt8], width: Int, _ x: Int, _ y: Int) -> [Int] {
        let offset = (y * width + x) * 3
        return frame[offset..<offset + 3].map(Int.init)
    }

    static func distance(_ a: [Int], _ b: [Int]) -> Int {
        zip(a, b).map { abs($0 - $1) }.max() ?? .max
    }

    /// Runs the tool and returns the only decoded frame of the movie, after ffmpeg decoded it cleanly.
    static func encodeOneImage(_ image: String, to movie: String, _ options: [String]) throws -> [UInt8] {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [image, "-o", movie, "-q"] + options)
        guard result.status == 0 else { throw JudgeError(description: "flipbook failed: \(result.stderr)") }
        #expect(try Judge.decodeErrors(of: movie) == "")
        let decoded = try Judge.decodedRGB(of: movie)
        try #require(decoded.frames.count == 1)
        return decoded.frames[0]
    }

    static let red = [255, 0, 0]
    static let green = [0, 255, 0]
    static let blue = [0, 0, 255]
    static let white = [255, 255, 255]

    /// A 600x200 image (red, a wide green middle with a white stripe at its centre, blue) covers a
    /// 128x128 movie: scaled by 0.64 to 384x128 and cropped to the centre 128 columns, which are
    /// source columns 200..<400. No red, blue or black band shows; the stripe is in the middle.
    @Test func coverFillsASquareMovieWithTheCentreOfAWideImage() throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("wide.png")
        try Self.writeImage(image, width: 600, height: 200) { x, _ in
            x < 150 ? Self.red : x >= 450 ? Self.blue : (290..<310).contains(x) ? Self.white : Self.green
        }
        let frame = try Self.encodeOneImage(
            image, to: dir.path("cover.mp4"), ["--size", "128x128", "--fit", "cover", "--crf", "0"])
        #expect(try Judge.stream(of: dir.path("cover.mp4")).width == 128)

        // The stripe lands on output columns 57.6..<70.4; every other pixel is green, edges included.
        var wrong: [String] = []
        for y in stride(from: 0, to: 128, by: 3) {
            for x in [0, 1, 2, 10, 30, 50, 75, 90, 110, 125, 126, 127] {
                let seen = Self.rgb(frame, width: 128, x, y)
                if Self.distance(seen, Self.green) > 8 { wrong.append("(\(x),\(y)) \(seen)") }
            }
            for x in [61, 64, 67] {
                let seen = Self.rgb(frame, width: 128, x, y)
                if Self.distance(seen, Self.white) > 8 { wrong.append("stripe (\(x),\(y)) \(seen)") }
            }
        }
        #expect(wrong.isEmpty, "pixels that are not the centre crop's: \(wrong.prefix(10))")
    }

    /// A 400x100 image of four coloured quarters stretched to 128x128 keeps each quarter in its
    /// corner of the movie, filling it to the edges.
    @Test func stretchSqueezesTheWholeImageSoItsCornersStayAtTheCorners() throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("quarters.png")
        try Self.writeImage(image, width: 400, height: 100) { x, y in
            switch (x < 200, y < 50) {
            case (true, true): Self.red
            case (false, true): Self.green
            case (true, false): Self.blue
            case (false, false): Self.white
            }
        }
        let frame = try Self.encodeOneImage(
            image, to: dir.path("stretch.mp4"), ["--size", "128x128", "--fit", "stretch", "--crf", "0"])
        let points: [(x: Int, y: Int, colour: [Int])] = [
            (0, 0, Self.red), (32, 32, Self.red), (60, 60, Self.red),
            (127, 0, Self.green), (96, 32, Self.green), (67, 60, Self.green),
            (0, 127, Self.blue), (32, 96, Self.blue), (60, 67, Self.blue),
            (127, 127, Self.white), (96, 96, Self.white), (67, 67, Self.white),
        ]
        for point in points {
            let seen = Self.rgb(frame, width: 128, point.x, point.y)
            #expect(
                Self.distance(seen, point.colour) <= 8, "(\(point.x),\(point.y)): \(seen), expected \(point.colour)")
        }
    }

    /// Flat patches come back within 2 levels of the source through the chosen matrix and range,
    /// and ffprobe reads the tags the tool was asked for; MediaInfo says the container's `colr` and
    /// the stream's VUI agree.
    @Test(arguments: [
        ("bt601", "limited", "smpte170m", "tv"),
        ("bt709", "full", "bt709", "pc"),
        ("bt601", "full", "smpte170m", "pc"),
    ])
    func colourStandardAndRangeAreTaggedAndDecodeToTheSourceColours(
        standard: String, range: String, ffprobeName: String, ffprobeRange: String
    ) throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("patches.png")
        let patches = [
            [200, 40, 40], [40, 180, 90], [60, 70, 220], [128, 128, 128], [250, 220, 30], [20, 20, 20],
        ]
        // Six 32x32 patches in a 96x64 image, 2x2-aligned so 4:2:0 chroma never straddles two.
        try Self.writeImage(image, width: 96, height: 64) { x, y in patches[(y / 32) * 3 + x / 32] }
        let movie = dir.path("\(standard)-\(range).mp4")
        let frame = try Self.encodeOneImage(
            image, to: movie, ["--colour", standard, "--range", range, "--crf", "0", "--preset", "ultrafast"])

        let stream = try Judge.stream(of: movie)
        #expect(stream.colorSpace == ffprobeName)
        #expect(stream.colorPrimaries == ffprobeName)
        #expect(stream.colorTransfer == (standard == "bt601" ? "smpte170m" : "bt709"))
        #expect(stream.colorRange == ffprobeRange)

        let general = try ExternalTool.run("mediainfo", ["--Output=JSON", movie])
        let object = try JSONSerialization.jsonObject(with: Data(general.stdout.utf8)) as? [String: Any]
        let tracks = (object?["media"] as? [String: Any])?["track"] as? [[String: Any]] ?? []
        let video = try #require(tracks.first { $0["@type"] as? String == "Video" }, "\(general.stderr)")
        #expect(
            video["colour_description_present_Source"] as? String == "Container / Stream",
            "colr and VUI both present and equal: \(video)")
        #expect(video["colour_primaries_Original"] == nil, "colr and VUI disagree: \(video)")
        #expect(video["colour_range"] as? String == (range == "full" ? "Full" : "Limited"))

        var worst = 0
        for (index, patch) in patches.enumerated() {
            let centre = (x: (index % 3) * 32 + 16, y: (index / 3) * 32 + 16)
            for (dx, dy) in [(0, 0), (-8, -8), (7, 7), (-8, 7)] {
                let seen = Self.rgb(frame, width: 96, centre.x + dx, centre.y + dy)
                worst = max(worst, Self.distance(seen, patch))
                #expect(Self.distance(seen, patch) <= 2, "patch \(patch) at \(centre): \(seen)")
            }
        }
        print("\(standard) \(range): worst flat-patch error \(worst) levels")
    }

    /// Every way of writing `--fps` that the help names gives the exact rational rate: ffprobe reads
    /// it back, and frame i starts at exactly i / fps in the stream's time base.
    @Test(arguments: [
        ("25", 25, 1), ("12.5", 25, 2), ("23.976", 24000, 1001), ("59.94", 60000, 1001), ("24000/1001", 24000, 1001),
    ])
    func everyFrameRateSpellingIsExact(fps: String, numerator: Int64, denominator: Int64) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 6, width: 32, height: 32, into: frames)
        let movie = dir.path("rate.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--fps", fps, "--preset", "ultrafast", "-q"])
        #expect(result.status == 0, "\(result.stderr)")

        let rates = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate,avg_frame_rate",
                "-of", "csv=p=0", movie,
            ])
        #expect(rates.stdout == "\(numerator)/\(denominator),\(numerator)/\(denominator)\n", "\(fps): \(rates.stdout)")
        let stream = try Judge.stream(of: movie)
        let timeBase = stream.timeBase.split(separator: "/").compactMap { Int64($0) }
        try #require(timeBase.count == 2, "\(stream.timeBase)")
        let decoded = try Judge.frames(of: movie)
        #expect(decoded.count == 6)
        for (index, frame) in decoded.enumerated() {
            // pts * tb_num / tb_den == index * denominator / numerator, in integers.
            #expect(
                frame.pts * timeBase[0] * numerator == Int64(index) * denominator * timeBase[1],
                "\(fps): frame \(index) at \(frame.pts) in \(stream.timeBase)")
        }
    }

    @Test func anM4VOutputIsAnAppleMP4ThatPlays() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 12, width: 96, height: 64, into: frames)
        let movie = dir.path("clip.m4v")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "-q"])
        #expect(result.status == 0, "\(result.stderr)")

        let format = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "format=format_name:format_tags=major_brand,compatible_brands",
                "-of", "default=nw=1", movie,
            ])
        #expect(format.status == 0, "\(format.stderr)")
        #expect(format.stdout.contains("format_name=mov,mp4,m4a,3gp,3g2,mj2"), "\(format.stdout)")
        #expect(format.stdout.contains("TAG:major_brand=M4V "), "\(format.stdout)")
        #expect(format.stdout.contains("TAG:compatible_brands=M4V M4A mp42isom"), "\(format.stdout)")
        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == "h264" && stream.frameCount == 12)
        #expect(try Judge.decodeErrors(of: movie) == "")
        #expect(try Judge.formatDuration(of: movie) == "0.400000")
    }

    @Test func codecH264IsAcceptedAndAnUnknownCodecIsAUsageErrorThatWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 6, width: 64, height: 64, into: frames)

        let movie = dir.path("h264.mp4")
        let accepted = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--codec", "h264", "-q"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stderr.isEmpty)
        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == "h264" && stream.frameCount == 6)

        let refusedPath = dir.path("vp8.mp4")
        let refused = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", refusedPath, "--codec", "vp8"])
        #expect(refused.status == 2, "a mistake on the command line: \(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && refused.stderr.contains("--codec vp8"), "\(refused.stderr)")
        #expect(dir.entries() == ["frames", "h264.mp4"], "nothing written, hidden or not")
    }
}
