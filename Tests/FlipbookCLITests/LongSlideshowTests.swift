import FlipbookTestSupport
import Foundation
import Testing

/// A slideshow of hour-long images (a signage loop): its reordered frames keep their composition
/// offsets, which a clock of 16000 ticks a second put past the 2^28 ticks ffmpeg accepts (it then
/// dropped every offset and showed the frames in decode order), and every time stays exact.
@Suite struct LongSlideshowTests {
    /// A movie of `images` test pictures of `seconds` each, made by the tool with `options`.
    static func slideshow(in dir: TemporaryDirectory, images: Int, seconds: Int, _ options: [String] = []) throws
        -> String
    {
        let frames = try dir.folder("frames")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x96:rate=1", "-frames:v", String(images),
                frames + "/s%02d.png",
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let movie = dir.path("slideshow.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--duration", String(seconds), "-q"] + options)
        try #require(result.status == 0, "\(result.stderr)")
        return movie
    }

    /// The movie's ticks a second, from ffprobe's time base.
    static func ticks(of movie: String) throws -> Int64 {
        try #require(Int64(try Judge.stream(of: movie).timeBase.split(separator: "/").last ?? ""))
    }

    @Test func sixtyImagesOfAnHourKeepTheirOrderAndExactTimes() throws {
        let dir = try TemporaryDirectory()
        let movie = try Self.slideshow(in: dir, images: 60, seconds: 3600)
        let debug = try ExternalTool.run("ffprobe", ["-v", "debug", movie])
        #expect(!debug.stderr.contains("CTTS invalid"), "ffmpeg keeps the composition offsets")
        let packets = try Judge.packets(of: movie)
        #expect(packets.count == 60)
        #expect(packets.contains { $0.pts != $0.dts }, "reordered frames are presented after they are decoded")
        let ticks = try Self.ticks(of: movie)
        #expect(packets.map(\.pts).sorted() == (0..<60).map { Int64($0) * 3600 * ticks }, "each image at k hours")
        #expect(try Judge.frames(of: movie).allSatisfy { $0.duration == 3600 * ticks })
        let stream = try Judge.stream(of: movie)
        #expect(Double(stream.duration) == 216_000, "60 hours: \(stream.duration)")
        let mediainfo = try ExternalTool.run("mediainfo", ["--Inform=Video;%Duration% %FrameCount%", movie])
        #expect(
            mediainfo.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "216000000 60", "\(mediainfo.stdout)")
        #expect(try Judge.decodeErrors(of: movie) == "")
    }

    /// Images of about 4.6 hours and more (here 200000 s, 55 hours) are past what any exact clock
    /// keeps within 2^28 ticks for a reordered frame: those movies are encoded without reordering,
    /// so no offset is dropped.
    @Test(arguments: ["h264", "hevc"])
    func imagesOfDaysAreEncodedWithoutReordering(codec: String) throws {
        let dir = try TemporaryDirectory()
        let movie = try Self.slideshow(in: dir, images: 9, seconds: 200_000, ["--codec", codec])
        let debug = try ExternalTool.run("ffprobe", ["-v", "debug", movie])
        #expect(!debug.stderr.contains("CTTS invalid"))
        let ticks = try Self.ticks(of: movie)
        #expect(
            try Judge.packets(of: movie).map(\.pts) == (0..<9).map { Int64($0) * 200_000 * ticks },
            "in order, each at k x 200000 s")
        #expect(try Judge.frames(of: movie).allSatisfy { $0.duration == 200_000 * ticks })
        #expect(try Judge.formatDuration(of: movie).hasPrefix("1800000"), "nine images of 200000 s")
    }
}
