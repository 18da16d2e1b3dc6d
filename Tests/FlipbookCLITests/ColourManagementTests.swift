import FlipbookTestSupport
import Foundation
import Testing

/// Colour management judged from outside: Pillow's ImageCms (Little CMS) converts the same sources
/// into the movie's space with the same intent (`Tests/Colour/colour_sources.py`), ffmpeg decodes the
/// movie, and the two must agree within 2 levels on average and 4 at the 99th percentile. Sources:
/// Display P3 JPEG and PNG `iCCP` (a profile built by Little CMS: P3 primaries, D65, sRGB's curve), also
/// as a 16-bit PNG (converted at 16 bits in these 10-bit movies); Adobe RGB (1998) JPEG and ProPhoto PNG
/// (colord's profiles); a CMYK JPEG with a press-like CMYK profile (Little CMS builds it); a YCCK JPEG as
/// Photoshop writes one (Adobe transform 2, 4:2:0) with a real SWOP press profile of about 200 KB over four
/// APP2 segments (ArgyllCMS's colprof over CGATS/SWOP TR 005's characterization data: Debian's free profile
/// packages ship the data, not the profile); PNG `gAMA` + `cHRM` and PNG `cICP`; Display P3 TIFF (tag
/// 34675), lossless WebP (`ICCP`) and HEIC (libheif's `heif-enc`, with the ICC profile); an AVIF with an
/// `nclx` box of 12/13 alone; an sRGB PNG stating nothing.
///
/// ProRes 4444 keeps every chroma sample at 10 bits, so its decode judges the conversion alone; an
/// H.264 4:2:0 movie adds its own subsampling error on these saturated ramps (up to 3 levels mean on the
/// SWOP ramps: measured on ImageCms's converted picture made into a movie with colour management off,
/// and allowed on top).
@Suite struct ColourManagementTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let sourceNames = [
        "p3-jpeg", "adobe-jpeg", "prophoto-iccp", "p3-iccp", "gama-chrm", "p3-cicp", "p3-tiff", "p3-webp", "p3-iccp16",
        "cmyk-jpeg", "swop-jpeg", "srgb-plain", "p3-heic", "p3-nclx-avif",
    ]
    static let extensions = [
        "jpeg": "jpg", "iccp": "png", "chrm": "png", "cicp": "png", "tiff": "tif", "webp": "webp", "heic": "heic",
        "avif": "avif", "plain": "png", "iccp16": "png",
    ]

    /// The sources and ImageCms's conversions of them into `target` (srgb or p3) with `intent`.
    static func sources(in dir: TemporaryDirectory, target: String = "srgb", intent: String = "relative") throws
        -> String
    {
        let folder = try dir.folder("sources-\(target)-\(intent)")
        let script = tests.appendingPathComponent("Colour/colour_sources.py").path
        let made = try ExternalTool.run("/usr/bin/python3", [script, folder, target, intent])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.split(separator: "\n").map(String.init) == sourceNames, "\(made.stdout)")
        return folder
    }

    static func source(_ name: String, in folder: String) -> String {
        "\(folder)/\(name).\(extensions[String(name.split(separator: "-").last!)]!)"
    }

    /// Mean and 99th percentile of the absolute differences of every sample.
    static func differences(_ a: [UInt8], _ b: [UInt8]) -> (mean: Double, p99: Int) {
        precondition(a.count == b.count && !a.isEmpty, "\(a.count) and \(b.count) samples")
        let sorted = zip(a, b).map { abs(Int($0) - Int($1)) }.sorted()
        return (Double(sorted.reduce(0, +)) / Double(sorted.count), sorted[sorted.count * 99 / 100])
    }

    static func reference(_ name: String, in folder: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name).rgb")))
    }

    static func flipbook(_ arguments: [String]) throws -> ToolResult {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// The first frame of a 4:2:0 movie as RGB, each chroma sample repeated (no interpolation across
    /// the sources' sharp band edges).
    static func nearestRGB(of movie: String) throws -> [UInt8] {
        [UInt8](
            try ExternalTool.runForData(
                "ffmpeg",
                [
                    "-v", "error", "-i", movie, "-frames:v", "1", "-sws_flags", "neighbor+accurate_rnd+full_chroma_int",
                    "-pix_fmt", "rgb24", "-f", "rawvideo", "-",
                ]))
    }

    @Test(arguments: ["relative", "perceptual"])
    func everyKindOfSourceMatchesImageCmsInAProRes4444Movie(intent: String) throws {
        let dir = try TemporaryDirectory()
        let folder = try Self.sources(in: dir, intent: intent)
        for name in Self.sourceNames {
            let movie = dir.path("\(name).mov")
            let result = try Self.flipbook([
                Self.source(name, in: folder), "-o", movie, "--codec", "prores", "--profile", "4444", "--intent",
                intent,
                "--json", "--quiet",
            ])
            let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let conversions = (summary?["colourConversions"] as? [String: Int])?.values.reduce(0, +) ?? 0
            #expect(conversions == (name == "srgb-plain" ? 0 : 1), "\(result.stdout)")
            let decoded = try Judge.decodedRGB(of: movie)
            let error = Self.differences(decoded.frames[0], try Self.reference(name, in: folder))
            #expect(error.mean <= 2 && error.p99 <= 4, "\(name) \(intent): mean \(error.mean), p99 \(error.p99)")
        }
    }

    /// `--colour p3` and `--colour bt2020`: every source converted into the movie's primaries (sRGB's
    /// curve, as Flipbook's BT.709 movies hold it), as ImageCms converts it into a Display P3 or BT.2020
    /// profile built by Little CMS; a Display P3 source in a P3 movie is kept as it is.
    @Test(arguments: ["p3", "bt2020"])
    func everyKindOfSourceMatchesImageCmsInAWideGamutMovie(target: String) throws {
        let dir = try TemporaryDirectory()
        let folder = try Self.sources(in: dir, target: target)
        for name in Self.sourceNames {
            let movie = dir.path("\(name).mov")
            let result = try Self.flipbook([
                Self.source(name, in: folder), "-o", movie, "--codec", "prores", "--profile", "4444", "--colour",
                target,
                "--json", "--quiet",
            ])
            let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let conversions = (summary?["colourConversions"] as? [String: Int])?.values.reduce(0, +) ?? 0
            let kept = target == "p3" && name.hasPrefix("p3-")
            #expect(conversions == (kept ? 0 : 1), "\(name): \(result.stdout)")
            let decoded = try Judge.decodedRGB(of: movie)
            let error = Self.differences(decoded.frames[0], try Self.reference(name, in: folder))
            #expect(error.mean <= 2 && error.p99 <= 4, "\(name) \(target): mean \(error.mean), p99 \(error.p99)")
        }
    }

    /// Every codec tags a `--colour p3` movie as primaries 12 (SMPTE EG 432-1) with BT.709 transfer and
    /// matrix, and a `--colour bt2020` movie as BT.2020 primaries, 10-bit transfer and non-constant-luminance
    /// matrix at 10 bits: ffprobe reads the container's tags and, from the raw H.264 and HEVC streams
    /// alone, the bitstream's; MediaInfo names them.
    @Test(arguments: [("h264", "mp4"), ("hevc", "mp4"), ("av1", "mp4"), ("vp9", "webm"), ("prores", "mov")])
    func wideGamutMoviesAreTaggedByEveryCodec(codec: String, container: String) throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("ramp.png")
        try TestPNG.encode(
            width: 128, height: 96, colourType: 2, bitDepth: 8, samples: (0..<128 * 96 * 3).map { $0 % 251 }
        ).write(to: URL(fileURLWithPath: image))
        for (target, tags, named) in [
            ("p3", "bt709,bt709,smpte432", "Display P3 / BT.709 / BT.709"),
            ("bt2020", "bt2020nc,bt2020-10,bt2020", "BT.2020 / BT.2020 (10-bit) / BT.2020 non-constant"),
        ] {
            let movie = dir.path("\(target).\(container)")
            _ = try Self.flipbook([
                image, "-o", movie, "--codec", codec, "--colour", target, "--size",
                "128x96",
                "--quiet",
            ])
            let stream = try Judge.stream(of: movie)
            #expect(
                "\(stream.colorSpace),\(stream.colorTransfer),\(stream.colorPrimaries)" == tags,
                "\(codec) \(target): \(stream)")
            if target == "bt2020" { #expect(stream.pixelFormat.hasSuffix("p10le"), "\(stream.pixelFormat)") }
            if codec == "h264" || codec == "hevc" {
                let raw = dir.path("\(target).\(codec)")
                _ = try ExternalTool.runForData("ffmpeg", ["-v", "error", "-i", movie, "-c", "copy", "-f", codec, raw])
                let bitstream = try ExternalTool.run(
                    "ffprobe",
                    [
                        "-v", "error", "-show_entries", "stream=color_space,color_transfer,color_primaries", "-of",
                        "csv=p=0", raw,
                    ])
                #expect(bitstream.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == tags, "\(codec) \(target)")
            }
            let info = try ExternalTool.run(
                "mediainfo",
                ["--Inform=Video;%colour_primaries% / %transfer_characteristics% / %matrix_coefficients%", movie])
            #expect(
                info.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == named,
                "\(codec) \(target): \(info.stdout)")
        }
    }

    /// With colour management off the same movie is far from ImageCms's conversion (the test above
    /// could not pass without converting), and exactly the source's values.
    @Test func withColourManagementOffTheValuesAreTakenAsTheyAre() throws {
        let dir = try TemporaryDirectory()
        let folder = try Self.sources(in: dir)
        let movie = dir.path("off.mov")
        let result = try Self.flipbook([
            Self.source("p3-iccp", in: folder), "-o", movie, "--codec", "prores", "--profile", "4444",
            "--colour-management", "off", "--json", "--quiet",
        ])
        #expect(!result.stdout.contains("colourConversions"), "\(result.stdout)")
        let decoded = try Judge.decodedRGB(of: movie).frames[0]
        let converted = Self.differences(decoded, try Self.reference("p3-iccp", in: folder))
        #expect(converted.p99 > 10, "p99 \(converted.p99) against the conversion")
        let made = try ExternalTool.runForData(
            "/usr/bin/python3",
            [
                "-c",
                "import sys; from PIL import Image; sys.stdout.buffer.write(Image.open(sys.argv[1]).convert('RGB').tobytes())",
                Self.source("p3-iccp", in: folder),
            ])
        let asStored = Self.differences(decoded, [UInt8](made))
        #expect(asStored.p99 == 0, "p99 \(asStored.p99) against the stored values")
    }

    /// An H.264 movie (4:2:0, the default) of a Display P3 JPEG and of a SWOP YCCK JPEG: ImageCms's
    /// conversion plus no more than the error 4:2:0 makes of ImageCms's converted picture itself (stored
    /// as a PNG and made into a movie with colour management off).
    @Test(arguments: ["p3-jpeg", "swop-jpeg"])
    func anH264MovieOfAJPEGWithAProfileIsWithinItsOwnSubsamplingErrorOfImageCms(name: String) throws {
        let dir = try TemporaryDirectory()
        let folder = try Self.sources(in: dir)
        let reference = try Self.reference(name, in: folder)
        let convertedPicture = dir.path("converted.png")
        try TestPNG.encode(width: 64, height: 48, colourType: 2, bitDepth: 8, samples: reference.map(Int.init))
            .write(to: URL(fileURLWithPath: convertedPicture))
        _ = try Self.flipbook([Self.source(name, in: folder), "-o", dir.path("on.mp4"), "--crf", "0", "--quiet"])
        _ = try Self.flipbook([
            convertedPicture, "-o", dir.path("off.mp4"), "--crf", "0", "--colour-management", "off", "--quiet",
        ])
        let subsampling = Self.differences(try Self.nearestRGB(of: dir.path("off.mp4")), reference)
        let converted = Self.differences(try Self.nearestRGB(of: dir.path("on.mp4")), reference)
        #expect(
            converted.mean <= subsampling.mean + 0.25,
            "\(name): mean \(converted.mean), 4:2:0 alone \(subsampling.mean)")
        #expect(converted.p99 <= subsampling.p99 + 1, "\(name): p99 \(converted.p99), 4:2:0 alone \(subsampling.p99)")
    }

    /// An sRGB JPEG (with its profile) keeps the fast path and today's bytes: the movie is the same with
    /// colour management on and off.
    @Test func sRGBImagesMakeTheSameBytesWithColourManagementOnAndOff() throws {
        let dir = try TemporaryDirectory()
        let photo = dir.path("srgb.jpg")
        let made = try ExternalTool.run(
            "/usr/bin/python3",
            [
                "-c",
                "import sys; from PIL import Image; Image.radial_gradient('L').convert('RGB').resize((320, 240))"
                    + ".save(sys.argv[1], icc_profile=open('/usr/share/color/icc/sRGB.icc', 'rb').read())",
                photo,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        for mode in ["on", "off"] {
            _ = try Self.flipbook([photo, photo, "-o", dir.path("\(mode).mp4"), "--colour-management", mode, "--quiet"])
        }
        let on = try Data(contentsOf: URL(fileURLWithPath: dir.path("on.mp4")))
        let off = try Data(contentsOf: URL(fileURLWithPath: dir.path("off.mp4")))
        #expect(on == off)
    }

    /// A profile Little CMS cannot read is a warning naming the file, and the image is read as sRGB
    /// (the same movie as with colour management off).
    @Test func anUnusableProfileIsAWarningNamingTheFileAndTheImageIsReadAsSRGB() throws {
        let dir = try TemporaryDirectory()
        let photo = dir.path("broken.jpg")
        let made = try ExternalTool.run(
            "/usr/bin/python3",
            [
                "-c",
                "import sys; from PIL import Image; Image.new('RGB', (64, 48), (200, 40, 40))"
                    + ".save(sys.argv[1], icc_profile=b'not a profile' * 20)",
                photo,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let result = try Self.flipbook([photo, "-o", dir.path("on.mp4"), "--json"])
        #expect(
            result.stderr.contains("flipbook: warning: \(photo): its ICC profile is damaged")
                && result.stderr.contains(
                    "read as sRGB"),
            "\(result.stderr)")
        #expect(result.stdout.contains("read as sRGB"), "\(result.stdout)")
        _ = try Self.flipbook([photo, "-o", dir.path("off.mp4"), "--colour-management", "off", "--quiet"])
        #expect(try Judge.decodedRGB(of: dir.path("on.mp4")).frames == Judge.decodedRGB(of: dir.path("off.mp4")).frames)
    }

    /// Options that cannot be: exit 2, naming what works.
    @Test func impossibleColourOptionsAreUsageErrors() throws {
        let dir = try TemporaryDirectory()
        let frame = dir.path("f.png")
        try TestPNG.encode(
            width: 16, height: 16, colourType: 2, bitDepth: 8, samples: [Int](repeating: 128, count: 16 * 16 * 3)
        ).write(to: URL(fileURLWithPath: frame))
        for (arguments, words) in [
            (["--colour", "bt2020", "--bit-depth", "8"], "--colour bt2020 is encoded at 10 bits"),
            (["--intent", "vivid"], "use relative, perceptual, saturation or absolute"),
            (["--colour-management", "maybe"], "use on or off"),
            (["--colour", "p4"], "use bt709, bt601, p3, bt2020, pq or hlg"),
        ] {
            let result = try ExternalTool.run(ExternalTool.flipbookPath, [frame, "-o", dir.path("x.mp4")] + arguments)
            #expect(result.status == 2 && result.stderr.contains(words), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.path("x.mp4")))
        }
    }
}
