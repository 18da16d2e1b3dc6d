import Foundation

/// What Pillow (Debian's python3-pil, the reference decoder) reads from an animated GIF or WebP:
/// frame count, each frame's duration, the loop count, and each composited frame against sources.
public struct PillowAnimation: Sendable {
    /// Frames as Pillow counts them.
    public var frameCount: Int
    /// The canvas, in pixels.
    public var width: Int
    public var height: Int
    /// Each frame's duration in milliseconds (Pillow's `info["duration"]`).
    public var durations: [Int]
    /// The file's loop count (`info["loop"]`), `nil` when the file has none (a GIF that plays once).
    public var loop: Int?
    /// PSNR in dB of each composited frame's RGB against the matching source image (99 when exact).
    public var psnr: [Double]
    /// Pixels of each composited frame whose alpha is below half.
    public var transparentPixels: [Int]
    /// Each composited frame's RGBA bytes, hashed (SHA-1 hex) over `region` when one was given.
    public var regionHashes: [String]
}

/// Pillow as the judge of animated images.
public enum AnimatedImageJudge {
    static let script = #"""
        import hashlib, json, math, sys
        from PIL import Image
        path, sources = sys.argv[1], json.loads(sys.argv[2])
        region = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
        im = Image.open(path)
        out = {"frames": im.n_frames, "size": list(im.size), "loop": im.info.get("loop"), "durations": [], "psnr": [],
               "transparent": [], "hashes": []}
        for i in range(im.n_frames):
            im.seek(i)
            im.load()
            out["durations"].append(im.info.get("duration"))
            rgba = im.convert("RGBA")
            out["transparent"].append(sum(1 for a in rgba.getchannel("A").getdata() if a < 128))
            crop = rgba.crop(tuple(region)) if region else rgba
            out["hashes"].append(hashlib.sha1(crop.tobytes()).hexdigest())
            if i < len(sources):
                a = rgba.convert("RGB").tobytes()
                b = Image.open(sources[i]).convert("RGB").tobytes()
                mse = sum((x - y) ** 2 for x, y in zip(a, b)) / len(a)
                out["psnr"].append(99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse))
        print(json.dumps(out))
        """#

    /// Reads `file` with Pillow; frame `i` is compared with `sources[i]` (image paths), and hashed
    /// over `region` (left, top, right, bottom) when given.
    public static func read(_ file: String, sources: [String] = [], region: [Int]? = nil) throws -> PillowAnimation {
        let sourceList = String(decoding: try JSONSerialization.data(withJSONObject: sources), as: UTF8.self)
        var arguments = ["-c", script, file, sourceList]
        if let region { arguments.append("\(region)") }
        let result = try ExternalTool.run("/usr/bin/python3", arguments)
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else {
            throw JudgeError(description: "Pillow could not read \(file): \(result.stderr)")
        }
        return PillowAnimation(
            frameCount: object["frames"] as? Int ?? -1,
            width: (object["size"] as? [Int])?.first ?? -1, height: (object["size"] as? [Int])?.last ?? -1,
            durations: (object["durations"] as? [Any])?.map { ($0 as? Int) ?? -1 } ?? [],
            loop: object["loop"] as? Int,
            psnr: object["psnr"] as? [Double] ?? [],
            transparentPixels: object["transparent"] as? [Int] ?? [],
            regionHashes: object["hashes"] as? [String] ?? [])
    }

    /// Writes `count` RGB PNGs `f001.png`… of `width` by `height` into `folder` with Pillow: a smooth
    /// diagonal gradient (which a palette must dither) under a white-and-red square moving 3 pixels
    /// right a frame along the top rows, so that everything below row `height / 2` never changes.
    public static func writeMovingSquare(count: Int, width: Int, height: Int, into folder: String) throws -> [String] {
        let script = #"""
            import sys
            from PIL import Image, ImageDraw
            folder, count, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            base = Image.new("RGB", (w, h))
            base.putdata([(int(255 * x / w), int(255 * y / h), int(128 + 100 * ((x + y) % 37) / 37)) for y in range(h) for x in range(w)])
            for i in range(count):
                im = base.copy()
                d = ImageDraw.Draw(im)
                x = 2 + 3 * i
                d.rectangle([x, 2, x + 11, 13], fill=(250, 250, 250))
                d.rectangle([x + 3, 5, x + 8, 10], fill=(220, 30, 40))
                im.save("%s/f%03d.png" % (folder, i + 1))
            """#
        let result = try ExternalTool.run(
            "/usr/bin/python3", ["-c", script, folder, String(count), String(width), String(height)])
        guard result.status == 0 else { throw JudgeError(description: "Pillow: \(result.stderr)") }
        return (1...count).map { String(format: "%@/f%03d.png", folder, $0) }
    }
}
