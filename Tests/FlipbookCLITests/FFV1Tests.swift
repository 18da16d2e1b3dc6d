import FlipbookTestSupport
import Foundation
import Testing

/// `--codec ffv1`, the lossless archival codec, judged from outside: ffmpeg's framemd5 of the decoded
/// movie against the framemd5 of the source images themselves (md5 for md5), ffprobe for the codec,
/// pixel format and every packet a keyframe, MediaInfo for the version, coder and slice CRCs, and
/// MediaConch for the Matroska file and its FFV1 configuration.
@Suite struct FFV1Tests {
    static func run(_ arguments: [String]) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.flipbookPath, arguments)
    }

    /// Images as Pillow writes them: gradients under noise (hard for any predictor), with a varying alpha
    /// when `alpha`.
    static func pillowImages(into folder: String, count: Int, width: Int, height: Int, alpha: Bool) throws {
        let script = """
            import sys
            from PIL import Image, ImageChops
            folder, count, width, height, alpha = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
            for index in range(count):
                ramp = Image.linear_gradient("L").resize((width, height)).rotate(index * 7, expand=False)
                noise = Image.effect_noise((width, height), 40 + index)
                red = ImageChops.add(ramp, noise, scale=2)
                green = ImageChops.offset(ramp, index * 3, 0)
                blue = ImageChops.difference(noise, ramp.transpose(Image.FLIP_LEFT_RIGHT))
                bands = [red, green, blue]
                if alpha:
                    bands.append(Image.radial_gradient("L").resize((width, height)).point(lambda v: (v + index * 9) % 256))
                Image.merge("RGBA" if alpha else "RGB", bands).save(f"{folder}/image{index + 1:03d}.png")
            """
        let result = try ExternalTool.run(
            "/usr/bin/python3",
            ["-c", script, folder, String(count), String(width), String(height), alpha ? "1" : "0"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Each decoded frame's md5 as `pixelFormat`, in order, as ffmpeg's framemd5 gives it.
    static func frameHashes(of input: [String], pixelFormat: String) throws -> [String] {
        let result = try ExternalTool.run(
            "ffmpeg", ["-v", "error"] + input + ["-pix_fmt", pixelFormat, "-f", "framemd5", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            String($0.split(separator: ",").last ?? "").trimmingCharacters(in: .whitespaces)
        }
    }

    static func probe(_ movie: String, _ entry: String) throws -> String {
        try ExternalTool.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", entry, "-of", "csv=p=0", movie]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: ["mkv", "mov"], [false, true])
    func everyDecodedFrameIsTheSourcePixelsMD5ForMD5(container: String, alpha: Bool) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try Self.pillowImages(into: frames, count: 8, width: 320, height: 200, alpha: alpha)
        let movie = dir.path("archive.\(container)")
        let result = try Self.run([frames, "-o", movie, "--codec", "ffv1", "-q"] + (alpha ? ["--alpha"] : []))
        try #require(result.status == 0, "\(result.stderr)")
        let format = alpha ? "rgba" : "rgb24"
        let sources = try Self.frameHashes(of: ["-i", "\(frames)/image%03d.png"], pixelFormat: format)
        let decoded = try Self.frameHashes(of: ["-i", movie], pixelFormat: format)
        #expect(sources.count == 8)
        #expect(decoded == sources)
        #expect(try Self.probe(movie, "stream=codec_name,pix_fmt") == "ffv1,\(alpha ? "bgra" : "bgr0")")
        let flags = try Self.probe(movie, "packet=flags").split(separator: "\n")
        #expect(flags.count == 8 && flags.allSatisfy { $0.hasPrefix("K") }, "\(flags)")
    }

    @Test func ffmpegsOwnPNGsComeBackExactlyToo() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 10, width: 640, height: 360, into: frames, padded: true)
        let movie = dir.path("archive.mkv")
        try #require(try Self.run([frames, "-o", movie, "--codec", "ffv1", "-q"]).status == 0)
        let sources = try Self.frameHashes(of: ["-i", "\(frames)/frame%03d.png"], pixelFormat: "rgb24")
        #expect(try Self.frameHashes(of: ["-i", movie], pixelFormat: "rgb24") == sources)
    }

    @Test func theStreamIsVersion3WithSliceCRCsAndMatroskaAndFFV1PassMediaConch() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 6, width: 640, height: 360, into: frames)
        let movie = dir.path("archive.mkv")
        try #require(try Self.run([frames, "-o", movie, "--codec", "ffv1", "-q"]).status == 0)
        let info = try ExternalTool.run(
            "mediainfo",
            ["--Output=Video;%Format%|%Format_Version%|%ErrorDetectionType%|%coder_type%|%Format_Settings_GOP%", movie])
        #expect(
            info.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "FFV1|Version 3.4|Per slice|Range Coder|N=1", "\(info.stdout)")
        #expect(try Self.probe(movie, "stream=codec_tag_string,color_space,color_range") == "[0][0][0][0],pc,gbr")
        let conch = try ExternalTool.run("mediaconch", ["-mc", movie])
        #expect(conch.stdout.hasPrefix("pass!"), "\(conch.stdout)")
        // The FFV1 checker ran on the configuration record (it did not skip the track).
        let report = try ExternalTool.run("mediaconch", ["-mc", "-fx", movie]).stdout
        #expect(report.contains("MediaConch FFV1 Implementation Checker"))
    }

    @Test func tenBitIsFourFourFourPlanesWithinTheConversionsOwnError() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try Self.pillowImages(into: frames, count: 4, width: 320, height: 200, alpha: true)
        let movie = dir.path("archive.mov")
        let result = try Self.run([frames, "-o", movie, "--codec", "ffv1", "--bit-depth", "10", "--alpha", "-q"])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(try Self.probe(movie, "stream=codec_name,codec_tag_string,pix_fmt") == "ffv1,FFV1,yuva444p10le")
        // RGB and alpha as ffmpeg converts the movie back, against the images' own.
        let psnr = try Judge.psnr(
            of: movie, againstImages: "\(frames)/image%03d.png", movieFilters: "format=gbrap",
            imageFilters: "format=gbrap")
        #expect(psnr > 50, "\(psnr)")
    }

    @Test(arguments: ["mkv", "mov"])
    func segmentsJoinIntoOneLosslessMovie(container: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try Self.pillowImages(into: frames, count: 9, width: 160, height: 96, alpha: false)
        var parts: [String] = []
        for segment in 1...3 {
            let part = dir.path("part-\(segment).\(container)")
            let made = try Self.run([frames, "-o", part, "--codec", "ffv1", "--segment", "\(segment)/3", "-q"])
            try #require(made.status == 0, "\(made.stderr)")
            parts.append(part)
        }
        let joined = dir.path("joined.\(container)")
        let result = try Self.run(["join"] + parts + ["-o", joined, "-q"])
        try #require(result.status == 0, "\(result.stderr)")
        let sources = try Self.frameHashes(of: ["-i", "\(frames)/image%03d.png"], pixelFormat: "rgb24")
        #expect(sources.count == 9)
        #expect(try Self.frameHashes(of: ["-i", joined], pixelFormat: "rgb24") == sources)
        if container == "mkv" {
            #expect(try ExternalTool.run("mediaconch", ["-mc", joined]).stdout.hasPrefix("pass!"))
        }
    }

    @Test func theSameBytesOnOneThreadAndOnFour() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 6, width: 640, height: 360, into: frames)
        var hashes: [String] = []
        for threads in ["1", "4"] {
            let movie = dir.path("t\(threads).mkv")
            try #require(
                try Self.run([frames, "-o", movie, "--codec", "ffv1", "--threads", threads, "-q"]).status == 0)
            hashes.append(try ExternalTool.run("sha256sum", [movie]).stdout.split(separator: " ")[0].description)
        }
        #expect(hashes[0] == hashes[1])
    }

    @Test(arguments: [
        (["-o", "archive.mp4"], "does not go in .mp4 files; name the output .mkv, .mov or .qt"),
        (["-o", "archive.webm"], "does not go in .webm files"),
        (["-o", "archive.mkv", "--crf", "10"], "--crf is not available for ffv1; it is lossless"),
        (["-o", "archive.mkv", "--bitrate", "5M"], "ffv1 has no rate control: it is lossless"),
        (["-o", "archive.mkv", "--bit-depth", "12"], "--bit-depth 12 is not available; use 8 or 10"),
    ])
    func whatFFV1CannotBeIsAUsageErrorWithNothingWritten(options: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 64, height: 48, into: frames)
        var arguments = [frames, "--codec", "ffv1"] + options
        arguments[arguments.firstIndex(of: "-o")! + 1] = dir.path(options[1])
        let result = try Self.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path(options[1])))
    }
}
