import FlipbookTestSupport
import Foundation
import Testing

/// OpenEXR renders in, judged from outside: files written by OpenEXR's own library (its Python binding,
/// as renderers write them: half and float, scanline and tiled, every compression OpenEXR 3.1's C library
/// decodes, data windows, alpha, luminance), made into lossless FFV1 movies, and the movies' pixels compared with ffmpeg's own EXR
/// decoder showing the same file through the sRGB curve (`-apply_trc iec61966_2_1`), or, for exposure,
/// with the curve applied to ffmpeg's linear decode. The Python binding lives in `.build/heif-venv`,
/// which `make test` creates.
@Suite(.enabled(if: OpenEXRFiles.python != nil, "OpenEXR's Python binding is missing: run make test"))
struct OpenEXRInputTests {
    static let width = 96
    static let height = 64

    /// A movie of `image` through the tool as lossless 8-bit RGB FFV1, its first frame's RGB bytes.
    static func moviePixels(of image: String, in dir: TemporaryDirectory, _ options: [String] = []) throws -> [UInt8] {
        let movie = dir.path("movie-\(UUID().uuidString).mkv")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [image, "-o", movie, "--codec", "ffv1", "-q"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try Judge.decodedRGB(of: movie).frames.first)
    }

    /// ffmpeg's decode of `image` through the sRGB curve, rounded from 16 to 8 bits.
    static func ffmpegPixels(of image: String) throws -> [UInt8] {
        let data = try ExternalTool.runForData(
            "ffmpeg",
            ["-v", "error", "-apply_trc", "iec61966_2_1", "-i", image, "-pix_fmt", "rgb48le", "-f", "rawvideo", "-"])
        return data.withUnsafeBytes { raw in
            raw.bindMemory(to: UInt16.self).map { UInt8((Double(UInt16(littleEndian: $0)) / 257).rounded()) }
        }
    }

    /// ffmpeg's linear decode of `image` (RGB floats, interleaved).
    static func ffmpegLinear(of image: String) throws -> [Float] {
        let data = try ExternalTool.runForData(
            "ffmpeg", ["-v", "error", "-i", image, "-pix_fmt", "gbrpf32le", "-f", "rawvideo", "-"])
        let planes = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let count = planes.count / 3
        // gbrp: the planes are G, B, R.
        return (0..<count).flatMap { [planes[2 * count + $0], planes[$0], planes[count + $0]] }
    }

    /// The sRGB curve, as IEC 61966-2-1 gives it, on a value clipped to 0...1, to 8 bits.
    static func srgb(_ value: Float) -> UInt8 {
        let clipped = Double(min(max(value, 0), 1))
        let encoded = clipped <= 0.003_130_8 ? clipped * 12.92 : 1.055 * pow(clipped, 1 / 2.4) - 0.055
        return UInt8((encoded * 255).rounded())
    }

    /// The largest and mean absolute differences between two pictures' samples.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> (largest: Int, mean: Double) {
        let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
        return (differences.max() ?? 0, Double(differences.reduce(0, +)) / Double(max(differences.count, 1)))
    }

    @Test(
        arguments: ["none", "rle", "zips", "zip", "piz", "pxr24", "b44", "b44a", "dwaa", "dwab"], ["scanline", "tiled"])
    func everyCompressionScanlineOrTiledShowsWhatFFmpegDecodes(compression: String, storage: String) throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("render.exr")
        try OpenEXRFiles.write(
            image, compression: compression, storage: storage, width: Self.width, height: Self.height)
        let ours = try Self.moviePixels(of: image, in: dir)
        let theirs = try Self.ffmpegPixels(of: image)
        #expect(
            ours.count == Self.width * Self.height * 3 && theirs.count == ours.count, "\(ours.count), \(theirs.count)")
        let difference = Self.difference(ours, theirs)
        #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(compression) \(storage): \(difference)")
    }

    @Test(arguments: [1.0, -1.5, 3.0])
    func exposureScalesTheLightBeforeTheCurve(stops: Double) throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("render.exr")
        try OpenEXRFiles.write(image, compression: "zip", storage: "scanline", width: Self.width, height: Self.height)
        let ours = try Self.moviePixels(of: image, in: dir, ["--exposure", String(stops)])
        let expected = try Self.ffmpegLinear(of: image).map { Self.srgb($0 * Float(pow(2, stops))) }
        let difference = Self.difference(ours, expected)
        #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(stops) EV: \(difference)")
        #expect(ours != (try Self.moviePixels(of: image, in: dir)), "the exposure changed nothing")
    }

    /// `--view filmic` is Hable's filmic curve with his exposure bias of 2 and white at 11.2, on each
    /// pixel's brightest channel: what ffmpeg's `tonemap=hable:desat=0:peak=11.2` makes of the same render
    /// at twice its light, through zimg's sRGB curve, within two levels; highlights the standard view clips
    /// keep their differences.
    @Test func theFilmicViewIsHablesCurveAsFFmpegTonemapsIt() throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("render.exr")
        try OpenEXRFiles.write(image, compression: "zip", storage: "scanline", width: Self.width, height: Self.height)
        let doubled = dir.path("doubled.exr")
        let script = """
            import sys, numpy as np, OpenEXR
            c = OpenEXR.File(sys.argv[1], separate_channels=True).channels()
            OpenEXR.File({"compression": OpenEXR.ZIP_COMPRESSION, "type": OpenEXR.scanlineimage},
                         {n: np.ascontiguousarray(c[n].pixels.astype(np.float32) * 2) for n in "RGB"}).write(sys.argv[2])
            """
        let made = try ExternalTool.run(try #require(OpenEXRFiles.python), ["-c", script, image, doubled])
        #expect(made.status == 0, "\(made.stderr)")
        let ours = try Self.moviePixels(of: image, in: dir, ["--view", "filmic"])
        let theirs = [UInt8](
            try ExternalTool.runForData(
                "ffmpeg",
                [
                    "-v", "error", "-i", doubled, "-vf",
                    "format=gbrpf32le,tonemap=tonemap=hable:desat=0:peak=11.2,"
                        + "zscale=tin=linear:t=iec61966-2-1:pin=709:p=709,format=rgb24",
                    "-f", "rawvideo", "-",
                ]))
        #expect(ours.count == Self.width * Self.height * 3 && theirs.count == ours.count)
        let difference = Self.difference(ours, theirs)
        #expect(difference.largest <= 2 && difference.mean <= 0.7, "\(difference)")
        let standard = try Self.moviePixels(of: image, in: dir)
        let clipped = (0..<(ours.count / 3)).filter { pixel in
            standard[3 * pixel..<3 * pixel + 3].allSatisfy { $0 == 255 }
        }
        #expect(clipped.count > 100, "the standard view clips the render's highlights")
        #expect(Set(clipped.map { ours[3 * $0 + 1] }).count > 10, "the filmic view keeps them apart")
    }

    /// A render with a depth channel beside its colour (`B`, `G`, `R`, `Z`: four channels, three of them
    /// the picture) shows its colour, scanline or tiled, compressed or not. OpenEXRCore 3.1.5's own
    /// routine for four channels wrote through the depth channel's null destination and crashed here.
    @Test(arguments: ["none", "zip", "piz"], ["scanline", "tiled"])
    func aDepthChannelBesideTheColourIsLeftOut(compression: String, storage: String) throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("render.exr")
        try OpenEXRFiles.write(
            image, compression: compression, storage: storage, width: Self.width, height: Self.height,
            channels: "RGBZ")
        let ours = try Self.moviePixels(of: image, in: dir)
        let theirs = try Self.ffmpegPixels(of: image)
        #expect(ours.count == Self.width * Self.height * 3 && theirs.count == ours.count)
        let difference = Self.difference(ours, theirs)
        #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(compression) \(storage): \(difference)")
    }

    /// A data window inside a larger display window: the picture is the display window, black where
    /// the render has no pixels, the render's pixels where ffmpeg places them; through OpenEXRCore
    /// (PIZ) and through OpenEXR's C++ library (DWAA).
    @Test(arguments: ["piz", "dwaa"])
    func theDataWindowIsPlacedInTheDisplayWindow(compression: String) throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("cropped.exr")
        try OpenEXRFiles.write(
            image, compression: compression, storage: "scanline", width: Self.width, height: Self.height,
            dataWindow: (10, 6, 70, 50))
        let ours = try Self.moviePixels(of: image, in: dir)
        #expect(ours.count == Self.width * Self.height * 3)
        #expect(ours[0..<3] == [0, 0, 0], "outside the data window is black")
        let theirs = try Self.ffmpegPixels(of: image)
        let difference = Self.difference(ours, theirs)
        #expect(difference.largest <= 1, "\(difference)")
    }

    /// A luminance file (a `Y` channel alone) is grey; a picture with alpha (associated in OpenEXR) is
    /// composited over the background in linear light, before the curve.
    @Test func luminanceIsGreyAndAssociatedAlphaIsDividedOut() throws {
        let dir = try TemporaryDirectory()
        let grey = dir.path("grey.exr")
        try OpenEXRFiles.write(grey, compression: "zip", storage: "scanline", width: 32, height: 16, channels: "Y")
        let greyPixels = try Self.moviePixels(of: grey, in: dir)
        let linear = try OpenEXRFiles.values(of: grey, channel: "Y")
        for (index, value) in linear.enumerated() {
            let expected = Self.srgb(value)
            #expect(
                greyPixels[3 * index..<3 * index + 3].allSatisfy { abs(Int($0) - Int(expected)) <= 1 },
                "pixel \(index): \(greyPixels[3 * index..<3 * index + 3]) for \(expected)")
        }
        let covered = dir.path("covered.exr")
        try OpenEXRFiles.write(
            covered, compression: "zip", storage: "scanline", width: 32, height: 16, channels: "RGBA")
        let pixels = try Self.moviePixels(of: covered, in: dir, ["--background", "white"])
        let (red, alpha) = (
            try OpenEXRFiles.values(of: covered, channel: "R"), try OpenEXRFiles.values(of: covered, channel: "A")
        )
        var partlyCovered = 0
        for index in stride(from: 0, to: red.count, by: 7) {
            // Associated colour over white (linear 1.0) in linear light, then the curve.
            let coverage = min(max(alpha[index], 0), 1)
            if coverage > 0.05 && coverage < 0.95 { partlyCovered += 1 }
            let expected = Self.srgb(red[index] + (1 - coverage))
            #expect(
                abs(Int(pixels[3 * index]) - Int(expected)) <= 1, "pixel \(index): \(pixels[3 * index]) for \(expected)"
            )
        }
        #expect(partlyCovered > 10, "the picture has soft edges to composite")
    }

    @Test func aFileWithNoPictureChannelsOrCutShortIsNamedAndNothingIsWritten() throws {
        let dir = try TemporaryDirectory()
        let depth = dir.path("depth.exr")
        try OpenEXRFiles.write(depth, compression: "zip", storage: "scanline", width: 16, height: 16, channels: "Z")
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [depth, "-o", movie])
        #expect(result.status == 1)
        #expect(result.stderr.contains("depth.exr") && result.stderr.contains("(it has Z)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))

        let whole = dir.path("whole.exr")
        for compression in ["piz", "dwab"] {
            try OpenEXRFiles.write(whole, compression: compression, storage: "tiled", width: 64, height: 64)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            let cut = dir.path("cut.exr")
            try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
            let cutResult = try ExternalTool.run(ExternalTool.flipbookPath, [cut, "-o", movie])
            #expect(cutResult.status == 1)
            #expect(
                cutResult.stderr.contains("cut.exr") && cutResult.stderr.contains("OpenEXR"), "\(cutResult.stderr)")
            #expect(
                cutResult.stderr.contains("cannot be decoded"), "a sentence of Flipbook's own: \(cutResult.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }
}

/// OpenEXR files written by OpenEXR's own library through its Python binding (in `.build/heif-venv`).
enum OpenEXRFiles {
    static let python: String? = {
        var folder = ExternalTool.productsDirectory
        while folder.lastPathComponent != ".build" && folder.path != "/" { folder.deleteLastPathComponent() }
        let python = folder.appendingPathComponent("heif-venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python),
            (try? ExternalTool.run(python, ["-c", "import OpenEXR"]).status) == 0
        else { return nil }
        return python
    }()

    /// A render-like picture: a colour ramp across, light rising down past 1.0 (highlights to 6.0),
    /// a few negative and very bright specks, in half precision (float for `pxr24`'s 24-bit floats);
    /// alpha a soft disc. `dataWindow` is x0, y0, x1, y1 inside the `width x height` display window.
    static func write(
        _ path: String, compression: String, storage: String, width: Int, height: Int, channels: String = "RGB",
        dataWindow: (Int, Int, Int, Int)? = nil
    ) throws {
        let window = dataWindow ?? (0, 0, width - 1, height - 1)
        let script = """
            import sys, numpy as np, OpenEXR
            path, compression, storage, channels = sys.argv[1:5]
            width, height, x0, y0, x1, y1 = map(int, sys.argv[5:11])
            w, h = x1 - x0 + 1, y1 - y0 + 1
            y, x = np.mgrid[0:h, 0:w].astype(np.float32)
            light = 0.02 + 6.0 * (y / max(h - 1, 1)) ** 2
            r = light * (0.2 + 0.8 * x / max(w - 1, 1))
            g = light * (0.5 + 0.4 * np.sin(x / 5.0))
            b = light * (1.0 - 0.7 * x / max(w - 1, 1))
            r[::7, ::11] = -0.25
            g[3::13, 5::9] = 40.0
            a = np.clip(1.2 - np.hypot(x - w / 2, y - h / 2) / (0.5 * min(w, h)), 0, 1)
            kind = np.float32 if compression == "pxr24" else np.float16
            planes = {"R": r * a if "A" in channels else r, "G": g * a if "A" in channels else g,
                      "B": b * a if "A" in channels else b, "A": a, "Y": 0.3 * r + 0.6 * g + 0.1 * b, "Z": 10 + y}
            header = {"compression": getattr(OpenEXR, compression.upper() + "_COMPRESSION" if compression != "none" else "NO_COMPRESSION"),
                      "type": OpenEXR.tiledimage if storage == "tiled" else OpenEXR.scanlineimage,
                      "dataWindow": (np.array([x0, y0], dtype=np.int32), np.array([x1, y1], dtype=np.int32)),
                      "displayWindow": (np.array([0, 0], dtype=np.int32), np.array([width - 1, height - 1], dtype=np.int32))}
            if storage == "tiled":
                tiles = OpenEXR.TileDescription()
                tiles.xSize, tiles.ySize, tiles.mode, tiles.roundingMode = 32, 16, OpenEXR.ONE_LEVEL, OpenEXR.ROUND_DOWN
                header["tiles"] = tiles
            OpenEXR.File(header, {name: np.ascontiguousarray(planes[name].astype(kind)) for name in channels}).write(path)
            """
        let result = try ExternalTool.run(
            try #require(python),
            [
                "-c", script, path, compression, storage, channels, String(width), String(height), String(window.0),
                String(window.1), String(window.2), String(window.3),
            ])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// One channel's values of the whole picture as OpenEXR's library reads them back, row after row.
    static func values(of path: String, channel: String) throws -> [Float] {
        let script = """
            import sys, numpy as np, OpenEXR
            values = OpenEXR.File(sys.argv[1], separate_channels=True).channels()[sys.argv[2]].pixels.astype(np.float32)
            sys.stdout.buffer.write(values.tobytes())
            """
        let data = try ExternalTool.runForData(try #require(python), ["-c", script, path, channel])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
