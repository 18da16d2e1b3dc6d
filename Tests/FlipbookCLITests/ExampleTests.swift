import FlipbookTestSupport
import Foundation
import Testing

/// The example target (docs/from-avassetwriter.md's recipe written with Flipbook) runs, replaces the
/// movie already at its destination, and writes what the recipe promises, judged by ffprobe: 48 frames
/// of 640x360 H.264 4:2:0, frame i at exactly i/24 s, each shown 1/24 s (the last one too), BT.709 tags.
@Suite struct ExampleTests {
    @Test func theRecipeWritesEveryFrameAtIndexOverRateAndReplacesTheOldMovie() throws {
        let dir = try TemporaryDirectory()
        let movie = dir.path("recipe.mp4")
        try Data("an old movie".utf8).write(to: URL(fileURLWithPath: movie))
        let example = ExternalTool.productsDirectory.appendingPathComponent("FlipbookExample").path
        let result = try ExternalTool.run(example, [movie])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("48 frames"), "\(result.stdout)")

        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == "h264" && stream.pixelFormat == "yuv420p")
        #expect(stream.width == 640 && stream.height == 360)
        #expect(stream.frameCount == 48)
        #expect(stream.colorSpace == "bt709" && stream.colorPrimaries == "bt709" && stream.colorRange == "tv")
        let frames = try Judge.frames(of: movie)
        #expect(frames.count == 48)
        let timescale = try #require(Int64(stream.timeBase.split(separator: "/").last ?? ""), "\(stream.timeBase)")
        for (index, frame) in frames.enumerated() {
            #expect(frame.pts * 24 == Int64(index) * timescale, "frame \(index) at \(frame.ptsTime)")
            #expect(frame.duration * 24 == timescale, "frame \(index) lasts \(frame.duration)/\(timescale)")
        }
        #expect(try Judge.formatDuration(of: movie) == "2.000000")
        #expect(try Judge.decodeErrors(of: movie).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["recipe.mp4"])
    }
}
