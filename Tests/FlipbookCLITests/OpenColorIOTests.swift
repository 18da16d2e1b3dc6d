import FlipbookTestSupport
import Foundation
import Testing

/// OpenColorIO views (`--ocio`, `$OCIO`, `--input-colourspace`, `--display`, `--view`), judged by
/// OpenColorIO's own Python binding (2.2, from PyPI, in `.build/heif-venv`) applying the same display
/// transform of the same config to OpenEXR's reading of the same render. The config is the ACES 1.3 CG
/// config (`cg-config-v1.0.0_aces-v1.3_ocio-v2.1`) as OpenColorIO 2.2 has it built in, written out as a
/// `.ocio` file, which Flipbook's OpenColorIO 2.1 reads.
@Suite(.enabled(if: OpenEXRFiles.hasOpenColorIO, "OpenColorIO's Python binding is missing: run make test"))
struct OpenColorIOTests {
    /// The ACES CG config written to `dir`.
    static func config(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("aces-cg.ocio")
        let script = """
            import sys, PyOpenColorIO as ocio
            config = ocio.Config.CreateFromBuiltinConfig("cg-config-v1.0.0_aces-v1.3_ocio-v2.1")
            open(sys.argv[1], "w").write(config.serialize())
            """
        let made = try ExternalTool.run(try #require(OpenEXRFiles.python), ["-c", script, path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// OpenColorIO's own rendering of `render` from `input` to `display`'s `view` after `stops` of
    /// exposure, 8 bits.
    static func expected(
        _ render: String, config: String, input: String, display: String, view: String, stops: Double = 0
    ) throws -> [UInt8] {
        let script = """
            import sys, numpy as np, OpenEXR, PyOpenColorIO as ocio
            render, path, source, display, view, stops = sys.argv[1:7]
            config = ocio.Config.CreateFromFile(path)
            transform = ocio.DisplayViewTransform()
            transform.setSrc(source); transform.setDisplay(display); transform.setView(view)
            processor = config.getProcessor(transform).getDefaultCPUProcessor()
            c = OpenEXR.File(render, separate_channels=True).channels()
            rgb = np.ascontiguousarray(np.stack([c[n].pixels.astype(np.float32) for n in "RGB"], -1) * 2 ** float(stops))
            processor.applyRGB(rgb)
            sys.stdout.buffer.write(np.round(np.clip(np.nan_to_num(rgb), 0, 1) * 255).astype(np.uint8).tobytes())
            """
        return [UInt8](
            try ExternalTool.runForData(
                try #require(OpenEXRFiles.python),
                ["-c", script, render, config, input, display, view, String(stops)]))
    }

    static func render(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("render.exr")
        try OpenEXRFiles.write(path, compression: "zip", storage: "scanline", width: 96, height: 64)
        return path
    }

    /// The config's defaults (its `scene_linear` role, ACEScg; its default display, sRGB; that display's
    /// default view, ACES 1.0 SDR Video), and another display, view and colour space with exposure, are
    /// what OpenColorIO makes of the render, within one level.
    @Test func aConfigsViewIsWhatOpenColorIOMakesOfTheRender() throws {
        let dir = try TemporaryDirectory()
        let config = try Self.config(in: dir)
        let render = try Self.render(in: dir)
        let cases: [([String], String, String, String, Double)] = [
            ([], "ACEScg", "sRGB - Display", "ACES 1.0 - SDR Video", 0),
            (
                [
                    "--input-colourspace", "Linear Rec.709 (sRGB)", "--display", "Rec.1886 Rec.709 - Display", "--view",
                    "Un-tone-mapped", "--exposure", "-1",
                ], "Linear Rec.709 (sRGB)", "Rec.1886 Rec.709 - Display", "Un-tone-mapped", -1
            ),
        ]
        var movies: [[UInt8]] = []
        for (options, input, display, view, stops) in cases {
            let ours = try OpenEXRInputTests.moviePixels(of: render, in: dir, ["--ocio", config] + options)
            let theirs = try Self.expected(
                render, config: config, input: input, display: display, view: view, stops: stops)
            #expect(ours.count == 96 * 64 * 3 && theirs.count == ours.count)
            let difference = OpenEXRInputTests.difference(ours, theirs)
            #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(display) \(view): \(difference)")
            movies.append(ours)
        }
        #expect(OpenEXRInputTests.difference(movies[0], movies[1]).mean > 5, "the two views differ")
        let standard = try OpenEXRInputTests.moviePixels(of: render, in: dir)
        #expect(OpenEXRInputTests.difference(movies[0], standard).mean > 5, "the config's view is not the standard one")
    }

    /// Blender 3.4's own config, from Debian's `blender-data` (which `make test` installs).
    static let blenderConfig = "/usr/share/blender/datafiles/colormanagement/config.ocio"

    /// Blender's config read as Blender ships it (an OCIO v2 file, its Filmic views made of 1D and 3D LUT
    /// files beside it): its Filmic and Filmic Log views of the sRGB display from Linear (its
    /// `scene_linear` role, the default colour space), with exposure, are what OpenColorIO makes of the
    /// render, within one level; its default view is Standard.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: blenderConfig),
            "Blender's config (Debian's blender-data) is missing: run make test"))
    func blendersFilmicViewIsWhatOpenColorIOMakesOfTheRender() throws {
        let dir = try TemporaryDirectory()
        let render = try Self.render(in: dir)
        var movies: [[UInt8]] = []
        for (view, stops) in [("Filmic", 0.0), ("Filmic Log", 0.0), ("Filmic", 2.0), ("Standard", 0.0)] {
            let options =
                ["--ocio", Self.blenderConfig, "--exposure", String(stops)]
                + (view == "Standard" ? [] : ["--view", view])
            let ours = try OpenEXRInputTests.moviePixels(of: render, in: dir, options)
            let theirs = try Self.expected(
                render, config: Self.blenderConfig, input: "Linear", display: "sRGB", view: view, stops: stops)
            #expect(ours.count == 96 * 64 * 3 && theirs.count == ours.count)
            let difference = OpenEXRInputTests.difference(ours, theirs)
            #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(view) at \(stops) EV: \(difference)")
            movies.append(ours)
        }
        #expect(OpenEXRInputTests.difference(movies[0], movies[1]).mean > 5, "Filmic and Filmic Log differ")
        #expect(OpenEXRInputTests.difference(movies[0], movies[3]).mean > 5, "Filmic is not Standard")
    }

    /// `$OCIO` names the config when `--ocio` does not, as OpenColorIO's own tools read it.
    @Test func theOCIOEnvironmentVariableNamesTheConfig() throws {
        let dir = try TemporaryDirectory()
        let config = try Self.config(in: dir)
        let render = try Self.render(in: dir)
        let movie = dir.path("env.mkv")
        var environment = ProcessInfo.processInfo.environment
        environment["OCIO"] = config
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [render, "-o", movie, "--codec", "ffv1", "-q"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try #require(try Judge.decodedRGB(of: movie).frames.first)
        let theirs = try Self.expected(
            render, config: config, input: "ACEScg", display: "sRGB - Display", view: "ACES 1.0 - SDR Video")
        #expect(OpenEXRInputTests.difference(ours, theirs).largest <= 1)
    }

    /// A name the config does not have is a usage error listing the ones it has; a config that cannot be
    /// read, a display without a config, and a config with an HDR movie are usage errors; OpenColorIO's
    /// own warnings never reach standard error; nothing is written.
    @Test func namesTheConfigLacksAreUsageErrorsListingItsNames() throws {
        let dir = try TemporaryDirectory()
        let config = try Self.config(in: dir)
        let render = try Self.render(in: dir)
        for (options, words) in [
            (["--ocio", config, "--display", "Cinema"], "its displays are sRGB - Display, Rec.1886 Rec.709 - Display"),
            (["--ocio", config, "--view", "Filmic"], "its views are ACES 1.0 - SDR Video, Un-tone-mapped, Raw"),
            (["--ocio", config, "--input-colourspace", "Log"], "its colour spaces are ACES2065-1, ACEScc"),
            (["--ocio", dir.path("missing.ocio")], "cannot be read"),
            (["--display", "sRGB - Display"], "add --ocio CONFIG"),
            (["--view", "Vivid"], "use standard or filmic"),
            (["--ocio", config, "--colour", "pq"], "standard-dynamic-range movie"),
        ] {
            let movie = dir.path("out.mp4")
            let result = try ExternalTool.run(ExternalTool.flipbookPath, [render, "-o", movie] + options)
            #expect(result.status == 2 && result.stderr.contains(words), "\(options): \(result.stderr)")
            #expect(!result.stderr.contains("[OpenColorIO"), "OpenColorIO's own words: \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }
}

extension OpenEXRFiles {
    /// Whether the tests' Python has OpenColorIO's binding.
    static let hasOpenColorIO: Bool = {
        guard let python else { return false }
        return (try? ExternalTool.run(python, ["-c", "import PyOpenColorIO"]).status) == 0
    }()
}
