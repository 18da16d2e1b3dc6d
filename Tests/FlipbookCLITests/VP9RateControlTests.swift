import FlipbookTestSupport
import Foundation
import Testing

/// VP9's rate control, judged from outside: the average rate libvpx's one-pass VBR reaches, and
/// target sizes searched over whole CRFs (each a movie made until one lands), by the files' sizes,
/// ffprobe's frame counts and the summary's notes. A long suite (`Tests/long-suites.txt`).
@Suite struct VP9RateControlTests {
    @Test func theAverageRateIsLibvpxsOnePassVBR() throws {
        let dir = try TemporaryDirectory()
        let frames = try RateControlTests.frames(in: dir)
        let movie = dir.path("rate.mp4")
        try VP9Tests.encode([frames], to: movie, ["--bitrate", "400k"])
        let rate = try RateJudge.videoBitrate(of: movie)
        // libvpx's one-pass VBR has no long-term correction and lands under the rate on this pattern
        // (about 326 kb/s, as ffmpeg's -b:v 400k does); never far over it.
        #expect((0.75...1.05).contains(rate / 400_000), "\(Int(rate)) b/s for 400k")
        #expect(try Judge.stream(of: movie).frameCount == 300)
    }

    @Test func aTargetSizeLandsAtOrJustUnder() throws {
        let dir = try TemporaryDirectory()
        let frames = try RateControlTests.frames(in: dir)
        let movie = dir.path("sized.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath,
            [frames, "-o", movie, "--codec", "vp9", "--preset", "veryfast", "--target-size", "500k"])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: movie)[.size] as? Int)
        #expect((475_000...500_000).contains(bytes), "\(bytes) bytes for 500k")
        #expect(try Judge.stream(of: movie).frameCount == 300)
    }

    /// A slideshow's target size between the sizes of two neighbouring whole CRFs: libvpx takes whole
    /// CRFs, so the search ends once it has tried both sides, with the one under, instead of spending its
    /// tries on fractions that round to them.
    @Test func aSlideshowBetweenTwoWholeCRFsTakesTheOneUnderAtOnce() throws {
        let dir = try TemporaryDirectory()
        let stills = try dir.folder("stills")
        try SampleImages.write(count: 3, width: 640, height: 360, into: stills)
        var sizes: [Int] = []
        for crf in ["0", "1"] {
            let movie = dir.path("crf\(crf).mp4")
            try VP9Tests.encode([stills], to: movie, ["--duration", "3", "--crf", crf])
            sizes.append(try #require(try FileManager.default.attributesOfItem(atPath: movie)[.size] as? Int))
        }
        #expect(sizes[0] > sizes[1] * 100 / 95, "CRF 0 and 1 must straddle the target: \(sizes)")
        let target = (sizes[0] + sizes[1]) / 2
        let movie = dir.path("sized.mp4")
        let result = try VP9Tests.encode(
            [stills], to: movie, ["--duration", "3", "--target-size", String(target), "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let notes = summary["notes"] as? [String] ?? []
        #expect(notes.count <= 6, "a search of fractions rounding to 0 and 1 runs to its tenth try: \(notes)")
        #expect(
            notes.allSatisfy { $0.range(of: #"CRF [0-9]+\.[0-9]"#, options: .regularExpression) == nil },
            "whole CRFs only: \(notes)")
        #expect(summary["bytes"] as? Int == sizes[1], "the movie at CRF 1: \(summary)")
    }
}
