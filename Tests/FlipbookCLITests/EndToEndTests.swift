import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

/// The tool from image files to a movie, judged by ffprobe and ffmpeg.
@Suite struct EndToEndTests {
    @Test func fortyEightPNGFramesAt30fpsMakeAHighProfileBT709MovieEndingAtExactly1Point6Seconds() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 48, width: 320, height: 240, into: frames, padded: true)
        let movie = dir.path("out.mp4")

        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--crf", "18"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("48 frames"))

        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == "h264")
        #expect(stream.profile == "High")
        #expect(stream.pixelFormat == "yuv420p")
        #expect(stream.width == 320 && stream.height == 240)
        #expect(stream.colorSpace == "bt709")
        #expect(stream.colorPrimaries == "bt709")
        #expect(stream.colorTransfer == "bt709")
        #expect(stream.colorRange == "tv")
        #expect(stream.frameCount == 48)

        let decoded = try Judge.frames(of: movie)
        #expect(decoded.count == 48)
        for (index, frame) in decoded.enumerated() {
            // 30 fps in a 1/12000 time base: frame i starts at tick 400*i and lasts 400 ticks.
            #expect(frame.pts == Int64(index) * 400, "frame \(index) pts \(frame.pts)")
            #expect(frame.duration == 400, "frame \(index) duration \(frame.duration)")
        }
        #expect(decoded.first?.ptsTime == "0.000000")
        #expect(decoded.last?.ptsTime == "1.566667")
        #expect(try Judge.formatDuration(of: movie) == "1.600000")
        #expect(stream.duration == "1.600000")
        #expect(try Judge.decodeErrors(of: movie) == "")
        #expect(try Judge.psnr(of: movie, againstImages: "\(frames)/frame%03d.png") >= 40)

        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))
        let topLevel = try BoxReader.parse(bytes).map(\.type)
        // moov first ("faststart"); a free box pads the header to whole blocks where the file system
        // lets Flipbook insert it in front of the media instead of copying the media.
        #expect(topLevel.filter { $0 != "free" } == ["ftyp", "moov", "mdat"])
        #expect(dir.entries() == ["frames", "out.mp4"], "no temporary files are left beside the movie")
    }

    @Test func jpegFramesAndAMovOutputGetTheQuickTimeBrand() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 10, width: 256, height: 144, into: frames, format: "jpg")
        let movie = dir.path("clip.mov")

        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--preset", "veryfast"])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))
        #expect(Array(bytes[4..<12]) == Array("ftypqt  ".utf8))
        let stream = try Judge.stream(of: movie)
        #expect(stream.frameCount == 10)
        #expect(stream.colorSpace == "bt709")
        #expect(try Judge.decodeErrors(of: movie) == "")
    }

    @Test func ntscRateGivesExactTimestamps() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 30, width: 128, height: 96, into: frames)
        let movie = dir.path("ntsc.mp4")

        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--fps", "29.97"])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try Judge.stream(of: movie)
        #expect(stream.timeBase == "1/30000")
        let decoded = try Judge.frames(of: movie)
        #expect(decoded.map(\.pts) == (0..<30).map { Int64($0) * 1001 })
        #expect(decoded.allSatisfy { $0.duration == 1001 })
        #expect(try Judge.formatDuration(of: movie) == "1.001000")
    }

    @Test func jsonSummaryGoesToStandardOutputAndQuietSilencesStandardError() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 6, width: 64, height: 64, into: frames)
        let movie = dir.path("out.mp4")

        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--json", "--quiet"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(summary["output"] as? String == movie)
        #expect(summary["frames"] as? Int == 6)
        #expect(summary["duration"] as? Double == 0.2)
        #expect(summary["width"] as? Int == 64)
        #expect(summary["height"] as? Int == 64)
        #expect(summary["codec"] as? String == "h264")
        let size = try FileManager.default.attributesOfItem(atPath: movie)[.size] as? Int
        #expect(summary["bytes"] as? Int == size)
    }
}

/// Slideshows: each image on screen for its own time.
@Suite struct SlideshowTests {
    @Test func threeImagesWithDuration2AreThreeFramesOfTwoSecondsEach() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let images = try SampleImages.write(count: 3, width: 96, height: 64, into: frames)
        let movie = dir.path("show.mp4")

        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, images + ["-o", movie, "--duration", "2", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try Judge.frames(of: movie)
        #expect(decoded.count == 3, "one encoded frame per image, no duplicates")
        #expect(decoded.map(\.ptsTime) == ["0.000000", "2.000000", "4.000000"])
        let stream = try Judge.stream(of: movie)
        let ticksPerSecond = try #require(Int64(stream.timeBase.split(separator: "/").last ?? ""))
        #expect(decoded.allSatisfy { $0.duration == 2 * ticksPerSecond })
        #expect(try Judge.formatDuration(of: movie) == "6.000000")
        #expect(result.stdout.contains("\"duration\":6"))
    }

    @Test func repeatFramesGivesAConstantRateMovie() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let images = try SampleImages.write(count: 2, width: 64, height: 64, into: frames)
        let movie = dir.path("cfr.mp4")

        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, images + ["-o", movie, "--duration", "0.5", "--repeat-frames", "--fps", "24"])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try Judge.frames(of: movie)
        #expect(decoded.count == 24)
        #expect(try Judge.formatDuration(of: movie) == "1.000000")

        let refused = try ExternalTool.run(
            ExternalTool.flipbookPath, images + ["-o", dir.path("x.mp4"), "--duration", "0.01", "--repeat-frames"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not a whole number of frames"))
    }
}
