import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

/// What holds for H.264 holds for every other codec (and for H.264 at 10 bits), judged by ffprobe and ffmpeg: the sample entry
/// and profile, 8- and 10-bit, every frame's time at 30 and 29.97 fps and in a slideshow, the colour
/// tags, a clean strict decode and PSNR against the sources, fragments that each start with a
/// keyframe, a `kill -9` that keeps every finished fragment, and `probe`.
@Suite struct CodecGuaranteeTests {
    /// The codecs beside H.264, with the sample entry and profile names ffprobe gives them.
    static let codecs: [(codec: String, tag: String, profile8: String, profile10: String)] = [
        ("h264", "avc1", "High", "High 10"), ("hevc", "hvc1", "Main", "Main 10"), ("av1", "av01", "Main", "Main"),
        ("vp9", "vp09", "Profile 0", "Profile 2"),
    ]
    static var codecNames: [String] { codecs.map(\.codec) }
    /// Every codec, ProRes and FFV1 too: for the guarantees that hold whatever the quality scale (ProRes
    /// has profiles, not a CRF; FFV1 is lossless; both go in `.mov`; their own checks are in
    /// ``ProResTests`` and ``FFV1Tests``).
    static var allCodecNames: [String] { codecNames + ["prores", "ffv1"] }

    /// The codecs without a CRF or presets of their own.
    static let fixedQualityCodecs: Set<String> = ["prores", "ffv1"]

    /// The extension a movie of `codec` is written with: `.mov` for ProRes and FFV1, `.mp4` otherwise.
    static func ext(_ codec: String) -> String { fixedQualityCodecs.contains(codec) ? ".mov" : ".mp4" }

    /// `--preset NAME` where the codec has presets; for ProRes and FFV1, which have none, one encoder
    /// thread (to slow an encode down as a slow preset does).
    static func preset(_ name: String, _ codec: String) -> [String] {
        fixedQualityCodecs.contains(codec) ? ["--threads", "1"] : ["--preset", name]
    }

    static func expected(_ codec: String) -> (codec: String, tag: String, profile8: String, profile10: String) {
        codecs.first { $0.codec == codec }!
    }

    func encode(_ arguments: [String]) throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-q"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    @Test(arguments: codecNames, [8, 10])
    func aMovieIsTaggedTimedAndClean(codec: String, bitDepth: Int) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 48, width: 320, height: 240, into: frames, padded: true)
        let movie = dir.path("out.mp4")
        try encode([frames, "-o", movie, "--codec", codec, "--bit-depth", String(bitDepth), "--crf", "20"])

        let stream = try Judge.stream(of: movie)
        let expected = Self.expected(codec)
        #expect(stream.codecName == codec)
        #expect(stream.profile == (bitDepth == 10 ? expected.profile10 : expected.profile8))
        #expect(stream.pixelFormat == (bitDepth == 10 ? "yuv420p10le" : "yuv420p"))
        #expect(stream.width == 320 && stream.height == 240)
        #expect(stream.colorSpace == "bt709" && stream.colorPrimaries == "bt709" && stream.colorTransfer == "bt709")
        #expect(stream.colorRange == "tv")
        #expect(stream.frameCount == 48)
        let tag = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_tag_string", "-of", "csv=p=0",
                movie,
            ])
        #expect(tag.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected.tag)

        let decoded = try Judge.frames(of: movie)
        // 30 fps at 12000 ticks a second: frame i at tick 400 i, each 400 long, the first at zero.
        #expect(decoded.map(\.pts) == (0..<48).map { Int64($0) * 400 })
        #expect(decoded.allSatisfy { $0.duration == 400 })
        #expect(try Judge.formatDuration(of: movie) == "1.600000")
        #expect(try Judge.decodeErrors(of: movie) == "")
        let psnr = try Judge.psnr(of: movie, againstImages: "\(frames)/frame%03d.png")
        #expect(psnr >= 38, "PSNR \(psnr) dB")
    }

    @Test(arguments: allCodecNames)
    func ntscRateAndSlideshowTimesAreExact(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let images = try SampleImages.write(count: 30, width: 128, height: 96, into: frames)
        let ntsc = dir.path("ntsc" + Self.ext(codec))
        try encode([frames, "-o", ntsc, "--codec", codec, "--fps", "29.97"])
        #expect(try Judge.stream(of: ntsc).timeBase == "1/30000")
        let decoded = try Judge.frames(of: ntsc)
        #expect(decoded.map(\.pts) == (0..<30).map { Int64($0) * 1001 })
        #expect(decoded.allSatisfy { $0.duration == 1001 })
        #expect(try Judge.formatDuration(of: ntsc) == "1.001000")

        let show = dir.path("show" + Self.ext(codec))
        try encode(Array(images.prefix(3)) + ["-o", show, "--codec", codec, "--duration", "2"])
        let slides = try Judge.frames(of: show)
        #expect(slides.map(\.ptsTime) == ["0.000000", "2.000000", "4.000000"])
        #expect(try Judge.formatDuration(of: show) == "6.000000")
        #expect(try Judge.decodeErrors(of: show) == "")
    }

    @Test(arguments: codecNames)
    func colourTagsFollowTheOptionsInTheBitstreamAndTheContainer(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 4, width: 96, height: 64, into: frames)
        let movie = dir.path("bt601-full.mp4")
        try encode([frames, "-o", movie, "--codec", codec, "--colour", "bt601", "--range", "full"])
        let stream = try Judge.stream(of: movie)
        #expect(stream.colorSpace == "smpte170m" && stream.colorPrimaries == "smpte170m")
        #expect(stream.colorTransfer == "smpte170m")
        #expect(stream.colorRange == "pc")
        // The bitstream's own colour description, read by ffmpeg's decoder with the container's tags dropped.
        let raw = dir.path("stream.\(["h264": "h264", "hevc": "hevc", "vp9": "ivf"][codec] ?? "obu")")
        let extracted = try ExternalTool.run("ffmpeg", ["-v", "error", "-i", movie, "-c", "copy", raw])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let bitstream = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=color_space,color_primaries,color_transfer,color_range", "-of",
                "csv=p=0", raw,
            ])
        // VP9's frame headers carry the matrix and the range only; its primaries and transfer are the container's.
        let described = codec == "vp9" ? "pc,smpte170m,unknown,unknown" : "pc,smpte170m,smpte170m,smpte170m"
        #expect(bitstream.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == described)
    }

    @Test(arguments: allCodecNames)
    func fragmentsEachStartWithAKeyframeAndAKillKeepsTheFinishedOnes(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 45, width: 160, height: 120, into: frames)
        let whole = dir.path("frag" + Self.ext(codec))
        try encode([frames, "-o", whole, "--codec", codec, "--fragmented", "--fragment-duration", "0.5"])
        let reader = try FragmentedMovieReader(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole))))
        #expect(reader.validate() == [])
        #expect(reader.fragments.count >= 3)
        let decoded = try Judge.frames(of: whole)
        #expect(decoded.map(\.pts) == (0..<45).map { Int64($0) * 400 })
        #expect(try Judge.decodeErrors(of: whole) == "")
        // ffprobe's packets: a keyframe at the first packet of each fragment, by the fragments' sample counts.
        let packets = try Judge.packets(of: whole)
        var first = 0
        for fragment in reader.fragments {
            #expect(
                first < packets.count && packets[first].isKeyframe, "fragment at packet \(first) starts with a keyframe"
            )
            first += fragment.samples.count
        }

        let long = try dir.folder("long")
        try SampleImages.write(count: 300, width: 320, height: 240, into: long)
        let live = dir.path("live" + Self.ext(codec))
        let process = try InterruptTests.start(
            [long, "-o", live, "--codec", codec, "--fragmented", "--fragment-duration", "0.5"]
                + Self.preset("slow", codec))
        var finishedBeforeKill = 0
        try InterruptTests.waitUntil {
            guard let path = InterruptTests.temporaryFile(in: dir, for: "live" + Self.ext(codec)),
                let data = FileManager.default.contents(atPath: path)
            else { return !process.isRunning }
            finishedBeforeKill = try FragmentedMovieReader(bytes: [UInt8](data)).fragments.count
            return finishedBeforeKill >= 2 || !process.isRunning
        }
        #expect(process.isRunning, "the encode must still be running when it is killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try #require(InterruptTests.temporaryFile(in: dir, for: "live" + Self.ext(codec)))
        let kept = try FragmentedMovieReader(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: partial))))
        #expect(kept.fragments.count >= finishedBeforeKill)
        let survivors = try Judge.frames(of: partial)
        #expect(survivors.count == kept.samples.count && !survivors.isEmpty)
        #expect(survivors.map(\.pts) == (0..<survivors.count).map { Int64($0) * 400 })
    }

    @Test(arguments: allCodecNames)
    func probeNamesTheCodecAndProfileAsFFprobeDoes(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 6, width: 64, height: 64, into: frames)
        let movie = dir.path("out" + Self.ext(codec))
        try encode([frames, "-o", movie, "--codec", codec])
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let probed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let stream = try Judge.stream(of: movie)
        #expect(probed["codec"] as? String == codec)
        // A codec without profiles (FFV1) has none in either.
        #expect((probed["profile"] as? String ?? "") == stream.profile)
        #expect(probed["frames"] as? Int == 6)
    }

    /// Three segments joined: the same frames at the same times as one encode, every packet the segments'
    /// own bytes, the sample entry the codec's, and a clean strict decode.
    @Test(arguments: allCodecNames)
    func segmentsJoinToTheFramesAndTimesOfOneEncode(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 160, height: 120, into: frames)
        let parts = (1...3).map { dir.path("part-\($0)" + Self.ext(codec)) }
        for (index, part) in parts.enumerated() {
            try encode([frames, "-o", part, "--codec", codec, "--segment", "\(index + 1)/3"])
        }
        let joined = dir.path("joined" + Self.ext(codec))
        let join = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + parts + ["-o", joined, "-q"])
        #expect(join.status == 0, "\(join.stderr)")
        let single = dir.path("single" + Self.ext(codec))
        try encode([frames, "-o", single, "--codec", codec])

        let joinedFrames = try Judge.frames(of: joined)
        #expect(joinedFrames.count == 60)
        #expect(joinedFrames.map(\.pts) == (try Judge.frames(of: single)).map(\.pts))
        #expect(joinedFrames.map(\.duration) == (try Judge.frames(of: single)).map(\.duration))
        #expect(try Judge.formatDuration(of: joined) == (try Judge.formatDuration(of: single)))
        #expect(try Judge.stream(of: joined).codecName == codec)
        #expect(try Judge.decodeErrors(of: joined) == "")
        let segmentPackets = try parts.flatMap { try SegmentTests.packetHashes(of: $0) }
        #expect(try SegmentTests.packetHashes(of: joined) == segmentPackets, "the join copies every packet as it is")
    }

    /// A 16-bit grey ramp (PNG and TIFF) rising 8 levels of 8 bits across 1024 pixels: in a 10-bit movie every 10-bit
    /// step is there (no step between neighbouring levels wider than 2 quanta); in an 8-bit movie the same
    /// ramp has 8 levels 4 quanta apart, which shows the judge can tell them apart.
    @Test(arguments: codecNames, ["png", "tif"])
    func aSixteenBitRampKeepsItsPrecisionAtTenBits(codec: String, format: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try Self.writeSixteenBitRamps(into: frames, format: format)
        func levels(bitDepth: Int) throws -> (count: Int, widestStep: Int) {
            let movie = dir.path("ramp-\(bitDepth).mp4")
            try encode([frames, "-o", movie, "--codec", codec, "--bit-depth", String(bitDepth), "--crf", "4"])
            let raw = try ExternalTool.runForData(
                "ffmpeg", ["-v", "error", "-i", movie, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray10le", "-"])
            let samples = raw.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
            #expect(samples.count == 1024 * 64)
            let row = samples[32 * 1024..<33 * 1024].map(Int.init)
            let distinct = Set(row).sorted()
            let widest = zip(distinct, distinct.dropFirst()).map { $1 - $0 }.max() ?? 0
            return (distinct.count, widest)
        }
        let deep = try levels(bitDepth: 10)
        #expect(deep.count >= 28, "\(deep.count) levels across a ramp of 32 10-bit steps")
        #expect(deep.widestStep <= 2, "a step of \(deep.widestStep) 10-bit quanta")
        let shallow = try levels(bitDepth: 8)
        #expect(shallow.widestStep >= 4, "at 8 bits the ramp steps by 4 quanta (\(shallow.widestStep))")
    }

    /// Following a render writes the codec asked for, as a fragmented movie.
    @Test(arguments: allCodecNames)
    func followingARenderWritesTheCodecAskedFor(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 5, width: 96, height: 64, into: frames)
        let movie = dir.path("followed" + Self.ext(codec))
        try encode([frames, "-o", movie, "--follow", "--follow-until", "5", "--codec", codec])
        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == codec)
        #expect(try Judge.frames(of: movie).map(\.pts) == (0..<5).map { Int64($0) * 400 })
        #expect(try Judge.decodeErrors(of: movie) == "")
    }

    /// HEVC movies are at least 16x16 (x265's smallest coding block): smaller images and a smaller `--size` are
    /// both a usage error naming the range, however the size was learnt.
    @Test func hevcRefusesMoviesUnder16Pixels() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 8, height: 8, into: frames)
        let small = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", dir.path("small.mp4"), "--codec", "hevc"])
        #expect(small.status == 2)
        #expect(small.stderr.contains("8x8 is outside what hevc encodes: 16x16 to 16384x16384"), "\(small.stderr)")
        let sized = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", dir.path("sized.mp4"), "--codec", "hevc", "--size", "8x8"])
        #expect(sized.status == 2)
        #expect(sized.stderr.contains("--size 8x8 is outside what hevc encodes: 16x16"), "\(sized.stderr)")
        #expect(dir.entries() == ["frames"])
    }

    /// Each codec's own CRF scale: the ends are accepted, one past them is a usage error naming the range.
    @Test func crfIsCheckedOnEachCodecsScale() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 64, height: 64, into: frames)
        for (codec, good, bad) in [
            ("h264", ["0", "51"], ["52"]), ("hevc", ["0", "51"], ["52"]), ("av1", ["1", "63"], ["0", "64"]),
            ("vp9", ["0", "63"], ["64"]),
        ] {
            for crf in good {
                let result = try ExternalTool.run(
                    ExternalTool.flipbookPath,
                    [frames, "-o", dir.path("\(codec)-\(crf).mp4"), "--codec", codec, "--crf", crf, "-q"])
                #expect(result.status == 0, "\(codec) --crf \(crf): \(result.stderr)")
            }
            for crf in bad {
                let result = try ExternalTool.run(
                    ExternalTool.flipbookPath, [frames, "-o", dir.path("bad.mp4"), "--codec", codec, "--crf", crf])
                #expect(result.status == 2, "\(codec) --crf \(crf)")
                #expect(result.stderr.contains("out of range for \(codec)"), "\(result.stderr)")
            }
        }
        let unknown = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", dir.path("x.mp4"), "--codec", "vp8"])
        #expect(
            unknown.status == 2 && unknown.stderr.contains("h264, hevc, av1, vp9, prores, ffv1, gif or webp"),
            "\(unknown.stderr)")
    }

    /// Writes two 1024x64 16-bit grey images (`png` or `tif`, by Pillow) rising 8 levels of 8 bits
    /// from left to right: 32 10-bit steps.
    static func writeSixteenBitRamps(into folder: String, format: String) throws {
        let script =
            "import sys, struct; from PIL import Image; w, h = 1024, 64; "
            + "row = struct.pack('<%dH' % w, *[30000 + 2 * x for x in range(w)]); "
            + "[Image.frombytes('I;16', (w, h), row * h).save(sys.argv[1] + '/ramp%d.' % i + sys.argv[2]) for i in (1, 2)]"
        let made = try ExternalTool.run("/usr/bin/python3", ["-c", script, folder, format])
        #expect(made.status == 0, "\(made.stderr)")
    }
}
