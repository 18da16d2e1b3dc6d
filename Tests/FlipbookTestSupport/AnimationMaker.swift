import Foundation

/// Animated GIFs, APNGs and WebPs for the tests, made by Pillow (Debian's /usr/bin/python3), ImageMagick
/// and ffmpeg, and Pillow's own composited frames of any of them: the outside judge of what each
/// frame of such an animation looks like.
public enum AnimationMaker {
    /// The kinds of file `make(_:at:)` writes.
    public enum Kind: String, Sendable, CaseIterable {
        /// Pillow GIF: palette frames (local palettes) with a transparent index, disposal methods 0, 1, 2, 3.
        case pillowGIF = "gif-disposal"
        /// ImageMagick GIF: interlaced gradients, sub-rectangles at offsets, disposal None, Previous and Background.
        case imageMagickGIF = "imagemagick-gif"
        /// ffmpeg GIF: two-pass palette, changed rectangles only, unchanged pixels transparent.
        case ffmpegGIF = "ffmpeg-gif"
        /// Pillow APNG: alpha, dispose ops none/background/previous, blend ops source/over, varying delays.
        case pillowAPNG = "apng"
        /// ffmpeg APNG: changed rectangles only, blended over the previous frame.
        case ffmpegAPNG = "ffmpeg-apng"
        /// Pillow animated WebP: lossless, alpha, varying delays.
        case pillowWebP = "webp"
        /// ffmpeg animated WebP (libwebp_anim), lossless.
        case ffmpegWebP = "ffmpeg-webp"

        /// The file name extension.
        public var fileExtension: String {
            switch self {
            case .pillowGIF, .imageMagickGIF, .ffmpegGIF: "gif"
            case .pillowAPNG, .ffmpegAPNG: "png"
            case .pillowWebP, .ffmpegWebP: "webp"
            }
        }
    }

    /// Writes an animation of `kind` at `path`.
    public static func make(_ kind: Kind, at path: String) throws {
        let source = "testsrc2=size=64x48:rate=10:duration=1.2"
        let result: ToolResult
        switch kind {
        case .imageMagickGIF:
            result = try ExternalTool.run(
                "convert",
                [
                    "-delay", "10", "-dispose", "None", "-size", "64x48", "gradient:SkyBlue-navy", "-dispose",
                    "Previous",
                    "(", "-size", "20x16", "gradient:red-white", "-repage", "+5+5", ")", "-dispose", "Background",
                    "(", "-size", "16x16", "xc:none", "-fill", "yellow", "-draw", "circle 8,8 8,2", "-repage",
                    "+30+20", ")", "-dispose", "None", "(", "-size", "12x12", "xc:green", "-repage", "+40+4", ")",
                    "-dispose", "Previous", "(", "-size", "24x10", "xc:blue", "-repage", "+2+30", ")",
                    "-dispose", "None", "(", "-size", "10x10", "xc:magenta", "-repage", "+50+36", ")",
                    "-loop", "0", "-interlace", "GIF", path,
                ])
        case .ffmpegGIF:
            result = try ExternalTool.run(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", source, "-lavfi",
                    "split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=diff_mode=rectangle",
                    "-gifflags", "+transdiff", path,
                ])
        case .ffmpegAPNG:
            result = try ExternalTool.run(
                "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-f", "apng", "-plays", "0", path])
        case .ffmpegWebP:
            result = try ExternalTool.run(
                "ffmpeg",
                ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-c:v", "libwebp_anim", "-lossless", "1", path])
        case .pillowGIF, .pillowAPNG, .pillowWebP:
            result = try python([path, kind.rawValue])
        }
        guard result.status == 0 else {
            throw JudgeError(description: "could not make \(kind) at \(path): \(result.stderr)")
        }
    }

    /// A Pillow GIF of `count` frames on a 64x48 screen, with delays cycling through 0, 1, 2, 3, 5, 7,
    /// 10, 13, 25 and 100 hundredths.
    public static func makeGIF(frames count: Int, at path: String) throws {
        let result = try python([path, "gif-delays", String(count)])
        guard result.status == 0 else { throw JudgeError(description: "could not make a GIF: \(result.stderr)") }
    }

    /// Writes every frame of the animation at `path` as Pillow composites it, over black, as
    /// `folder/f000.png`, `f001.png` …; returns each frame's duration in milliseconds as Pillow reads it.
    public static func pillowFrames(of path: String, into folder: String) throws -> [Double] {
        let result = try python([path, "reference", folder])
        guard result.status == 0 else {
            throw JudgeError(description: "Pillow could not read the frames of \(path): \(result.stderr)")
        }
        return result.stdout.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The per-frame PSNR (average of Y, U, V, in dB) of `movie`'s frames against `pattern`'s images,
    /// frame by frame in order, as ffmpeg's psnr filter measures it after converting the images to
    /// the movie's BT.709 limited-range 4:2:0.
    public static func psnrPerFrame(of movie: String, againstImages pattern: String, stats: String) throws -> [Double] {
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-nostats", "-i", movie, "-i", pattern, "-lavfi",
                "[1:v]settb=1,setpts=N,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p[ref];"
                    + "[0:v]settb=1,setpts=N,format=yuv420p[mov];[mov][ref]psnr=stats_file=\(stats)",
                "-f", "null", "-",
            ])
        guard result.status == 0, let text = try? String(contentsOfFile: stats, encoding: .utf8) else {
            throw JudgeError(description: "ffmpeg could not compare \(movie): \(result.stderr)")
        }
        return text.split(separator: "\n").map { line in
            let field = line.split(separator: " ").first { $0.hasPrefix("psnr_avg:") }
            let value = field.map { String($0.dropFirst("psnr_avg:".count)) } ?? "nan"
            return value == "inf" ? .infinity : Double(value) ?? .nan
        }
    }

    private static func python(_ arguments: [String]) throws -> ToolResult {
        try ExternalTool.run("/usr/bin/python3", ["-c", script] + arguments)
    }

    /// The Pillow maker and reader.
    static let script = #"""
        import sys, os, subprocess
        from PIL import Image, ImageDraw
        out = sys.argv[1]
        W, H = 64, 48

        def frames_rgba(n, shift=0):
            fs = []
            for i in range(n):
                im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
                d = ImageDraw.Draw(im)
                if i == 0:
                    d.rectangle([0, 0, W - 1, H - 1], fill=(40, 90, 160, 255))
                d.rectangle([(i * 7 + shift) % 44, (i * 5) % 30, (i * 7 + shift) % 44 + 18, (i * 5) % 30 + 16],
                            fill=((i * 50) % 256, 220 - i * 15, 60 + i * 20, 255))
                d.ellipse([30 - i, 10 + i, 50 - i, 30 + i], fill=(250, 250, 40 + i * 10, 255))
                fs.append(im)
            return fs

        def to_p(im):
            # A palette image with index 255 transparent where alpha is 0.
            alpha = im.getchannel("A")
            p = im.convert("RGB").quantize(colors=255, method=Image.Quantize.MEDIANCUT)
            mask = Image.eval(alpha, lambda a: 255 if a == 0 else 0)
            p.paste(255, mask=mask)
            return p

        kind = sys.argv[2]
        if kind == "gif-delays":
            n = int(sys.argv[3])
            frames, delays = [], []
            for i in range(n):
                im = Image.new("RGB", (W, H), ((i * 37) % 256, (i * 11) % 256, 128))
                ImageDraw.Draw(im).rectangle([i % 50, (i * 3) % 36, i % 50 + 12, (i * 3) % 36 + 10], fill=(255, 255, 255))
                frames.append(im)
                delays.append([0, 1, 2, 3, 5, 7, 10, 13, 25, 100][i % 10] * 10)
            frames[0].save(out, save_all=True, append_images=frames[1:], duration=delays, loop=0, optimize=False)
        elif kind == "gif-disposal":
            fs = [to_p(f) for f in frames_rgba(8)]
            fs[0].save(out, save_all=True, append_images=fs[1:], duration=100, loop=0, transparency=255,
                       disposal=[0, 1, 2, 3, 2, 1, 3, 0], optimize=False)
        elif kind == "apng":
            fs = frames_rgba(8)
            fs[0].save(out, save_all=True, append_images=fs[1:], duration=[100, 50, 80, 120, 100, 60, 100, 40], loop=0,
                       disposal=[0, 1, 2, 0, 2, 1, 0, 2], blend=[0, 1, 1, 0, 1, 0, 1, 1], default_image=False)
        elif kind == "webp":
            fs = frames_rgba(8)
            fs[0].save(out, save_all=True, append_images=fs[1:], duration=[100, 50, 80, 120, 100, 60, 100, 40], loop=0,
                       lossless=True)
        elif kind == "reference":
            # Every frame as Pillow composites it, over black, as PNGs: ref/f000.png ...
            im = Image.open(out)
            os.makedirs(sys.argv[3], exist_ok=True)
            durations = []
            for i in range(im.n_frames):
                im.seek(i)
                frame = im.convert("RGBA")
                black = Image.new("RGBA", frame.size, (0, 0, 0, 255))
                Image.alpha_composite(black, frame).convert("RGB").save(os.path.join(sys.argv[3], "f%03d.png" % i))
                durations.append(str(im.info.get("duration", 0)))
            print(" ".join(durations))
        """#
}
