import FlipbookTestSupport
import Foundation
import Testing

/// `--audio` copies AAC (`.m4a`), MP3 and Opus as they are, with the source's encoder delay carried:
/// a click at exactly 1.000 s in the sound ffmpeg encoded comes out, decoded by ffmpeg from the
/// movie, at 1.000 s, and every packet is the source's own.
@Suite struct SoundtrackCodecCopyTests {
    @Test(arguments: [
        ("m4a", ["-c:a", "aac"], "aac"), ("mp3", ["-c:a", "libmp3lame"], "mp3"), ("opus", ["-c:a", "libopus"], "opus"),
    ])
    func aCopiedClickPlaysAtItsOwnTimeWithEveryPacketTheSources(ext: String, codec: [String], name: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 64, height: 48, into: frames)
        let click = dir.path("click.\(ext)")
        try AudioJudge.makeSound(click, source: "aevalsrc=if(eq(n\\,48000)\\,0.9\\,0):s=48000:d=3", codec)
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", click, "--quiet", "--preset", "ultrafast"])
        #expect(result.status == 0, "\(result.stderr)")
        let sound = try AudioJudge.stream(of: movie)
        #expect(sound.codecName == name)
        #expect(sound.sampleRate == 48000)
        #expect(sound.startTime == 0)
        #expect(abs(sound.duration - 2) < 1e-6, "the sound lasts \(sound.duration) s")
        let hashes = try AudioJudge.packetHashes(of: movie)
        #expect(hashes.count >= 2 * 48000 / 1152)
        #expect(hashes == Array(try AudioJudge.packetHashes(of: click).prefix(hashes.count)))
        #expect(try Judge.decodeErrors(of: movie) == "")
        let moment = try AudioJudge.loudestMoment(of: movie)
        print("\(name) copied: click at \(moment) s")
        #expect(abs(moment - 1) < 0.001, "the click plays at \(moment) s")
    }

    /// An ADTS stream does not say how many samples its encoder primed with; Flipbook takes none,
    /// so sound ffmpeg encoded (1024 samples of priming) plays that much late.
    @Test func anADTSStreamsUnknowablePrimingIsPlayedAsSound() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 64, height: 48, into: frames)
        let click = dir.path("click.aac")
        try AudioJudge.makeSound(click, source: "aevalsrc=if(eq(n\\,48000)\\,0.9\\,0):s=48000:d=3", ["-c:a", "aac"])
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", click, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let moment = try AudioJudge.loudestMoment(of: movie)
        #expect(abs(moment - (1 + 1024.0 / 48000)) < 0.001, "the click plays at \(moment) s")
    }

    @Test func anMP3WithNoFramesIsOneLineNamingIt() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 4, width: 64, height: 48, into: frames)
        let empty = dir.path("empty.mp3")
        // An ID3 tag and nothing after it.
        try Data([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 2, 0, 0]).write(to: URL(fileURLWithPath: empty))
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", empty])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(empty) && result.stderr.contains("no MP3 frames"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
    }
}
