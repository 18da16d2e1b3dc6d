import FlipbookTestSupport
import Foundation
import Testing

/// OpenImageIO as a second judge of renders and scans (its PyPI wheel in `.build/heif-venv`, which `make
/// test` creates: the Python binding and `oiiotool`, a reader and writer apart from ffmpeg and OpenEXR's
/// own library). OpenEXR files (the OpenEXR project's samples, a Blender MultiLayer render, and one
/// render under every compression, scanline and tiled) shown through the standard view are within a
/// level of OpenImageIO's reading of the same picture through the sRGB curve; DPX files `oiiotool`
/// writes (8 to 16 bits, 10 bits filled and packed, 12 bits packed as it writes them by default, either
/// byte order) are within a level of OpenImageIO's reading of them.
@Suite(.enabled(if: OpenImageIOFiles.python != nil, "OpenImageIO's Python binding is missing: run make test"))
struct OpenImageIOJudgeTests {
    @Test(arguments: [
        ("Tests/OpenEXR/Beachball/multipart.0001.exr", "R,G,B"),
        ("Tests/OpenEXR/Chromaticities/Rec709.exr", "R,G,B"),
        ("Tests/OpenEXR/Blender/multilayer.0001.exr", "ViewLayer.Combined.R,ViewLayer.Combined.G,ViewLayer.Combined.B"),
    ])
    func theSampleRendersShowWhatOpenImageIOReads(file: String, channels: String) throws {
        let dir = try TemporaryDirectory()
        let path = OpenImageIOFiles.repositoryPath(file)
        let ours = try OpenEXRInputTests.moviePixels(of: path, in: dir)
        let theirs = try OpenImageIOFiles.rgb8(of: path, channels: channels, throughSRGBCurve: true)
        #expect(ours.count == theirs.count && !ours.isEmpty, "\(ours.count), \(theirs.count)")
        let difference = OpenEXRInputTests.difference(ours, theirs)
        #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(file): \(difference)")
    }

    @Test(
        arguments: ["none", "rle", "zips", "zip", "piz", "pxr24", "b44", "b44a", "dwaa", "dwab"], ["scanline", "tiled"])
    func everyCompressionShowsWhatOpenImageIOReads(compression: String, storage: String) throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("render.exr")
        try OpenEXRFiles.write(
            image, compression: compression, storage: storage, width: 96, height: 64, channels: "RGBA",
            dataWindow: (5, 3, 90, 60))
        let ours = try OpenEXRInputTests.moviePixels(of: image, in: dir)
        let theirs = try OpenImageIOFiles.rgb8(of: image, channels: "R,G,B", throughSRGBCurve: true)
        #expect(ours.count == 96 * 64 * 3 && theirs.count == ours.count, "\(ours.count), \(theirs.count)")
        let difference = OpenEXRInputTests.difference(ours, theirs)
        #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(compression) \(storage): \(difference)")
    }

    @Test(arguments: [
        ["-d", "uint8"], ["-d", "uint10"], ["-d", "uint10", "--attrib", "dpx:Packing", "Packed"],
        ["-d", "uint10", "--attrib", "dpx:Endian", "little"], ["-d", "uint12"],
        ["-d", "uint12", "--attrib", "dpx:Endian", "little"], ["-d", "uint16"],
    ])
    func theDPXOiiotoolWritesAreWhatOpenImageIOReads(options: [String]) throws {
        let dir = try TemporaryDirectory()
        let image = dir.path("scan.dpx")
        let oiiotool = try #require(OpenImageIOFiles.oiiotool)
        let made = try ExternalTool.run(
            oiiotool,
            [
                "--pattern", "fill:topleft=0.1,0.2,0.9:topright=1,0.5,0:bottomleft=0,1,0.3:bottomright=0.6,0.1,1",
                "96x64", "3",
            ] + options + ["-o", image])
        #expect(made.status == 0, "\(made.stderr)")
        let ours = try OpenEXRInputTests.moviePixels(of: image, in: dir)
        let theirs = try OpenImageIOFiles.rgb8(of: image, channels: "R,G,B", throughSRGBCurve: false)
        #expect(ours.count == 96 * 64 * 3 && theirs.count == ours.count, "\(ours.count), \(theirs.count)")
        let difference = OpenEXRInputTests.difference(ours, theirs)
        #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(options): \(difference)")
    }
}

/// The tests' OpenImageIO: its Python binding and the `oiiotool` its wheel carries.
enum OpenImageIOFiles {
    static let python: String? = {
        guard let python = OpenEXRFiles.python,
            (try? ExternalTool.run(python, ["-c", "import OpenImageIO"]).status) == 0
        else { return nil }
        return python
    }()

    static var oiiotool: String? {
        guard let python else { return nil }
        let tool = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("oiiotool").path
        return FileManager.default.isExecutableFile(atPath: tool) ? tool : nil
    }

    /// A path from the package's root.
    static func repositoryPath(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../\(path)")
            .standardized.path
    }

    /// OpenImageIO's reading of `channels` (comma-separated) of the first subimage of `path`, placed in
    /// its display window (black outside the data window), through the sRGB curve when asked (clipped
    /// to 0...1 first), as 8-bit RGB.
    static func rgb8(of path: String, channels: String, throughSRGBCurve: Bool) throws -> [UInt8] {
        let script = """
            import sys, numpy as np, OpenImageIO as oiio
            path, channels, curve = sys.argv[1], sys.argv[2].split(","), sys.argv[3] == "1"
            # ImageInput rather than ImageBuf: the wheel's ImageBuf mixes up channels of mixed sample types.
            image = oiio.ImageInput.open(path)
            if image is None: sys.exit(oiio.geterror())
            spec = image.spec()
            data = image.read_image(0, 0, 0, spec.nchannels, oiio.FLOAT)
            picked = data[:, :, [list(spec.channelnames).index(name) for name in channels]]
            full = np.zeros((spec.full_height, spec.full_width, len(channels)), np.float64)
            x, y = spec.x - spec.full_x, spec.y - spec.full_y
            full[y:y + spec.height, x:x + spec.width] = picked
            pixels = np.nan_to_num(full.reshape(-1))
            if curve:
                v = np.clip(pixels, 0, 1)
                pixels = np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)
            sys.stdout.buffer.write(np.round(np.clip(pixels, 0, 1) * 255).astype(np.uint8).tobytes())
            """
        return [UInt8](
            try ExternalTool.runForData(
                try #require(python), ["-c", script, path, channels, throughSRGBCurve ? "1" : "0"]))
    }
}
