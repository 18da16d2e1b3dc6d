import FlipbookTestSupport
import Foundation
import Testing

/// Animated GIF, APNG and WebP inputs, judged from outside: every frame against Pillow's composited
/// frame (PSNR, decoded by ffmpeg), every frame's time against ffprobe's reading of the GIF's delays.
@Suite struct AnimatedInputTests {
    /// The GIF's delays as ffmpeg's GIF demuxer reads them (its packets' times, in hundredths: delays
    /// under 2 hundredths become 10, as browsers show them).
    private func gifPacketTimes(_ path: String) throws -> [Int64] {
        let result = try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "packet=pts", "-of", "csv=p=0", path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Ticks a second of the movie's video stream, from ffprobe's time base `1/N`.
    private func ticksPerSecond(_ movie: String) throws -> Int64 {
        let timeBase = try Judge.stream(of: movie).timeBase
        return Int64(timeBase.split(separator: "/").last.map(String.init) ?? "") ?? 0
    }

    @Test func aGIFOfTwoHundredFramesShowsEachForExactlyItsDelay() throws {
        let dir = try TemporaryDirectory()
        let gif = dir.path("delays.gif")
        try AnimationMaker.makeGIF(frames: 200, at: gif)
        let movie = dir.path("delays.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [gif, "-o", movie, "-q"])
        #expect(result.status == 0, "\(result.stderr)")

        let starts = try gifPacketTimes(gif)
        #expect(starts.count == 200)
        let frames = try Judge.frames(of: movie)
        #expect(frames.count == 200)
        let scale = try ticksPerSecond(movie)
        // Frame i starts at the sum of the delays before it, exactly: hundredths times ticks a second.
        let mismatched = zip(frames, starts).enumerated().filter { $0.element.0.pts * 100 != $0.element.1 * scale }
        #expect(mismatched.isEmpty, "frames at other times than the GIF's: \(mismatched.prefix(5))")
        let lastDelay = try gifPacketDurations(gif).last ?? 0
        let total = Double(starts.last.map { $0 + lastDelay } ?? 0) / 100
        #expect(abs((Double(try Judge.formatDuration(of: movie)) ?? 0) - total) < 0.0005)
        // Every frame decodes without an error. (Not through `-f null`, whose output clock of 1/100 s
        // (the stream's r_frame_rate) makes ffmpeg itself report two of its own rounded times as equal.)
        let decoded = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-y", "-xerror", "-err_detect", "+explode", "-i", movie, "-f", "framemd5", "/dev/null"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
    }

    private func gifPacketDurations(_ path: String) throws -> [Int64] {
        let result = try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "packet=duration", "-of", "csv=p=0", path])
        return result.stdout.split(separator: "\n").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test(arguments: AnimationMaker.Kind.allCases)
    func everyFrameIsWhatPillowComposites(kind: AnimationMaker.Kind) throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("in.\(kind.fileExtension)")
        try AnimationMaker.make(kind, at: input)
        let reference = try dir.folder("reference")
        let durations = try AnimationMaker.pillowFrames(of: input, into: reference)
        #expect(durations.count >= 6)
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [input, "-o", movie, "--crf", "12", "-q"])
        #expect(result.status == 0, "\(result.stderr)")

        let psnr = try AnimationMaker.psnrPerFrame(
            of: movie, againstImages: "\(reference)/f%03d.png", stats: dir.path("psnr.txt"))
        #expect(psnr.count == durations.count)
        #expect(psnr.allSatisfy { $0 > 38 }, "\(kind): PSNR per frame against Pillow's frames \(psnr)")

        // Each frame lasts Pillow's duration (none here is 10 ms or less).
        let frames = try Judge.frames(of: movie)
        let scale = Double(try ticksPerSecond(movie))
        var start = 0.0
        for (frame, duration) in zip(frames, durations) {
            #expect(abs(Double(frame.pts) / scale - start / 1000) < 1e-6, "\(kind): \(frames.map(\.pts))")
            start += duration
        }
        #expect(abs((Double(try Judge.formatDuration(of: movie)) ?? 0) - start / 1000) < 0.0005)
    }

    @Test func stillsAndAnimationsMixInListOrder() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 1, width: 64, height: 48, into: frames, prefix: "a")
        try AnimationMaker.make(.pillowAPNG, at: "\(frames)/b1.png")
        try SampleImages.write(count: 1, width: 64, height: 48, into: frames, prefix: "c")
        let movie = dir.path("mixed.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let probed = try Judge.frames(of: movie)
        #expect(probed.count == 10)
        let scale = Double(try ticksPerSecond(movie))
        // The still lasts one frame at 30 fps, then the APNG's eight delays, then the last still.
        let delays = [100.0, 50, 80, 120, 100, 60, 100, 40]
        var expected = [0.0, 1.0 / 30]
        for delay in delays { expected.append(expected.last! + delay / 1000) }
        let times = probed.map { Double($0.pts) / scale }
        #expect(zip(times, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(times) against \(expected)")
    }

    @Test func aOneFrameGIFIsAStillImageLikeAnyOther() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 1, width: 64, height: 48, into: frames, prefix: "a")
        let gif = "\(frames)/b1.gif"
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", gif])
        #expect(made.status == 0, "\(made.stderr)")
        try SampleImages.write(count: 1, width: 64, height: 48, into: frames, prefix: "c")
        let movie = dir.path("stills.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--duration", "0.5", "--crf", "12", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        // Three stills of half a second each: the GIF takes --duration as the PNGs do.
        let scale = Double(try ticksPerSecond(movie))
        #expect(try Judge.frames(of: movie).map { Double($0.pts) / scale } == [0, 0.5, 1])
        // The three pictures in order: the PNGs as they are, the GIF as Pillow reads it.
        let gifFrame = try dir.folder("gif")
        _ = try AnimationMaker.pillowFrames(of: gif, into: gifFrame)
        let reference = try dir.folder("reference")
        for (index, source) in ["\(frames)/a1.png", "\(gifFrame)/f000.png", "\(frames)/c1.png"].enumerated() {
            try FileManager.default.copyItem(atPath: source, toPath: "\(reference)/f00\(index).png")
        }
        let psnr = try AnimationMaker.psnrPerFrame(
            of: movie, againstImages: "\(reference)/f%03d.png", stats: dir.path("psnr.txt"))
        #expect(psnr.count == 3 && psnr.allSatisfy { $0 > 38 }, "PSNR per picture \(psnr)")
    }

    @Test func repeatFramesGivesAConstantRate() throws {
        let dir = try TemporaryDirectory()
        let gif = dir.path("delays.gif")
        try AnimationMaker.makeGIF(frames: 20, at: gif)
        let movie = dir.path("constant.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [gif, "-o", movie, "--fps", "25", "--repeat-frames", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let starts = try gifPacketTimes(gif)
        let total = (starts.last ?? 0) + (try gifPacketDurations(gif).last ?? 0)
        let frames = try Judge.frames(of: movie)
        // total hundredths at 25 fps (four hundredths a frame), to the nearest frame, halves up.
        #expect(frames.count == Int(total + 2) / 4, "\(frames.count) frames for \(total) hundredths")
        let scale = try ticksPerSecond(movie)
        let steps = Set(zip(frames.dropFirst(), frames).map { $0.pts - $1.pts })
        #expect(steps == [scale / 25], "\(steps)")
    }

    @Test(arguments: ["GIF", "APNG"])
    func aTruncatedAnimationIsRefusedByNameOrCutAtItsLastWholeFrame(kind: String) throws {
        let dir = try TemporaryDirectory()
        let whole = dir.path(kind == "GIF" ? "whole.gif" : "whole.png")
        if kind == "GIF" {
            try AnimationMaker.makeGIF(frames: 12, at: whole)
        } else {
            try AnimationMaker.make(.ffmpegAPNG, at: whole)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = dir.path(kind == "GIF" ? "cut.gif" : "cut.png")
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        // ffmpeg's GIF and APNG demuxers read the cut file's packets, the one being cut included.
        let kept = try gifPacketTimes(cut).count

        let movie = dir.path("cut.mp4")
        let refused = try ExternalTool.run(ExternalTool.flipbookPath, [cut, "-o", movie])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(cut): the \(kind) is truncated after"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))

        let skipped = try ExternalTool.run(ExternalTool.flipbookPath, [cut, "-o", movie, "--skip-invalid"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stderr.contains("truncated after"), "\(skipped.stderr)")
        let frames = try Judge.frames(of: movie).count
        // Flipbook keeps the whole frames only.
        #expect(frames >= 5 && (frames == kept || frames == kept - 1), "\(frames) frames, ffprobe reads \(kept)")
    }

    @Test func anAnimationOfTooManyPixelsIsRefusedBeforeDecoding() throws {
        let dir = try TemporaryDirectory()
        // A 16384x16384 screen and 70 one-pixel images: 2^28 pixels a frame, over 2^34 together.
        var gif: [UInt8] = Array("GIF89a".utf8) + [0x00, 0x40, 0x00, 0x40, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        for _ in 0..<70 {
            gif += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
            gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0]
        }
        gif.append(0x3B)
        let path = dir.path("bomb.gif")
        try Data(gif).write(to: URL(fileURLWithPath: path))
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [path, "-o", dir.path("bomb.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("70 frames of 16384x16384"), "\(result.stderr)")
        #expect(result.stderr.contains(path))
        #expect(dir.entries() == ["bomb.gif"])
    }
}
