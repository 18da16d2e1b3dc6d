import Foundation

/// Source images for tests, drawn by ffmpeg's test-pattern generators.
public enum SampleImages {
    /// Writes `count` images of `width`x`height` into `folder`, named `prefix1.png`, `prefix2.png` …
    /// (or `%03d` numbered when `padded`), from ffmpeg's moving `testsrc2` pattern.
    ///
    /// - Parameter format: `png` or `jpg`.
    @discardableResult
    public static func write(
        count: Int, width: Int, height: Int, into folder: String, prefix: String = "frame", format: String = "png",
        padded: Bool = false, pattern: String = "testsrc2"
    ) throws -> [String] {
        let number = padded ? "%03d" : "%d"
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "\(pattern)=size=\(width)x\(height):rate=30", "-frames:v",
                "\(count)",
                "-start_number", "1", "-pix_fmt", format == "png" ? "rgb24" : "yuvj444p",
                "\(folder)/\(prefix)\(number).\(format)",
            ])
        guard result.status == 0 else {
            throw JudgeError(description: "ffmpeg could not write sample images: \(result.stderr)")
        }
        return (1...count).map { index in
            "\(folder)/\(prefix)\(padded ? String(format: "%03d", index) : String(index)).\(format)"
        }
    }
}
