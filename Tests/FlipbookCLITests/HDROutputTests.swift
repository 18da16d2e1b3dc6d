import FlipbookTestSupport
import Foundation
import Testing

/// HDR movies (`--colour pq`, `--colour hlg`) judged from outside: ffprobe reads the tags from the
/// container and from every frame's bitstream; the pixels of lossless FFV1 movies are compared with
/// zimg (ffmpeg's `zscale`) making the same conversion from the same sources, in 10-bit levels of the
/// coded R, G and B.
@Suite struct HDROutputTests {
    /// A sRGB PNG as Pillow writes it: testsrc2's colours, greys from black to white.
    static func picture(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("picture.png")
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=1", "-frames:v", "1", path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// The coded R, G, B of a movie's first frame as floats (0...1), decoded by zimg from its Y'CbCr.
    static func codedRGB(of movie: String) throws -> [Float] {
        try floats(
            "ffmpeg",
            [
                "-v", "error", "-i", movie, "-frames:v", "1", "-vf",
                "zscale=min=2020_ncl:rin=limited:m=gbr:r=full,format=gbrpf32le", "-f", "rawvideo", "-",
            ])
    }

    /// zimg's conversion of `source` (sRGB, or linear BT.709 for an EXR) to BT.2020 with `transfer`, white
    /// at `nits`, as coded R, G, B floats.
    static func zimgRGB(of source: String, transfer: String, nits: Int, linear: Bool = false) throws -> [Float] {
        let input = linear ? "format=gbrpf32le,zscale=tin=linear" : "zscale=tin=iec61966-2-1"
        return try floats(
            "ffmpeg",
            [
                "-v", "error", "-i", source, "-vf",
                "\(input):min=gbr:pin=709:rin=full:t=\(transfer):p=2020:npl=\(nits):m=gbr:r=full,format=gbrpf32le",
                "-f", "rawvideo", "-",
            ])
    }

    static func floats(_ tool: String, _ arguments: [String]) throws -> [Float] {
        let data = try ExternalTool.runForData(tool, arguments)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Largest and mean difference in 10-bit levels.
    static func levels(_ a: [Float], _ b: [Float]) -> (largest: Double, mean: Double) {
        let differences = zip(a, b).map { Double(abs($0 - $1)) * 1023 }
        return (differences.max() ?? .infinity, differences.reduce(0, +) / Double(max(differences.count, 1)))
    }

    static func movie(
        _ source: String, in dir: TemporaryDirectory, _ name: String, _ options: [String]
    ) throws -> String {
        let movie = dir.path(name)
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [source, "-o", movie, "-q"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        return movie
    }

    /// An sRGB picture in a PQ or HLG movie is what zimg makes of it with white at 203 nits (BT.2408's
    /// reference white): within 4 levels of 10 at every sample (the colour conversion to BT.2020 is made
    /// at 8 bits first) and under one level on average; white itself is 58% of PQ and 75% of HLG.
    @Test(arguments: [("pq", "smpte2084", 0.5807), ("hlg", "arib-std-b67", 0.75)])
    func anSRGBPictureIsWhatZimgMakesOfIt(colour: String, transfer: String, white: Double) throws {
        let dir = try TemporaryDirectory()
        let source = try Self.picture(in: dir)
        let movie = try Self.movie(source, in: dir, "\(colour).mkv", ["--codec", "ffv1", "--colour", colour])
        let info = try Judge.stream(of: movie)
        #expect(info.pixelFormat == "yuv444p10le" && info.colorTransfer == transfer, "\(info)")
        #expect(info.colorPrimaries == "bt2020" && info.colorSpace == "bt2020nc", "\(info)")
        let ours = try Self.codedRGB(of: movie)
        let theirs = try Self.zimgRGB(of: source, transfer: transfer, nits: 203)
        #expect(ours.count == 160 * 90 * 3 && theirs.count == ours.count)
        let difference = Self.levels(ours, theirs)
        #expect(difference.largest <= 6 && difference.mean <= 1, "\(colour): \(difference)")
        #expect(abs(Double(ours.max() ?? 0) - white) < 0.004, "white is \(ours.max() ?? 0)")
    }

    /// A render's light above white is kept: an OpenEXR with highlights to 40 times white, in a PQ movie,
    /// is what zimg makes of ffmpeg's linear decode of it, within two levels; `--peak 100` shows white
    /// at 100 nits instead.
    @Test(.enabled(if: OpenEXRFiles.python != nil, "OpenEXR's Python binding is missing: run make test"))
    func aRenderKeepsItsLightAboveWhite() throws {
        let dir = try TemporaryDirectory()
        let render = dir.path("render.exr")
        try OpenEXRFiles.write(render, compression: "zip", storage: "scanline", width: 96, height: 64)
        for nits in [203, 100] {
            let options = ["--codec", "ffv1", "--colour", "pq"] + (nits == 203 ? [] : ["--peak", String(nits)])
            let movie = try Self.movie(render, in: dir, "render-\(nits).mkv", options)
            let ours = try Self.codedRGB(of: movie)
            let theirs = try Self.zimgRGB(of: render, transfer: "smpte2084", nits: nits, linear: true)
            #expect(ours.count == 96 * 64 * 3 && theirs.count == ours.count)
            let difference = Self.levels(ours, theirs)
            #expect(difference.largest <= 2 && difference.mean <= 0.6, "\(nits) nits: \(difference)")
            #expect((ours.max() ?? 0) > 0.85, "highlights above 1,000 nits are kept: \(ours.max() ?? 0)")
        }
    }

    /// Every codec that holds 10 bits says PQ or HLG in its bitstream (every frame, as ffprobe reads
    /// it) and in its container, in each container it goes in.
    @Test(arguments: [
        ("hevc", "mp4"), ("hevc", "mkv"), ("av1", "mp4"), ("av1", "webm"), ("vp9", "webm"), ("vp9", "mp4"),
        ("prores", "mov"), ("h264", "mp4"), ("ffv1", "mkv"),
    ])
    func everyTenBitCodecIsTaggedInItsStreamAndContainer(codec: String, container: String) throws {
        let dir = try TemporaryDirectory()
        let source = try Self.picture(in: dir)
        for (colour, transfer) in [("pq", "smpte2084"), ("hlg", "arib-std-b67")] {
            let movie = try Self.movie(
                source, in: dir, "\(codec)-\(colour).\(container)", ["--codec", codec, "--colour", colour])
            let info = try Judge.stream(of: movie)
            #expect(
                info.colorTransfer == transfer && info.colorPrimaries == "bt2020" && info.colorSpace == "bt2020nc",
                "\(codec) in .\(container): \(info)")
            #expect(info.pixelFormat.contains("10"), "\(info.pixelFormat)")
            let frames = try ExternalTool.run(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=color_transfer,color_primaries",
                    "-of", "csv=p=0", movie,
                ])
            #expect(frames.stdout.contains("\(transfer)"), "\(codec) frames: \(frames.stdout)")
        }
    }

    /// An HDR movie at 8 bits is a usage error naming the codecs that have 10, and nothing is written.
    @Test func anHDRMovieAtEightBitsIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let source = try Self.picture(in: dir)
        for options in [
            ["--colour", "pq", "--bit-depth", "8"], ["--colour", "hlg", "--codec", "gif"],
            ["--colour", "pq", "--peak", "20000"],
        ] {
            let movie = dir.path("out.\(options.contains("gif") ? "gif" : "mp4")")
            let result = try ExternalTool.run(ExternalTool.flipbookPath, [source, "-o", movie] + options)
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(
                result.stderr.contains("10 bits") || result.stderr.contains("--peak 20000"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }

    /// MaxCLL and MaxFALL of a render as a PQ movie shows it, computed by numpy from OpenEXR's reading of
    /// the file: linear BT.709 to BT.2020 (BT.2087's matrix), each pixel's brightest channel at 203 nits
    /// to white, the largest and the mean.
    static func numpyContentLight(of render: String) throws -> (maxCLL: Double, maxFALL: Double) {
        let script = """
            import sys, numpy as np, OpenEXR
            c = OpenEXR.File(sys.argv[1], separate_channels=True).channels()
            rgb = np.stack([c[n].pixels.astype(np.float64) for n in "RGB"], -1)
            m = np.array([[0.6274, 0.3293, 0.0433], [0.0691, 0.9195, 0.0114], [0.0164, 0.0880, 0.8956]])
            light = (np.clip(rgb @ m.T, 0, None) * 203).max(-1)
            print(light.max(), light.mean())
            """
        let output = try ExternalTool.run(try #require(OpenEXRFiles.python), ["-c", script, render])
        let numbers = output.stdout.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (try #require(numbers.first), try #require(numbers.last))
    }

    /// The stream side data ffprobe reads from the container: name to its `key=value` fields.
    static func streamSideData(of movie: String) throws -> [String: [String: String]] {
        let result = try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream_side_data", "-of", "compact", movie])
        var found: [String: [String: String]] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: "|").compactMap { field -> (String, String)? in
                let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }
            let values = Dictionary(fields, uniquingKeysWith: { first, _ in first })
            if let type = values["side_data_type"] { found[type] = values }
        }
        return found
    }

    /// A rational such as `34000/50000` as a number.
    static func rational(_ text: String?) -> Double? {
        guard let parts = text?.split(separator: "/").compactMap({ Double($0) }), parts.count == 2, parts[1] != 0
        else { return nil }
        return parts[0] / parts[1]
    }

    /// The mastering display given and the MaxCLL and MaxFALL measured from the pictures are where each
    /// reader looks, in each format's units: `mdcv` and `clli` in MP4 and MOV, `SmDm` and `CoLL` for VP9
    /// in MP4, Matroska's `MasteringMetadata`, `MaxCLL` and `MaxFALL` (written over the room kept for
    /// them once the last picture is coded). ffprobe reads every one back to the numbers given and to
    /// numpy's MaxCLL and MaxFALL of the same render within a nit.
    @Test(.enabled(if: OpenEXRFiles.python != nil, "OpenEXR's Python binding is missing: run make test"))
    func theMasteringDisplayAndMeasuredContentLightAreWhereEachReaderLooks() throws {
        let dir = try TemporaryDirectory()
        let render = dir.path("render.exr")
        try OpenEXRFiles.write(render, compression: "zip", storage: "scanline", width: 96, height: 64)
        let expected = try Self.numpyContentLight(of: render)
        #expect(expected.maxCLL > 1000, "the render has highlights: \(expected)")
        for (codec, container) in [
            ("hevc", "mp4"), ("hevc", "mov"), ("av1", "mp4"), ("vp9", "mp4"), ("vp9", "webm"), ("prores", "mov"),
            ("av1", "mkv"), ("h264", "mp4"), ("ffv1", "mkv"),
        ] {
            let movie = try Self.movie(
                render, in: dir, "\(codec).\(container)",
                ["--codec", codec, "--colour", "pq", "--mastering-display", "P3-D65L(4000,0.005)"])
            let side = try Self.streamSideData(of: movie)
            let display = try #require(side["Mastering display metadata"], "\(codec) in .\(container): \(side)")
            let wanted: [(String, Double)] = [
                ("red_x", 0.680), ("red_y", 0.320), ("green_x", 0.265), ("green_y", 0.690), ("blue_x", 0.150),
                ("blue_y", 0.060), ("white_point_x", 0.3127), ("white_point_y", 0.3290), ("max_luminance", 4000),
                ("min_luminance", 0.005),
            ]
            for (key, value) in wanted {
                let read = Self.rational(display[key]) ?? .nan
                #expect(abs(read - value) <= max(0.0001, value * 0.0001), "\(codec) .\(container) \(key): \(read)")
            }
            let light = try #require(side["Content light level metadata"], "\(codec) in .\(container): \(side)")
            let maxCLL = Double(light["max_content"] ?? "") ?? -1
            let maxFALL = Double(light["max_average"] ?? "") ?? -1
            #expect(abs(maxCLL - expected.maxCLL) <= 1, "\(codec) .\(container) MaxCLL \(maxCLL), numpy \(expected)")
            #expect(
                abs(maxFALL - expected.maxFALL) <= 1, "\(codec) .\(container) MaxFALL \(maxFALL), numpy \(expected)")
        }
        let info = try ExternalTool.run("mediainfo", [dir.path("hevc.mp4")])
        #expect(info.stdout.contains("SMPTE ST 2086, HDR10 compatible"), "\(info.stdout)")
        let elements = try ExternalTool.run("mkvinfo", [dir.path("vp9.webm")])
        #expect(
            elements.stdout.contains("Maximum content light: \(Int(expected.maxCLL.rounded(.up)))")
                && elements.stdout.contains("Maximum luminance: 4000"), "\(elements.stdout)")
    }

    /// MaxCLL and MaxFALL given (`--max-cll`) go in the encoder's own metadata with the mastering display:
    /// HEVC's and H.264's SEI (ffmpeg's header trace), AV1's metadata OBUs (ffprobe's frame side data),
    /// and in a fragmented MP4, whose description is written before any picture is measured.
    @Test func givenContentLightGoesInTheBitstreamToo() throws {
        let dir = try TemporaryDirectory()
        let source = try Self.picture(in: dir)
        let options = ["--colour", "pq", "--mastering-display", "BT2020", "--max-cll", "1000,400"]
        for codec in ["hevc", "h264"] {
            let movie = try Self.movie(source, in: dir, "\(codec).mp4", ["--codec", codec] + options)
            let trace = try ExternalTool.run(
                "ffmpeg", ["-v", "debug", "-i", movie, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
            let text = trace.stderr
            #expect(text.contains("= 137") && text.contains("= 144"), "\(codec): SEI 137 and 144 in the stream")
            #expect(text.contains("max_content_light_level") && text.contains("= 1000"), "\(codec)")
        }
        let av1 = try Self.movie(source, in: dir, "av1.mkv", ["--codec", "av1"] + options)
        let frames = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-read_intervals", "%+#1", "-show_entries", "frame_side_data", "-of", "compact", av1])
        #expect(
            frames.stdout.contains("Mastering display metadata")
                && frames.stdout.contains("max_content=1000|max_average=400"), "\(frames.stdout)")
        let fragmented = try Self.movie(
            source, in: dir, "fragmented.mp4", ["--codec", "hevc", "--fragmented"] + options)
        let side = try Self.streamSideData(of: fragmented)
        #expect(side["Content light level metadata"]?["max_content"] == "1000", "\(side)")
        #expect(Self.rational(side["Mastering display metadata"]?["red_x"]) == 0.708, "\(side)")
    }

    /// HDR metadata for a movie that is not HDR, or a display no display is, is a usage error.
    @Test func hdrMetadataOutsideAnHDRMovieIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let source = try Self.picture(in: dir)
        for (options, words) in [
            (["--mastering-display", "P3-D65"], "use them with --colour pq or hlg"),
            (["--colour", "pq", "--mastering-display", "P5"], "is not a display"),
            (["--colour", "pq", "--mastering-display", "P3-D65L(100,200)"], "is not a display"),
            (["--colour", "pq", "--max-cll", "400,1000"], "FALL no more than CLL"),
        ] {
            let movie = dir.path("out.mp4")
            let result = try ExternalTool.run(ExternalTool.flipbookPath, [source, "-o", movie] + options)
            #expect(result.status == 2 && result.stderr.contains(words), "\(options): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }

    /// A join keeps the segments' mastering display, and its MaxCLL and MaxFALL are the whole movie's:
    /// the largest of the segments' (each measured its own pictures), as the movie made in one piece
    /// measures them, in MP4 and in Matroska. The brightest frame is in the first segment, the others
    /// are dimmer, so the first's or the last's alone would be wrong.
    @Test(.enabled(if: OpenEXRFiles.python != nil, "OpenEXR's Python binding is missing: run make test"))
    func aJoinHasTheWholeMoviesContentLight() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let script = """
            import sys, numpy as np, OpenEXR
            y, x = np.mgrid[0:64, 0:96].astype(np.float32)
            for i, k in enumerate([0.5, 4.0, 1.0, 2.0]):
                planes = {"R": k * (0.2 + 0.8 * x / 95) * (y / 63), "G": k * (0.5 + 0.4 * np.sin(x / 5.0)),
                          "B": k * (1.0 - 0.7 * x / 95)}
                OpenEXR.File({"compression": OpenEXR.ZIP_COMPRESSION, "type": OpenEXR.scanlineimage},
                             {n: np.ascontiguousarray(v.astype(np.float16)) for n, v in planes.items()}
                             ).write(f"{sys.argv[1]}/f{i + 1:04d}.exr")
            """
        let made = try ExternalTool.run(try #require(OpenEXRFiles.python), ["-c", script, frames])
        #expect(made.status == 0, "\(made.stderr)")
        for (codec, container) in [("hevc", "mp4"), ("vp9", "mkv")] {
            let options = ["--codec", codec, "--colour", "pq", "--mastering-display", "P3-D65"]
            var levels: [String] = []
            for k in 1...2 {
                let segment = try Self.movie(
                    frames, in: dir, "s\(k).\(container)", options + ["--segment", "\(k)/2"])
                levels.append(
                    try Self.streamSideData(of: segment)["Content light level metadata"]?["max_content"] ?? "")
            }
            let joined = dir.path("joined.\(container)")
            let join = try ExternalTool.run(
                ExternalTool.flipbookPath,
                ["join", dir.path("s1.\(container)"), dir.path("s2.\(container)"), "-o", joined])
            #expect(join.status == 0, "\(join.stderr)")
            let whole = try Self.movie(frames, in: dir, "whole.\(container)", options)
            let joinedSide = try Self.streamSideData(of: joined)
            let wholeSide = try Self.streamSideData(of: whole)
            let light = try #require(joinedSide["Content light level metadata"], "\(joinedSide)")
            #expect(
                light["max_content"] == wholeSide["Content light level metadata"]?["max_content"]
                    && light["max_average"] == wholeSide["Content light level metadata"]?["max_average"],
                "\(codec): joined \(light), whole \(wholeSide), segments \(levels)")
            #expect(levels.count == 2 && levels[0] != levels[1], "the segments differ: \(levels)")
            #expect(Self.rational(joinedSide["Mastering display metadata"]?["red_x"]) == 0.68, "\(joinedSide)")
        }
    }

    /// A 16-bit PNG whose `cICP` says PQ with BT.2020 primaries (written here chunk by chunk: light from
    /// 0.1 to 2,000 nits, saturated and grey) is read as what it says: in a PQ movie its values are kept
    /// (within the two levels of a 10-bit Y'CbCr round trip); in a BT.709 movie it is what zimg makes of it
    /// with white at 203 nits.
    @Test func aPQPNGIsReadAsWhatItSays() throws {
        let dir = try TemporaryDirectory()
        let png = dir.path("pq.png")
        let script = """
            import sys, struct, zlib, numpy as np
            w, h = 64, 32
            y, x = np.mgrid[0:h, 0:w]
            nits = 0.1 * (2000 / 0.1) ** (x / (w - 1))
            m1, m2, c1, c2, c3 = 2610 / 16384, 2523 / 4096 * 128, 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
            def pq(n):
                p = (np.clip(n, 0, 10000) / 10000) ** m1
                return ((c1 + c2 * p) / (1 + c3 * p)) ** m2
            r = pq(nits * np.where(y < h // 2, 1.0, 0.6))
            g = pq(nits * np.where(y < h // 2, 1.0, 0.2))
            b = pq(nits * np.where(y < h // 2, 1.0, 0.9))
            rgb = np.round(np.stack([r, g, b], -1) * 65535).astype(">u2")
            raw = b"".join(b"\\0" + rgb[row].tobytes() for row in range(h))
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0))
            png += chunk(b"cICP", bytes([9, 16, 0, 1])) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
            open(sys.argv[1], "wb").write(png)
            # As ffmpeg's gbrpf32le has them: the G, B and R planes.
            planes = np.stack([rgb[..., 1], rgb[..., 2], rgb[..., 0]]).astype(np.float32) / 65535
            sys.stdout.buffer.write(planes.tobytes())
            """
        let coded = try ExternalTool.runForData(try #require(OpenEXRFiles.python), ["-c", script, png])
            .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(coded.count == 64 * 32 * 3)

        let kept = try Self.codedRGB(of: try Self.movie(png, in: dir, "pq.mkv", ["--codec", "ffv1", "--colour", "pq"]))
        let keptDifference = Self.levels(kept, coded)
        #expect(keptDifference.largest <= 2 && keptDifference.mean <= 0.5, "kept: \(keptDifference)")

        let sdr = dir.path("sdr.mkv")
        _ = try Self.movie(png, in: dir, "sdr.mkv", ["--codec", "ffv1", "--bit-depth", "10"])
        let ours = try Self.floats(
            "ffmpeg",
            [
                "-v", "error", "-i", sdr, "-vf", "zscale=min=709:rin=limited:m=gbr:r=full,format=gbrpf32le", "-f",
                "rawvideo", "-",
            ])
        let theirs = try Self.floats(
            "ffmpeg",
            [
                "-v", "error", "-i", png, "-vf",
                "format=gbrp16le,zscale=tin=smpte2084:min=gbr:pin=2020:rin=full:t=iec61966-2-1:p=709:npl=203:m=gbr:r=full,"
                    + "format=gbrpf32le",
                "-f", "rawvideo", "-",
            ])
        #expect(ours.count == theirs.count && !ours.isEmpty)
        let clipped = zip(ours, theirs).map { ($0, min(max($1, 0), 1)) }
        let difference = Self.levels(clipped.map(\.0), clipped.map(\.1))
        #expect(difference.largest <= 6 && difference.mean <= 1, "BT.709: \(difference)")
        #expect((ours.max() ?? 0) > 0.99 && (ours.min() ?? 1) < 0.05, "white clipped, dark kept")
    }
}
