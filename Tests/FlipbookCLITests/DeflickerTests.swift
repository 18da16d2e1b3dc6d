import FlipbookTestSupport
import Foundation
import Testing

/// The deflicker, judged from outside: sequences with known flicker and known exposure steps are made
/// (numpy writes the pictures; pidng the DNGs, stamped with their exposure as a camera stamps it), the
/// movies are lossless FFV1, and numpy measures each decoded frame's mean luminance in linear light and
/// compares its log2 with the smooth truth, up to a constant: the root mean square of the difference in
/// stops (EV). ffmpeg's `deflicker` on the same frames is measured the same way.
@Suite struct DeflickerTests {
    static func flipbook(_ arguments: [String]) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-q"])
    }

    /// The RMS and worst difference, in stops, of each frame's log2 mean linear luminance in `movie` from
    /// `truth` (one value a frame), after taking out their mean difference.
    static func flickerLeft(in movie: String, truth: [Double]) throws -> (rms: Double, worst: Double) {
        let output = try CameraRawFiles.python(
            """
            import sys, subprocess, json, numpy as np
            movie, truth = sys.argv[1], np.array(json.loads(sys.argv[2]))
            probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=width,height", "-of", "csv=p=0", movie], capture_output=True, text=True, check=True).stdout
            w, h = map(int, probe.strip().split(","))
            raw = subprocess.run(["ffmpeg", "-v", "error", "-i", movie, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                capture_output=True, check=True).stdout
            frames = np.frombuffer(raw, np.uint8).reshape(-1, h, w, 3).astype(np.float64) / 255
            linear = np.where(frames <= 0.04045, frames / 12.92, ((frames + 0.055) / 1.055) ** 2.4)
            luminance = (linear * [0.2126, 0.7152, 0.0722]).sum(axis=-1).mean(axis=(1, 2))
            if len(luminance) != len(truth):
                sys.exit(f"{len(luminance)} frames, {len(truth)} expected")
            left = np.log2(luminance) - truth
            left -= left.mean()
            print(f"{np.sqrt((left ** 2).mean()):.5f} {np.abs(left).max():.5f}")
            """, [movie, "[" + truth.map { String($0) }.joined(separator: ",") + "]"])
        let values = output.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard values.count == 2 else { throw JudgeError(description: "unreadable measure: \(output)") }
        return (values[0], values[1])
    }

    /// 200 frames of a textured picture whose light falls 2 EV, each frame brighter or darker by up to
    /// 0.3 EV at random (aperture jitter), written as sRGB PNGs; the ramp, the truth, is returned.
    static func flickeringFrames(in folder: String) throws -> [Double] {
        let output = try CameraRawFiles.python(
            """
            import sys, numpy as np
            from PIL import Image
            folder, n, w, h = sys.argv[1], 200, 160, 90
            rng = np.random.default_rng(7)
            y, x = np.mgrid[0:h, 0:w]
            base = 0.05 + 0.3 * (0.5 + 0.5 * np.sin(x / 9.0) * np.cos(y / 7.0)) * (0.6 + 0.4 * x / w)
            colour = np.stack([base * 1.1, base, base * 0.8], axis=-1)
            ramp = -2.0 * np.arange(n) / (n - 1)
            flicker = rng.uniform(-0.3, 0.3, n)
            for i in range(n):
                light = np.clip(colour * 2 ** (ramp[i] + flicker[i]) * 1.6, 0, 1)
                coded = np.where(light <= 0.0031308, 12.92 * light, 1.055 * light ** (1 / 2.4) - 0.055)
                Image.fromarray(np.round(coded * 255).astype(np.uint8)).save(f"{folder}/f{i:04d}.png")
            print(" ".join(str(v) for v in ramp))
            """, [folder])
        return output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test func randomFlickerOnARampIsTakenOutToAFiftiethOfAStopBetterThanFFmpeg() throws {
        let dir = try TemporaryDirectory()
        let folder = try dir.folder("frames")
        let ramp = try Self.flickeringFrames(in: folder)
        #expect(ramp.count == 200)
        let untouched = dir.path("untouched.mkv")
        #expect(try Self.flipbook([folder, "-o", untouched, "--codec", "ffv1"]).status == 0)
        let before = try Self.flickerLeft(in: untouched, truth: ramp)
        let movie = dir.path("deflickered.mkv")
        let result = try Self.flipbook([
            folder, "-o", movie, "--codec", "ffv1", "--deflicker", "--deflicker-window", "151",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try Self.flickerLeft(in: movie, truth: ramp)
        let ffmpeg = dir.path("ffmpeg.mkv")
        let made = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-i", "\(folder)/f%04d.png", "-vf", "deflicker=size=129:mode=am", "-c:v", "ffv1", ffmpeg])
        #expect(made.status == 0, "\(made.stderr)")
        let theirs = try Self.flickerLeft(in: ffmpeg, truth: ramp)
        #expect(before.rms > 0.15, "the frames flicker: \(before)")
        #expect(after.rms <= 0.02, "left after deflickering: \(after) (before \(before), ffmpeg's \(theirs))")
        #expect(after.rms < theirs.rms, "ffmpeg's deflicker leaves \(theirs), Flipbook's \(after)")
        print("deflicker figures: before \(before), Flipbook \(after), ffmpeg \(theirs)")
    }

    /// A day-to-dusk shot with the shutter lengthened a third of a stop every 12 frames (stated in EXIF),
    /// the scene's light falling 3 EV: the steps become a smooth ramp, the window's mean of the stated
    /// exposure, on top of the scene's fall.
    @Test func exposureStepsStatedInEXIFBecomeASmoothRamp() throws {
        let dir = try TemporaryDirectory()
        var truth: [Double] = []
        var files: [CameraRawFiles.DNG] = []
        let window = 25
        let stops = (0..<96).map { Double($0 / 12) / 3 }
        for index in 0..<96 {
            let scene = -3.0 * Double(index) / 95
            files.append(
                CameraRawFiles.DNG(
                    path: dir.path(String(format: "dusk_%04d.dng", index)), width: 64, height: 48,
                    gain: 0.5 * pow(2, scene + stops[index]), seed: index,
                    exposure: [1.0 / 250 * pow(2, stops[index]), 8, 100]))
            let around = max(0, index - window / 2)...min(95, index + window / 2)
            truth.append(scene + around.map { stops[$0] }.reduce(0, +) / Double(around.count))
        }
        try CameraRawFiles.makeDNGs(files)
        let movie = dir.path("dusk.mkv")
        let result = try Self.flipbook([
            dir.path(""), "-o", movie, "--codec", "ffv1", "--deflicker", "--deflicker-window", String(window),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try Self.flickerLeft(in: movie, truth: truth)
        #expect(after.rms <= 0.02, "left: \(after)")
        print("deflicker figures, EXIF steps: \(after)")
    }

    @Test func whatADeflickerCannotTakeIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let folder = try dir.folder("frames")
        _ = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "3", "\(folder)/f%02d.png"])
        let movie = dir.path("out.mp4")
        for (options, message) in [
            (["--deflicker", "--deflicker-window", "4"], "--deflicker-window 4 is out of range; give an odd number"),
            (["--deflicker-window", "5"], "go with --deflicker; add it"),
            (["--deflicker", "--deflicker-region", "0,0,0,5"], "--deflicker-region 0,0,0,5 is not a region"),
            (["--deflicker", "--follow"], "--deflicker measures every image before the first frame"),
        ] {
            let result = try Self.flipbook([folder, "-o", movie] + options)
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(options): \(result.stderr)")
        }
        let outside = try Self.flipbook([folder, "-o", movie, "--deflicker", "--deflicker-region", "0,0,65,10"])
        #expect(outside.status != 0 && outside.stderr.contains("is not inside the 64x48 image"), "\(outside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
    }
}
