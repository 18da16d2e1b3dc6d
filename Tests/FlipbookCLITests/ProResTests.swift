import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

/// What is ProRes's own in `--codec prores` (libavcodec's prores_ks in a QuickTime movie), judged from
/// outside: ffprobe for the profile, pixel format, depth, colour and every packet a keyframe; ffmpeg's
/// own prores_ks on the same frames as the reference for what each profile is (``ProResAgainstFFmpegTests``); MediaInfo for the
/// sample entry and scan type; ffmpeg's decode for the pictures and the alpha channel. What ProRes
/// shares with the other codecs (NTSC and slideshow times, fragments and `kill -9`, joins, probe,
/// following, 16-bit precision) is in ``CodecGuaranteeTests``.
@Suite struct ProResTests {
    /// Each profile: `--profile`, prores_ks's number, ffprobe's name, the sample entry, MediaInfo's name.
    static let profiles: [(name: String, number: Int, probed: String, tag: String, mediaInfo: String)] = [
        ("proxy", 0, "Proxy", "apco", "422 Proxy"), ("lt", 1, "LT", "apcs", "422 LT"),
        ("standard", 2, "Standard", "apcn", "422"), ("hq", 3, "HQ", "apch", "422 HQ"),
        ("4444", 4, "4444", "ap4h", "4444"), ("4444xq", 5, "XQ", "ap4x", "4444 XQ"),
    ]

    static func run(_ arguments: [String]) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.flipbookPath, arguments)
    }

    /// One field of the first video stream as ffprobe reports it.
    static func probe(_ movie: String, _ entry: String) throws -> String {
        try ExternalTool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", entry, "-of", "csv=p=0", movie]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// ffmpeg's prores_ks on the same images, tagged BT.709 as Flipbook converts them: the reference.
    static func reference(
        _ pattern: String, profile: Int, pixelFormat: String, to movie: String
    ) throws {
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-framerate", "30", "-i", pattern, "-vf",
                // prores_ks writes each frame header's colour from the frame, so the tags are set on the
                // frames (ffmpeg's -colorspace output options do not reach them).
                "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd,"
                    + "setparams=colorspace=bt709:color_primaries=bt709:color_trc=bt709:range=tv",
                "-c:v", "prores_ks", "-profile:v", String(profile), "-vendor", "apl0", "-pix_fmt", pixelFormat, movie,
            ])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The bytes of every video packet, as ffprobe lists them.
    static func mediaBytes(of movie: String) throws -> Int {
        try probe(movie, "packet=size").split(separator: "\n").compactMap { Int($0) }.reduce(0, +)
    }

    /// Writes `count` RGBA PNGs of a soft-edged disc moving across a colour ramp (alpha 0 outside, 255
    /// inside, a ramp of every level between), and returns each image's alpha.
    static func softDiscs(count: Int, width: Int, height: Int, into folder: String) throws -> [[UInt8]] {
        var alphas: [[UInt8]] = []
        for index in 0..<count {
            var samples: [Int] = []
            var alpha: [UInt8] = []
            let (cx, cy) = (Double(width) * (0.25 + 0.05 * Double(index)), Double(height) / 2)
            for y in 0..<height {
                for x in 0..<width {
                    let distance = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy))
                        .squareRoot()
                    // Opaque to 30 pixels, transparent past 60, a linear edge between.
                    let a = UInt8(max(0, min(255, (60 - distance) / 30 * 255)).rounded())
                    samples += [x * 255 / width, y * 255 / height, (x + y + index * 9) % 256, Int(a)]
                    alpha.append(a)
                }
            }
            let png = TestPNG.encode(width: width, height: height, colourType: 6, bitDepth: 8, samples: samples)
            try png.write(to: URL(fileURLWithPath: "\(folder)/disc\(String(format: "%02d", index)).png"))
            alphas.append(alpha)
        }
        return alphas
    }

    @Test func alphaIsKeptWithinTwoLevelsAtEveryPixel() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let (width, height) = (160, 120)
        let alphas = try Self.softDiscs(count: 6, width: width, height: height, into: frames)
        let movie = dir.path("alpha.mov")
        let result = try Self.run([frames, "-o", movie, "--codec", "prores", "--alpha", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try Judge.stream(of: movie)
        #expect(stream.profile == "4444", "--alpha chooses 4444")
        #expect(stream.pixelFormat.hasPrefix("yuva444p"), "\(stream.pixelFormat)")
        #expect(try Self.probe(movie, "stream=codec_tag_string") == "ap4h")
        let decoded = try Judge.decodedAlpha(of: movie)
        try #require(decoded.count == 6)
        for (index, (source, movieAlpha)) in zip(alphas, decoded).enumerated() {
            let worst = zip(source, movieAlpha).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 2, "frame \(index): alpha off by \(worst) levels")
        }
        #expect(Set(decoded[0]).count > 100, "the soft edge has its levels")
        let probed = try Self.run(["probe", movie, "--json"])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any])
        #expect(info["hasAlpha"] as? Bool == true && info["profile"] as? String == "4444", "\(probed.stdout)")
        #expect(try Self.run(["probe", movie]).stdout.contains("160x120, with alpha"))

        // Without --alpha the discs are composited over the background: an opaque picture, no alpha plane.
        let flat = dir.path("flat.mov")
        let composited = try Self.run([frames, "-o", flat, "--codec", "prores", "--profile", "4444", "-q"])
        #expect(composited.status == 0, "\(composited.stderr)")
        #expect(try Judge.stream(of: flat).pixelFormat.hasPrefix("yuv444p"))
        #expect(try Self.run(["probe", flat, "--json"]).stdout.contains("\"hasAlpha\":false"))
    }

    /// Images of another size keep their transparency when fitted: the disc scaled down keeps an opaque
    /// centre and transparent corners, and the letterbox bands are transparent.
    @Test func fittedImagesKeepTheirAlphaAndTheBandsAreTransparent() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        _ = try Self.softDiscs(count: 2, width: 160, height: 120, into: frames)
        let movie = dir.path("fitted.mov")
        let result = try Self.run([frames, "-o", movie, "--codec", "prores", "--alpha", "--size", "320x120", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try Judge.decodedAlpha(of: movie)
        try #require(decoded.count == 2)
        // The image is 160x120 in the middle of 320x120: columns 0-79 and 240-319 are bands.
        for row in [0, 60, 119] {
            #expect(decoded[0][row * 320 + 10] <= 2 && decoded[0][row * 320 + 310] <= 2, "band at row \(row)")
        }
        // The first disc is centred at x = 40 of the image (x = 120 of the movie), row 60.
        #expect(decoded[0][60 * 320 + 120] >= 253, "the disc's centre is opaque")
    }

    @Test func rawRGBAFramesOnStandardInputKeepTheirAlpha() throws {
        let dir = try TemporaryDirectory()
        let movie = dir.path("raw.mov")
        // Raw RGBA frames on standard input: the alpha of each is its frame number times 40.
        var bytes: [UInt8] = []
        for frame in 0..<4 {
            for _ in 0..<(64 * 48) { bytes += [200, 100, 50, UInt8(frame * 40 + 15)] }
        }
        _ = try ExternalTool.runForData(
            ExternalTool.flipbookPath, ["-", "--raw-size", "64x48", "-o", movie, "--codec", "prores", "--alpha", "-q"],
            stdin: Data(bytes))
        let decoded = try Judge.decodedAlpha(of: movie)
        #expect(decoded.count == 4)
        for (frame, alpha) in decoded.enumerated() {
            let expected = frame * 40 + 15
            #expect(alpha.allSatisfy { abs(Int($0) - expected) <= 1 }, "frame \(frame): \(Set(alpha)) for \(expected)")
        }
    }

    /// Combinations a codec or container cannot hold are one line naming what can, exit 2, nothing written.
    @Test func combinationsProResCannotHoldAreUsageErrors() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 64, height: 48, into: frames)
        let cases: [(arguments: [String], says: String)] = [
            (
                ["-o", dir.path("a.mp4"), "--codec", "prores"],
                "--codec prores does not go in .mp4 files; name the output .mov, .qt or .mkv"
            ),
            (["-o", dir.path("a.m4v"), "--codec", "prores"], "name the output .mov, .qt or .mkv"),
            (
                ["-o", dir.path("a.mp4"), "--alpha"],
                "alpha is kept only by vp9 (in .webm or .mkv), prores (profile 4444 or 4444xq), ffv1, .gif output or .webp output; h264 has no alpha channel"
            ),
            (
                ["-o", dir.path("a.mov"), "--codec", "hevc", "--profile", "4444xq"],
                "--profile 4444xq is for --codec prores"
            ),
            (
                ["-o", dir.path("a.mov"), "--codec", "prores", "--profile", "hq", "--alpha"],
                "profile hq has no alpha channel; use 4444 or 4444xq"
            ),
            (["-o", dir.path("a.mov"), "--codec", "prores", "--crf", "20"], "--crf is not available for prores"),
            (
                ["-o", dir.path("a.mov"), "--codec", "prores", "--preset", "slow"],
                "--preset slow is not available for prores"
            ),
            (
                ["-o", dir.path("a.mov"), "--codec", "prores", "--bit-depth", "8"],
                "--bit-depth 8 is not available for prores; use 10"
            ),
            (
                ["-o", dir.path("a.mov"), "--codec", "prores", "--range", "full"],
                "--range full is not available for prores"
            ),
            (
                ["-o", dir.path("a.mov"), "--codec", "prores", "--alpha", "--background", "white"],
                "--background does not go with --alpha"
            ),
            (
                ["-o", dir.path("a.mov"), "--codec", "prores", "--profile", "ultra"],
                "--profile ultra is not a ProRes profile; use proxy, lt, standard, hq, 4444 or 4444xq"
            ),
        ]
        for (arguments, says) in cases {
            let result = try Self.run([frames] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(says), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
        #expect(dir.entries() == ["frames"], "nothing written")
    }

    /// Segments of ProRes join only into a QuickTime movie.
    @Test func proResSegmentsJoinIntoAMovOnly() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 8, width: 64, height: 48, into: frames)
        let parts = (1...2).map { dir.path("part-\($0).mov") }
        for (index, part) in parts.enumerated() {
            let made = try Self.run([frames, "-o", part, "--codec", "prores", "--segment", "\(index + 1)/2", "-q"])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let wrong = try Self.run(["join"] + parts + ["-o", dir.path("joined.mp4")])
        #expect(wrong.status != 0 && wrong.stderr.contains("prores does not go in .mp4 files"), "\(wrong.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("joined.mp4")))
    }

    /// A 16-bit grey ramp rising 8 levels of 8 bits across 1024 pixels keeps every 10-bit step in ProRes
    /// (as ``CodecGuaranteeTests`` shows for the other codecs at 10 bits), from PNG and from TIFF.
    @Test(arguments: ["png", "tif"])
    func sixteenBitImagesKeepTheirPrecision(format: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try CodecGuaranteeTests.writeSixteenBitRamps(into: frames, format: format)
        let movie = dir.path("ramp.mov")
        let result = try Self.run([frames, "-o", movie, "--codec", "prores", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let raw = try ExternalTool.runForData(
            "ffmpeg", ["-v", "error", "-i", movie, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray10le", "-"])
        let samples = raw.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        #expect(samples.count == 1024 * 64)
        let distinct = Set(samples[32 * 1024..<33 * 1024]).sorted()
        let widest = zip(distinct, distinct.dropFirst()).map { Int($1) - Int($0) }.max() ?? 0
        #expect(distinct.count >= 28, "\(distinct.count) levels across a ramp of 32 10-bit steps")
        #expect(widest <= 2, "a step of \(widest) 10-bit quanta")
    }

    /// A 16-bit RGBA PNG (a render with alpha) whose colour and alpha both rise 8 levels of 8 bits across
    /// 1024 pixels keeps every 10-bit step of both in ProRes 4444: neither goes through 8 bits.
    @Test func sixteenBitRGBAImagesKeepTheirColourAndAlphaAtTenBits() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let (width, height) = (1024, 16)
        var samples: [Int] = []
        for _ in 0..<height {
            for x in 0..<width { samples += [30000 + 2 * x, 30000 + 2 * x, 30000 + 2 * x, 30000 + 2 * x] }
        }
        let png = TestPNG.encode(width: width, height: height, colourType: 6, bitDepth: 16, samples: samples)
        for index in 1...2 { try png.write(to: URL(fileURLWithPath: "\(frames)/render\(index).png")) }
        let movie = dir.path("render.mov")
        let result = try Self.run([frames, "-o", movie, "--codec", "prores", "--alpha", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        func steps(_ filter: String) throws -> (levels: Int, widest: Int) {
            let raw = try ExternalTool.runForData(
                "ffmpeg", ["-v", "error", "-i", movie, "-frames:v", "1", "-vf", filter, "-f", "rawvideo", "-"])
            let values = raw.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
            #expect(values.count == width * height)
            let distinct = Set(values[8 * width..<9 * width]).sorted()
            return (distinct.count, zip(distinct, distinct.dropFirst()).map { Int($1) - Int($0) }.max() ?? 0)
        }
        let luma = try steps("format=gray10le")
        #expect(luma.levels >= 28 && luma.widest <= 2, "luma: \(luma.levels) levels, widest step \(luma.widest)")
        // The alpha as 10-bit samples: at 8 bits it would have 8 levels 4 apart.
        let alpha = try steps("alphaextract,format=gray10le")
        #expect(alpha.levels >= 28 && alpha.widest <= 2, "alpha: \(alpha.levels) levels, widest step \(alpha.widest)")
    }

    /// Scaling keeps hidden colours hidden: an image whose transparent half is red underneath (alpha 0)
    /// beside an opaque green half, scaled to half its size with its alpha kept, shows no red where
    /// anything shows (premultiplied scaling; straight scaling would tint the edge red).
    @Test func scaledImagesDoNotBleedTheColourUnderTransparentPixels() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        var samples: [Int] = []
        for _ in 0..<64 {
            for x in 0..<64 { samples += x < 33 ? [255, 0, 0, 0] : [0, 255, 0, 255] }
        }
        let png = TestPNG.encode(width: 64, height: 64, colourType: 6, bitDepth: 8, samples: samples)
        for index in 1...2 { try png.write(to: URL(fileURLWithPath: "\(frames)/half\(index).png")) }
        let movie = dir.path("half.mov")
        let result = try Self.run([frames, "-o", movie, "--codec", "prores", "--alpha", "--size", "32x32", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let alpha = try Judge.decodedAlpha(of: movie)
        let rgb = try Judge.decodedRGB(of: movie)
        try #require(alpha.count == 2 && rgb.frames.count == 2)
        var shown = 0
        for pixel in 0..<(32 * 32) where alpha[0][pixel] >= 32 {
            shown += 1
            let red = rgb.frames[0][pixel * 3]
            #expect(red <= 24, "pixel \(pixel % 32),\(pixel / 32): red \(red) under alpha \(alpha[0][pixel])")
        }
        #expect(shown >= 15 * 32, "the green half shows (\(shown) pixels)")
        #expect(alpha[0].contains { $0 > 32 && $0 < 224 }, "the edge between the halves is soft")
    }

    /// `--colour bt601` is written in every frame header and in `colr`, as `CodecGuaranteeTests` checks
    /// for the other codecs (ProRes is video range only, so the range stays limited).
    @Test func theColourOptionIsInTheFrameHeadersAndTheContainer() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 4, width: 96, height: 64, into: frames)
        let movie = dir.path("bt601.mov")
        let result = try Self.run([frames, "-o", movie, "--codec", "prores", "--colour", "bt601", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try Judge.stream(of: movie)
        #expect(
            [stream.colorSpace, stream.colorPrimaries, stream.colorTransfer, stream.colorRange]
                == ["smpte170m", "smpte170m", "smpte170m", "tv"])
        // The frame headers' own tags, as ffmpeg's ProRes decoder reads them from each frame.
        let decoded = try Self.probe(movie, "frame=color_space,color_primaries,color_transfer")
        let lines = decoded.split(separator: "\n")
        #expect(lines.count == 4 && lines.allSatisfy { $0 == "smpte170m,smpte170m,smpte170m" }, "\(decoded)")
        let info = try ExternalTool.run(
            "mediainfo", ["--Inform=Video;%colour_primaries%|%matrix_coefficients%", movie])
        #expect(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "BT.601 NTSC|BT.601")
    }
}
