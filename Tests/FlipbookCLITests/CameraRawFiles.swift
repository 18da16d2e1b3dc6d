import FlipbookTestSupport
import Foundation
import Testing

/// Camera raw files for the tests and their judges: DNGs written by pidng (a DNG writer from PyPI, in
/// `.build/heif-venv`, through `Tests/CameraRaw/dng_writer.py`) from a known mosaic, as a camera's firmware
/// writes its sensor data, and the real
/// cameras' files under `Tests/CameraRaw`; LibRaw's own `dcraw_emu` (Debian's `libraw-bin`) developing
/// the same file at the same settings; and numpy comparing the two at 8 bits after the sRGB curve.
enum CameraRawFiles {
    /// The tests' Python, with numpy, pidng and OpenImageIO.
    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let python = try #require(OpenEXRFiles.python, "the tests' venv (.build/heif-venv): run make test")
        let result = try ExternalTool.run(python, ["-c", script] + arguments)
        guard result.status == 0 else { throw JudgeError(description: "python: \(result.stderr)") }
        return result.stdout
    }

    /// One DNG to make: where, its size, its light, its noise, its orientation and its stated exposure.
    struct DNG: Codable {
        var path: String
        var width = 96
        var height = 64
        var gain = 1.0
        var seed = 1
        var orientation = 1
        /// Seconds, f-number and ISO, stamped as EXIF's ExposureTime, FNumber and PhotographicSensitivity.
        var exposure: [Double]? = nil
    }

    /// A 12-bit RGGB DNG of `width x height` (a ramp of light and colour, 0.6 of white at most, times
    /// `gain`, with sensor noise from `seed`), the camera's colour matrix and white balance as a camera
    /// states them, turned by `orientation` (EXIF's), stamped with `exposure` (seconds, f-number, ISO).
    static func makeDNG(
        _ path: String, width: Int = 96, height: Int = 64, gain: Double = 1, seed: Int = 1, orientation: Int = 1,
        exposure: (seconds: Double, fNumber: Double, iso: Int)? = nil
    ) throws {
        try makeDNGs([
            DNG(
                path: path, width: width, height: height, gain: gain, seed: seed, orientation: orientation,
                exposure: exposure.map { [$0.seconds, $0.fNumber, Double($0.iso)] })
        ])
    }

    /// Each DNG of `files`, as ``makeDNG(_:width:height:gain:seed:orientation:exposure:)`` makes one, in one run.
    static func makeDNGs(_ files: [DNG]) throws {
        let specs = String(decoding: try JSONEncoder().encode(files), as: UTF8.self)
        // Tests/CameraRaw/dng_writer.py: the DNG writer the tests, the fuzz seeds and the benchmark share.
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CameraRaw").path
        _ = try python(
            """
            import sys, json, numpy as np
            sys.path.insert(0, sys.argv[2])
            import dng_writer
            for spec in json.loads(sys.argv[1]):
                width, height = spec["width"], spec["height"]
                rng = np.random.default_rng(spec["seed"])
                y, x = np.mgrid[0:height, 0:width]
                light = {"R": (0.15 + 0.45 * x / width) * 0.5, "G": 0.2 + 0.4 * y / height,
                    "B": (0.5 - 0.3 * x / width) * 0.7}
                raw = np.zeros((height, width))
                raw[0::2, 0::2] = light["R"][0::2, 0::2]
                raw[0::2, 1::2] = light["G"][0::2, 1::2]
                raw[1::2, 0::2] = light["G"][1::2, 0::2]
                raw[1::2, 1::2] = light["B"][1::2, 1::2]
                raw = np.clip(raw * spec["gain"] * 4031 + 64 + rng.normal(0, 2, raw.shape), 0, 4095).astype(np.uint16)
                dng_writer.write(spec["path"], raw, spec["orientation"], spec.get("exposure"))
            """, [specs, folder])
    }

    /// LibRaw's `dcraw_emu` developing `file` with `options` to a 16-bit TIFF beside it; its path.
    static func dcrawEmu(_ file: String, _ options: [String]) throws -> String {
        let result = try ExternalTool.run("dcraw_emu", options + ["-T", file])
        guard result.status == 0 else { throw JudgeError(description: "dcraw_emu \(options): \(result.stderr)") }
        return file + ".tiff"
    }

    /// How far the first picture of `movie` (ffmpeg's decode to RGB) is from `tiff` (dcraw_emu's 16-bit
    /// linear output, sRGB-coded and rounded to 8 bits): the mean difference of each channel and the mean
    /// of the absolute differences, in 8-bit levels; `scale` multiplies the reference's light first.
    static func difference(of movie: String, from tiff: String, scale: Double = 1) throws
        -> (mean: [Double], meanAbsolute: Double)
    {
        let output = try python(
            """
            import sys, subprocess, numpy as np, OpenImageIO as oiio
            movie, tiff, scale = sys.argv[1], sys.argv[2], float(sys.argv[3])
            source = oiio.ImageInput.open(tiff)
            spec = source.spec()
            reference = source.read_image(0, 0, 0, 3, "uint16").astype(np.float64) / 65535 * scale
            source.close()
            reference = np.clip(reference, 0, 1)
            coded = np.where(reference <= 0.0031308, 12.92 * reference, 1.055 * np.power(reference, 1 / 2.4) - 0.055)
            reference = np.round(coded * 255)
            h, w = reference.shape[:2]
            raw = subprocess.run(["ffmpeg", "-v", "error", "-i", movie, "-frames:v", "1", "-f", "rawvideo",
                "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
            picture = np.frombuffer(raw, np.uint8)
            if picture.size != h * w * 3:
                sys.exit(f"the movie's picture has {picture.size // 3} pixels, the reference {w}x{h}")
            difference = picture.reshape(h, w, 3).astype(np.float64) - reference
            print(" ".join(f"{v:.4f}" for v in difference.mean(axis=(0, 1))), f"{np.abs(difference).mean():.4f}")
            """, [movie, tiff, String(scale)])
        let values = output.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard values.count == 4 else { throw JudgeError(description: "unreadable comparison: \(output)") }
        return (Array(values.prefix(3)), values[3])
    }
}
