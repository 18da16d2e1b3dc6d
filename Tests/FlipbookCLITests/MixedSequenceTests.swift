import FlipbookTestSupport
import Foundation
import Testing

/// Images of different sizes and formats in one movie: each fitted, composited and placed by the
/// rule, judged on the frames ffmpeg decodes.
@Suite struct MixedSequenceTests {
    /// Draws one image with ffmpeg from a lavfi graph, written in `pixelFormat`.
    static func draw(_ graph: String, pixelFormat: String, to path: String, extra: [String] = []) throws {
        let result = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", graph, "-frames:v", "1", "-pix_fmt", pixelFormat] + extra + [path])
        guard result.status == 0 else { throw JudgeError(description: "ffmpeg \(graph): \(result.stderr)") }
    }

    static func rgb(_ frame: [UInt8], width: Int, _ x: Int, _ y: Int) -> [Int] {
        let offset = (y * width + x) * 3
        return frame[offset..<offset + 3].map(Int.init)
    }

    /// One frame's expectation: sample points and their colours.
    struct Expectation {
        var name: String
        var points: [(x: Int, y: Int, colour: [Int])]
    }

    @Test func mixedSizesAndFormatsBecomeOneSizeWithBandsInTheBackgroundColour() throws {
        let dir = try TemporaryDirectory()
        let folder = try dir.folder("in")
        let background = [0x33, 0x66, 0x99]
        // Straight alpha 128 over the background, rounded: (128 * c + 127 * bg) / 255.
        func over(_ colour: [Int], alpha: Int = 128) -> [Int] {
            zip(colour, background).map { Int((Double(alpha * $0 + (255 - alpha) * $1) / 255).rounded()) }
        }
        try Self.draw("color=orange:s=640x360", pixelFormat: "rgb24", to: "\(folder)/f01.png")
        try Self.draw("color=red:s=400x400", pixelFormat: "rgb24", to: "\(folder)/f02.png")
        try Self.draw("color=blue:s=1024x200", pixelFormat: "yuvj444p", to: "\(folder)/f03.jpg")
        let green = [UInt8]((0..<320 * 180).flatMap { _ in [UInt8(0), 255, 0] })
        try TestJPEG.encode(green, width: 320, height: 180, kind: .rgb, progressive: true)
            .write(to: URL(fileURLWithPath: "\(folder)/f04.jpg"))
        try Self.draw("color=gray:s=320x240", pixelFormat: "gray", to: "\(folder)/f05.png")
        try Self.draw("color=cyan:s=640x360", pixelFormat: "pal8", to: "\(folder)/f06.png")
        try Self.draw("color=magenta:s=640x360", pixelFormat: "rgba64be", to: "\(folder)/f07.png")
        try Self.draw("color=white@0.5:s=640x360,format=rgba", pixelFormat: "ya8", to: "\(folder)/f08.png")
        try Self.draw(
            "color=yellow:s=320x360,format=rgba[a];color=black@0.0:s=320x360,format=rgba[b];[b][a]hstack",
            pixelFormat: "rgba", to: "\(folder)/f09.png")
        try Self.draw("color=0xC8C8C8:s=640x360", pixelFormat: "gray", to: "\(folder)/f10.jpg")

        let expectations: [Expectation] = [
            Expectation(name: "RGB PNG 640x360", points: [(4, 4, [255, 165, 0]), (635, 355, [255, 165, 0])]),
            // 400x400 fits as 360x360 at x 140: pillarbox bands 0..<140 and 500..<640.
            Expectation(
                name: "PNG 400x400",
                points: [
                    (4, 180, background), (135, 180, background), (145, 180, [255, 0, 0]),
                    (494, 180, [255, 0, 0]), (505, 180, background), (635, 180, background),
                ]),
            // 1024x200 fits as 640x125 at y 117: letterbox bands 0..<117 and 242..<360.
            Expectation(
                name: "JPEG 1024x200",
                points: [
                    (320, 4, background), (320, 112, background), (320, 122, [0, 0, 255]),
                    (320, 237, [0, 0, 255]), (320, 247, background), (320, 355, background),
                ]),
            Expectation(name: "progressive JPEG 320x180", points: [(4, 4, [0, 255, 0]), (635, 355, [0, 255, 0])]),
            // 320x240 fits as 480x360 at x 80.
            Expectation(
                name: "gray PNG 320x240",
                points: [
                    (40, 180, background), (85, 180, [128, 128, 128]), (554, 180, [128, 128, 128]),
                    (600, 180, background),
                ]),
            Expectation(name: "palette PNG", points: [(320, 180, [0, 255, 255])]),
            Expectation(name: "16-bit RGBA PNG", points: [(320, 180, [255, 0, 255])]),
            Expectation(name: "gray+alpha PNG at 50%", points: [(320, 180, over([255, 255, 255]))]),
            Expectation(
                name: "RGBA PNG, left half transparent",
                points: [(100, 180, background), (310, 180, background), (330, 180, [255, 255, 0])]),
            Expectation(name: "grayscale JPEG", points: [(320, 180, [200, 200, 200])]),
        ]

        let movie = dir.path("mixed.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath,
            [folder, "-o", movie, "--size", "640x360", "--background", "#336699", "--crf", "8"])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try Judge.stream(of: movie)
        #expect(stream.width == 640 && stream.height == 360)
        #expect(stream.frameCount == expectations.count)
        #expect(try Judge.decodeErrors(of: movie) == "")
        let decoded = try Judge.decodedRGB(of: movie)
        try #require(decoded.frames.count == expectations.count)
        for (frame, expectation) in zip(decoded.frames, expectations) {
            for point in expectation.points {
                let seen = Self.rgb(frame, width: 640, point.x, point.y)
                let error = zip(seen, point.colour).map { abs($0 - $1) }.max()!
                #expect(error <= 8, "\(expectation.name) at \(point.x),\(point.y): \(seen), expected \(point.colour)")
            }
        }
    }

    @Test func anOdd641x361ImageGivesA642x362MovieWithItsPixelsIntact() throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("odd.png")
        // Vertical stripes one pixel wide alternate black and white: any scaling would blur them.
        try Self.draw(
            "nullsrc=s=641x361,geq=r='255*mod(X,2)':g='255*mod(X,2)':b='255*mod(Y,2)'", pixelFormat: "rgb24",
            to: image)
        let movie = dir.path("odd.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [image, "-o", movie, "--crf", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("size 641x361 rounded to 642x362"), "\(result.stderr)")
        let stream = try Judge.stream(of: movie)
        #expect(stream.width == 642 && stream.height == 362)
        #expect(try Judge.decodeErrors(of: movie) == "")
        // Luma of the lossless movie: the stripes stay one pixel wide (luma is not subsampled), and
        // the extra column and row are the black background.
        let luma = try ExternalTool.runForData(
            "ffmpeg", ["-v", "error", "-i", movie, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        try #require(luma.count == 642 * 362 * 3 / 2)
        let bytes = [UInt8](luma.prefix(642 * 362))  // the Y plane, as coded
        var worst = 0
        for y in 0..<361 {
            for x in 0..<641 {
                // BT.709 limited luma of (255*X%2, 255*X%2, 255*Y%2).
                let r = 255.0 * Double(x % 2)
                let b = 255.0 * Double(y % 2)
                let expected = 16 + (219 * (0.2126 * r + 0.7152 * r + 0.0722 * b) / 255).rounded()
                worst = max(worst, abs(Int(bytes[y * 642 + x]) - Int(expected)))
            }
        }
        #expect(worst <= 1, "image luma within 1 code of the 1:1 source, worst \(worst)")
        #expect((0..<361).allSatisfy { bytes[$0 * 642 + 641] == 16 }, "the added column is black")
        #expect((0..<642).allSatisfy { bytes[361 * 642 + $0] == 16 }, "the added row is black")
    }

    /// A first image past what many players decode (H.264 beyond level 5.2) makes a movie of its own
    /// size, with advice naming a size of its shape; a size given, or a movie at the limit, gets none.
    @Test func aMovieTooLargeForManyPlayersComesWithAdvice() throws {
        let dir = try TemporaryDirectory()
        for (name, size) in [("large", "4200x2400"), ("limit", "4096x2304")] {
            try Self.draw("testsrc2=s=\(size)", pixelFormat: "rgb24", to: dir.path("\(name).png"))
        }
        func flipbook(_ image: String, _ extra: [String] = []) throws -> (ToolResult, String) {
            let movie = dir.path("\(image)-\(extra.count).mp4")
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath, [dir.path("\(image).png"), "-o", movie, "--preset", "ultrafast"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            return (result, movie)
        }
        let (large, movie) = try flipbook("large")
        #expect(
            large.stderr.contains(
                "warning: the movie is 4200x2400, the first image's size: H.264 past 4096x2304 (level 5.2)"),
            "\(large.stderr)")
        #expect(large.stderr.contains("--size 3780x2160 keeps the images' shape"), "\(large.stderr)")
        // The premise, from ffprobe: the movie has the image's size, at a level past 5.2.
        let stream = try Judge.stream(of: movie)
        #expect(stream.width == 4200 && stream.height == 2400)
        let level = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=level", "-of", "csv=p=0", movie])
        #expect((Int(level.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 52, "\(level.stdout)")
        let (given, _) = try flipbook("large", ["--size", "4200x2400"])
        #expect(!given.stderr.contains("warning"), "\(given.stderr)")
        let (limit, _) = try flipbook("limit")
        #expect(!limit.stderr.contains("warning"), "\(limit.stderr)")
        let (quiet, _) = try flipbook("large", ["-q"])
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    /// A JPEG, PNG, TIFF, WebP or HEIC whose ICC profile is Adobe RGB (1998) (Debian's icc-profiles-free,
    /// named so by ExifTool) is converted, counted under that name in `--json`'s `colourConversions`,
    /// without a warning; with `--colour-management off` it makes its movie with a warning naming the
    /// space, on stderr and in `--json`; an sRGB profile, or none, gives no warning and no conversion,
    /// and `-q` prints nothing.
    @Test func photosInAWiderSpaceThanSRGBAreConvertedOrComeWithAWarning() throws {
        let dir = try TemporaryDirectory()
        func pillow(_ profile: String?, to path: String) throws {
            let icc = profile.map { ", icc_profile=open('/usr/share/color/icc/\($0).icc', 'rb').read()" } ?? ""
            let made = try ExternalTool.run(
                "/usr/bin/python3",
                [
                    "-c",
                    "import sys; from PIL import Image; Image.new('RGB', (64, 48), (200, 40, 40)).save(sys.argv[1]\(icc))",
                    path,
                ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        func heic(from png: String, to path: String) throws {
            let made = try ExternalTool.run("heif-enc", ["-q", "80", "-o", path, png])
            #expect(made.status == 0, "\(made.stderr)")
        }
        try pillow("compatibleWithAdobeRGB1998", to: dir.path("adobe.jpg"))
        try pillow("sRGB", to: dir.path("srgb.jpg"))
        try pillow("compatibleWithAdobeRGB1998", to: dir.path("adobe.png"))
        try pillow(nil, to: dir.path("plain.png"))
        try pillow("compatibleWithAdobeRGB1998", to: dir.path("adobe.tif"))
        try pillow("compatibleWithAdobeRGB1998", to: dir.path("adobe.webp"))
        try pillow("sRGB", to: dir.path("srgb.png"))
        try heic(from: dir.path("adobe.png"), to: dir.path("adobe.heic"))
        try heic(from: dir.path("plain.png"), to: dir.path("plain.heic"))
        for name in ["adobe.jpg", "adobe.heic", "adobe.png", "adobe.tif", "adobe.webp"] {
            let photo = dir.path(name)
            let described = try ExternalTool.run("exiftool", ["-s3", "-ProfileDescription", photo])
            #expect(described.stdout.contains("Adobe RGB (1998)"), "\(name): \(described.stdout)")
            let movie = dir.path("\(name).mp4")
            let converted = try ExternalTool.run(
                ExternalTool.flipbookPath, [photo, "-o", dir.path("\(name).managed.mp4"), "--json"])
            #expect(converted.status == 0 && !converted.stderr.contains("warning"), "\(converted.stderr)")
            let counts = try JSONSerialization.jsonObject(with: Data(converted.stdout.utf8)) as? [String: Any]
            #expect(
                counts?["colourConversions"] as? [String: Int] == ["Adobe RGB (1998)": 1], "\(converted.stdout)")
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath, [photo, "-o", movie, "--json", "--colour-management", "off"])
            #expect(result.status == 0, "\(result.stderr)")
            let warning =
                "\(photo) has a colour profile of Adobe RGB (1998); with colour management off every image is read as sRGB"
            #expect(result.stderr.contains("flipbook: warning: \(warning)"), "\(result.stderr)")
            let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(
                (summary?["warnings"] as? [String])?.contains { $0.hasPrefix(warning) } == true, "\(result.stdout)")
            #expect(try Judge.stream(of: movie).width == 64)
        }
        for name in ["srgb.jpg", "plain.heic", "srgb.png", "plain.png"] {
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath, [dir.path(name), "-o", dir.path("\(name).mp4"), "--json"])
            #expect(result.status == 0 && !result.stderr.contains("warning"), "\(name): \(result.stderr)")
            #expect(!result.stdout.contains("colourConversions"), "\(name): \(result.stdout)")
        }
        let quiet = try ExternalTool.run(
            ExternalTool.flipbookPath, [dir.path("adobe.jpg"), "-o", dir.path("q.mp4"), "-q"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}
