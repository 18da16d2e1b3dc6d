import FlipbookTestSupport
import Foundation
import Testing

/// Large JPEGs drawn smaller than their size are decoded at a smaller scale; the movie must look as
/// the whole image shrunk would, turned upright by its EXIF orientation.
@Suite struct ScaledJPEGTests {
    /// ffmpeg draws `filter` once into `path` (`extra` are output options).
    static func draw(_ source: String, _ filter: String, to path: String, _ extra: [String] = []) throws {
        let result = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-vf", filter, "-frames:v", "1"] + extra + [path])
        guard result.status == 0 else { throw JudgeError(description: "ffmpeg: \(result.stderr)") }
    }

    @Test func turnedPhotosShrunkIntoTheMovieMatchFFmpegsShrinkOfTheUprightPicture() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let references = try dir.folder("references")
        // Upright 1600x1200 pictures, stored on their side (1200x1600) with orientation 6 as a camera
        // held upright saves them; the movie is 640x480, so a half-size decode (800x600) suffices.
        for index in 1...3 {
            let upright = dir.path("upright\(index).png")
            try Self.draw(
                "gradients=s=1600x1200:c0=0x2040C0:c1=0xE0A030:x0=0:y0=0:x1=1600:y1=1200:seed=\(index)",
                "drawbox=x=\(200 * index):y=300:w=400:h=500:color=0x30B050:t=fill", to: upright)
            let stored = dir.path("stored\(index).jpg")
            try Self.draw("movie=\(upright)", "transpose=cclock", to: stored, ["-pix_fmt", "yuvj420p", "-q:v", "2"])
            try TestJPEG.withOrientation(Data(contentsOf: URL(fileURLWithPath: stored)), 6)
                .write(to: URL(fileURLWithPath: "\(frames)/photo\(index).jpg"))
            try Self.draw(
                "movie=\(upright)", "scale=640:480:flags=area", to: "\(references)/ref\(index).png",
                ["-pix_fmt", "rgb24"])
        }
        let movie = dir.path("photos.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath,
            [frames, "-o", movie, "--size", "640x480", "--fit", "cover", "--crf", "10", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try Judge.stream(of: movie)
        #expect(stream.width == 640 && stream.height == 480 && stream.frameCount == 3)
        #expect(try Judge.decodeErrors(of: movie) == "")
        let psnr = try Judge.psnr(of: movie, againstImages: "\(references)/ref%d.png")
        #expect(psnr >= 45, "PSNR \(psnr) dB against ffmpeg's area shrink of the upright pictures")
    }
}
