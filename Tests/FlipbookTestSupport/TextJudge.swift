import Foundation

/// Text burnt into a movie, read back by Tesseract (Debian's `tesseract-ocr`, English) from ffmpeg's
/// decode: each frame's region cut out, made grey, doubled, and thresholded so that the text (drawn near
/// white) is black on white and the rest (the box, and pictures with nothing near white) is white.
public enum TextJudge {
    /// A region of the picture in fractions of its sides: left, top, width, height.
    public typealias Region = (x: Double, y: Double, width: Double, height: Double)

    /// The bottom-right, top-right, top-left and bottom-left quarters of the width and an eighth of the height.
    public static let bottomRight: Region = (0.75, 0.875, 0.25, 0.125)
    public static let topRight: Region = (0.75, 0, 0.25, 0.125)
    public static let topLeft: Region = (0, 0, 0.25, 0.125)
    public static let bottomLeft: Region = (0, 0.875, 0.5, 0.125)

    /// The text Tesseract reads in `region` of each frame of the movie's video (or of `frames` of it),
    /// one line each, trimmed; `characters` limits what it may read, and luma above `threshold` (of 255, as
    /// ffmpeg decodes it) is text.
    public static func read(
        _ movie: String, region: Region, frames: ClosedRange<Int>? = nil, psm: Int = 7,
        characters: String? = "0123456789:;", threshold: Int = 170
    ) throws -> [String] {
        let dir = try TemporaryDirectory()
        let crop =
            "crop=trunc(iw*\(region.width)/2)*2:trunc(ih*\(region.height)/2)*2:trunc(iw*\(region.x)):trunc(ih*\(region.y))"
        var filter = "\(crop),format=gray,scale=iw*2:ih*2:flags=bicubic,lut=y='if(gt(val\\,\(threshold))\\,0\\,255)'"
        if let frames { filter = "select='between(n\\,\(frames.lowerBound)\\,\(frames.upperBound))'," + filter }
        let decoded = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-i", movie, "-map", "0:v:0", "-vf", filter, "-fps_mode", "passthrough",
                dir.path("f%04d.png"),
            ])
        guard decoded.status == 0 else {
            throw JudgeError(description: "ffmpeg could not decode \(movie): \(decoded.stderr)")
        }
        var lines: [String] = []
        for name in dir.entries().sorted() where name.hasSuffix(".png") {
            var arguments = [dir.path(name), "-", "--psm", String(psm)]
            if let characters { arguments += ["-c", "tessedit_char_whitelist=\(characters)"] }
            let read = try ExternalTool.run("tesseract", arguments)
            guard read.status == 0 else {
                throw JudgeError(description: "tesseract could not read \(name): \(read.stderr)")
            }
            lines.append(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return lines
    }
}
