import FlipbookTestSupport
import Foundation
import Testing

/// `--audio` with WAV (16- and 24-bit PCM, 32-bit float) and FLAC: encoded to AAC-LC by libavcodec,
/// the encoder's delay stepped over by the edit list, cut at the sample where the pictures end; and a
/// click that comes out with the white frame it was made for; judged by ffprobe and ffmpeg.
@Suite struct SoundtrackEncodeTests {
    static func encode(_ arguments: [String]) throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["--quiet", "--preset", "ultrafast"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "nothing on standard error with --quiet: \(result.stderr)")
    }

    @Test(arguments: [
        ("wav", ["-c:a", "pcm_s16le"]), ("wav", ["-c:a", "pcm_s24le"]), ("wav", ["-c:a", "pcm_f32le"]),
        ("flac", ["-c:a", "flac"]),
    ])
    func uncompressedSoundIsEncodedToAACAndCutAtThePicturesEnd(ext: String, codec: [String]) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 64, height: 48, into: frames)
        let song = dir.path("song.\(ext)")
        try AudioJudge.makeSound(song, source: "sine=frequency=440:duration=3:sample_rate=48000", ["-ac", "2"] + codec)
        let movie = dir.path("out.mp4")
        try Self.encode([frames, "-o", movie, "--audio", song])
        let sound = try AudioJudge.stream(of: movie)
        #expect(sound.codecName == "aac")
        #expect(sound.sampleRate == 48000)
        #expect(sound.channels == 2)
        #expect(sound.startTime == 0)
        #expect(abs(sound.duration - 2) < 1e-6, "the sound lasts \(sound.duration) s")
        #expect(try Judge.formatDuration(of: movie) == "2.000000")
        let profile = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "a", "-show_entries", "stream=profile", "-of", "csv=p=0", movie])
        #expect(profile.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "LC")
        #expect(try AudioJudge.streamSwitches(of: movie) >= 2, "video and sound chunks alternate")
        #expect(try Judge.decodeErrors(of: movie) == "")
        // The tone itself comes through: loud from the first decoded samples on.
        let samples = try AudioJudge.decodedSamples(of: movie)
        #expect(samples.count >= 96000)
        // ffmpeg's sine source has an amplitude of 1/8.
        #expect(abs((samples.prefix(4800).map { abs($0) }.max() ?? 0) - 0.125) < 0.01, "sound plays from the start")
    }

    /// The frame at 1 s (the first at or after 1 s at 29.97) is white, the others black, and the
    /// sound is silent but for a one-sample click at that frame's exact time.
    @Test(arguments: ["25", "30", "29.97"])
    func aClickComesOutWithinAMillisecondOfItsWhiteFrame(fps: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let (numerator, denominator) = fps == "29.97" ? (30000, 1001) : (Int(fps)!, 1)
        let whiteFrame = (numerator + denominator - 1) / denominator  // the first frame at or after 1 s
        let whiteTime = Double(whiteFrame * denominator) / Double(numerator)
        let count = 2 * whiteFrame
        let shades = try SampleImages.writeGreyLevels(
            [0, 255], width: 64, height: 48, into: dir.path(""), prefix: "shade")
        for index in 0..<count {
            try FileManager.default.copyItem(
                atPath: shades[index == whiteFrame ? 1 : 0], toPath: "\(frames)/f\(String(format: "%03d", index)).png")
        }
        let click = dir.path("click.wav")
        let clickSample = whiteFrame * denominator * 48000 / numerator
        try AudioJudge.makeSound(
            click, source: "aevalsrc=if(eq(n\\,\(clickSample))\\,0.9\\,0):s=48000:d=3", ["-c:a", "pcm_s16le"])
        let movie = dir.path("sync.mp4")
        try Self.encode([frames, "-o", movie, "--fps", fps, "--audio", click])
        let lumas = try Judge.lumaMeans(of: movie)
        let white = try #require(lumas.firstIndex { $0 > 128 })
        let decodedWhite = try Judge.frames(of: movie)[white].ptsTime
        let videoTime = try #require(Double(decodedWhite))
        #expect(abs(videoTime - whiteTime) < 1e-6, "the white frame is at \(videoTime) s")
        let audioTime = try AudioJudge.loudestMoment(of: movie)
        let offset = (audioTime - videoTime) * 1000
        print("sync at \(fps) fps: click at \(audioTime) s, white frame at \(videoTime) s, offset \(offset) ms")
        #expect(abs(offset) < 1, "the click is \(offset) ms from its white frame")
    }
}
