import FlipbookTestSupport
import Foundation
import Testing

/// Multi-part, multi-layer and luminance-chroma OpenEXR files as renderers and OpenEXR's own sample set
/// have them (`Tests/OpenEXR`: the OpenEXR project's Beachball stereo render in ten parts, its Rec709 and
/// Rec709_YC twins and its Damaged folder; a Blender 3.4 MultiLayer render), made into lossless FFV1
/// movies. The judges are OpenEXR's own library reading the same part (its Python binding) and ffmpeg's
/// EXR decoder with `-layer`; the sample set's RGB twin for the luminance-chroma file.
@Suite(.enabled(if: OpenEXRFiles.python != nil, "OpenEXR's Python binding is missing: run make test"))
struct OpenEXRLayerTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("OpenEXR")

    static func sample(_ path: String) -> String { samples.appendingPathComponent(path).path }

    /// OpenEXR's library's reading of parts `parts` of `image` (by name): each one's R, G and B over black
    /// (OpenEXR's alpha is associated, so that is R, G and B as they are) placed in the display window,
    /// through the sRGB curve, 8 bits.
    static func libraryPixels(of image: String, parts: [String]) throws -> [[UInt8]] {
        let script = """
            import sys, numpy as np, OpenEXR
            f = OpenEXR.File(sys.argv[1], separate_channels=True)
            for name in sys.argv[2:]:
                part = next(p for p in f.parts if p.name() == name)
                (dx0, dy0), (dx1, dy1) = part.header["displayWindow"]
                (x0, y0), (x1, y1) = part.header["dataWindow"]
                out = np.zeros((dy1 - dy0 + 1, dx1 - dx0 + 1, 3))
                for i, c in enumerate("RGB"):
                    out[y0 - dy0:y1 - dy0 + 1, x0 - dx0:x1 - dx0 + 1, i] = part.channels[c].pixels
                v = np.clip(np.nan_to_num(out), 0, 1)
                v = np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)
                sys.stdout.buffer.write(np.round(v * 255).astype(np.uint8).tobytes())
            """
        let bytes = [UInt8](
            try ExternalTool.runForData(try #require(OpenEXRFiles.python), ["-c", script, image] + parts))
        let size = bytes.count / max(parts.count, 1)
        return (0..<parts.count).map { Array(bytes[$0 * size..<($0 + 1) * size]) }
    }

    /// ffmpeg's decode of layer `layer` of `image` through the sRGB curve, 8 bits.
    static func ffmpegPixels(of image: String, layer: String) throws -> [UInt8] {
        let data = try ExternalTool.runForData(
            "ffmpeg",
            [
                "-v", "error", "-layer", layer, "-apply_trc", "iec61966_2_1", "-i", image, "-pix_fmt", "rgb48le", "-f",
                "rawvideo", "-",
            ])
        return data.withUnsafeBytes { raw in
            raw.bindMemory(to: UInt16.self).map { UInt8((Double(UInt16(littleEndian: $0)) / 257).rounded()) }
        }
    }

    /// Peak signal-to-noise ratio in dB between two 8-bit pictures, over every sample or one channel of three.
    static func psnr(_ a: [UInt8], _ b: [UInt8], channel: Int? = nil) -> Double {
        var total = 0.0
        var count = 0
        for index in 0..<min(a.count, b.count) where channel == nil || index % 3 == channel {
            let difference = Double(a[index]) - Double(b[index])
            total += difference * difference
            count += 1
        }
        return 10 * log10(255 * 255 / max(total / Double(max(count, 1)), 1e-9))
    }

    /// Blender's MultiLayer file: its beauty pass (`ViewLayer.Combined`) by default, any pass with R, G
    /// and B by name, each as ffmpeg's `-layer` decodes it; a pass that is no picture (depth, normals) or
    /// no pass at all is refused with the pictures the file has, and nothing is written.
    @Test func blenderMultiLayerShowsCombinedByDefaultAndAnyColourPassByName() throws {
        let dir = try TemporaryDirectory()
        let image = Self.sample("Blender/multilayer.0001.exr")
        for (options, layer) in [
            ([String](), "ViewLayer.Combined"), (["--layer", "ViewLayer.DiffCol"], "ViewLayer.DiffCol"),
        ] {
            let ours = try OpenEXRInputTests.moviePixels(of: image, in: dir, options)
            let theirs = try Self.ffmpegPixels(of: image, layer: layer)
            #expect(ours.count == 96 * 54 * 3 && theirs.count == ours.count, "\(ours.count), \(theirs.count)")
            let difference = OpenEXRInputTests.difference(ours, theirs)
            #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(layer): \(difference)")
        }
        for missing in ["ViewLayer.Normal", "ViewLayer.Depth", "Beauty"] {
            let movie = dir.path("out-\(missing).mp4")
            let result = try ExternalTool.run(ExternalTool.flipbookPath, [image, "-o", movie, "--layer", missing])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("multilayer.0001.exr")
                    && result.stderr.contains("no layer or part named \(missing)")
                    && result.stderr.contains("ViewLayer.Combined, ViewLayer.DiffCol"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }

    /// A luminance-chroma file (`Y` with `RY` and `BY` sampled every 2 x 2 pixels) is its picture in
    /// colour: close to the sample set's RGB twin of it as OpenEXR's library reads that (its chroma is a
    /// quarter of the twin's), far from the grey picture its `Y` alone would give.
    @Test func luminanceChromaIsItsPictureInColour() throws {
        let dir = try TemporaryDirectory()
        let ours = try OpenEXRInputTests.moviePixels(of: Self.sample("Chromaticities/Rec709_YC.exr"), in: dir)
        let twinImage = Self.sample("Chromaticities/Rec709.exr")
        let twin = try OpenEXRInputTests.moviePixels(of: twinImage, in: dir)
        let script = """
            import sys, numpy as np, OpenEXR
            c = OpenEXR.File(sys.argv[1], separate_channels=True).channels()
            v = np.clip(np.stack([c[n].pixels.astype(np.float64) for n in "RGB"], -1), 0, 1)
            v = np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)
            sys.stdout.buffer.write(np.round(v * 255).astype(np.uint8).tobytes())
            """
        let library = [UInt8](
            try ExternalTool.runForData(try #require(OpenEXRFiles.python), ["-c", script, twinImage]))
        #expect(ours.count == 610 * 406 * 3 && library.count == ours.count, "\(ours.count), \(library.count)")
        #expect(
            OpenEXRInputTests.difference(twin, library).largest <= 1, "the RGB twin is read as the library reads it")
        let whole = Self.psnr(ours, library)
        let channels = (0..<3).map { Self.psnr(ours, library, channel: $0) }
        #expect(whole >= 34 && channels.allSatisfy { $0 >= 30 }, "\(whole) dB, R G B \(channels)")
        let luminance = try OpenEXRFiles.values(of: Self.sample("Chromaticities/Rec709_YC.exr"), channel: "Y")
        let grey = luminance.flatMap { value in Array(repeating: OpenEXRInputTests.srgb(value), count: 3) }
        #expect(Self.psnr(grey, library) < whole - 10, "grey: \(Self.psnr(grey, library)) dB, ours \(whole) dB")
    }

    /// The `chromaticities` attribute is honoured: the sample set's `XYZ.exr` (its pixels in CIE XYZ,
    /// primaries at the diagram's corners) makes the movie its twin `Rec709.exr` makes, in a BT.709 and in a
    /// Display P3 movie (its light made the movie's primaries before the view), far from its XYZ values
    /// shown as they are.
    @Test func theChromaticitiesAttributeIsHonoured() throws {
        let dir = try TemporaryDirectory()
        let xyz = Self.sample("Chromaticities/XYZ.exr")
        let rec709 = Self.sample("Chromaticities/Rec709.exr")
        for options in [[String](), ["--colour", "p3"]] {
            let converted = try OpenEXRInputTests.moviePixels(of: xyz, in: dir, options)
            let twin = try OpenEXRInputTests.moviePixels(of: rec709, in: dir, options)
            #expect(converted.count == twin.count && !twin.isEmpty)
            #expect(Self.psnr(converted, twin) >= 50, "\(options): \(Self.psnr(converted, twin)) dB")
        }
        let asTheyAre = try OpenEXRInputTests.moviePixels(of: xyz, in: dir, ["--colour-management", "off"])
        let twin = try OpenEXRInputTests.moviePixels(of: rec709, in: dir, ["--colour-management", "off"])
        #expect(Self.psnr(asTheyAre, twin) < 35, "XYZ shown raw is another picture: \(Self.psnr(asTheyAre, twin)) dB")
    }

    /// Every file of 32 KB or less in the OpenEXR sample set's Damaged folder (fuzzers' finds) is refused
    /// by name without a crash: with `--skip-invalid` each is named as skipped and the movie holds the one
    /// good render after them; without, the first stops the movie and nothing is written.
    @Test func theSampleSetsDamagedFilesAreEachRefusedByName() throws {
        let dir = try TemporaryDirectory()
        let damaged = try FileManager.default.contentsOfDirectory(atPath: Self.sample("Damaged")).sorted().map {
            Self.sample("Damaged/" + $0)
        }
        #expect(damaged.count >= 150)
        let movie = dir.path("skipped.mkv")
        let good = Self.sample("Blender/multilayer.0001.exr")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, damaged + [good, "-o", movie, "--codec", "ffv1", "--skip-invalid"])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let skipped = result.stderr.split(separator: "\n").filter { $0.contains("warning: skipped frame") }
        #expect(skipped.count == damaged.count, "\(skipped.count) skipped of \(damaged.count)")
        for file in damaged {
            #expect(skipped.contains { $0.contains("(\(file)): ") }, "\(file) is not named as skipped")
        }
        #expect(try Judge.frames(of: movie).count == 1)

        for file in damaged.prefix(4) {
            let refused = dir.path("refused.mp4")
            let failed = try ExternalTool.run(ExternalTool.flipbookPath, [file, "-o", refused])
            #expect(failed.status == 1, "\(file): \(failed.status) \(failed.stderr)")
            #expect(failed.stderr.contains(file), "\(failed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: refused))
        }
    }
}

/// The OpenEXR project's Beachball stereo render in ten parts, 2048x1556: its first part by default and
/// any part by name, against OpenEXR's own library reading those parts. A long suite (two pictures of
/// three megapixels through the debug build): its C calls are the ones ``OpenEXRLayerTests`` and the
/// multi-part fuzz seeds make under the sanitizers.
@Suite(.enabled(if: OpenEXRFiles.python != nil, "OpenEXR's Python binding is missing: run make test"))
struct OpenEXRMultiPartTests {
    /// The Beachball stereo render in ten parts: with no `--layer` the first part (`rgba_right`), with
    /// `--layer rgba_left` the fifth, each as OpenEXR's library reads that part (ffmpeg 5.1's `-part 4`
    /// decodes that one wrongly: not a judge here). Data windows differ between the parts.
    @Test func theFirstPartByDefaultAndAnyPartByName() throws {
        let dir = try TemporaryDirectory()
        let image = OpenEXRLayerTests.sample("Beachball/multipart.0001.exr")
        let library = try OpenEXRLayerTests.libraryPixels(of: image, parts: ["rgba_right", "rgba_left"])
        let right = try OpenEXRInputTests.moviePixels(of: image, in: dir)
        let left = try OpenEXRInputTests.moviePixels(of: image, in: dir, ["--layer", "rgba_left"])
        for (ours, theirs, part) in [(right, library[0], "rgba_right"), (left, library[1], "rgba_left")] {
            #expect(ours.count == 2048 * 1556 * 3 && theirs.count == ours.count, "\(ours.count), \(theirs.count)")
            let difference = OpenEXRInputTests.difference(ours, theirs)
            #expect(difference.largest <= 2 && difference.mean <= 0.1, "\(part): \(difference)")
        }
        #expect(OpenEXRInputTests.difference(left, right).mean > 1, "the two views are different pictures")
    }

}
