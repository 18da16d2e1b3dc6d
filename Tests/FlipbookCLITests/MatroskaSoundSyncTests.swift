import FlipbookTestSupport
import Foundation
import Testing

/// A click on the sample of a white frame plays with that frame in WebM and Matroska, encoded (Opus from
/// WAV) or copied (Opus, Vorbis, FLAC), as ffmpeg and GStreamer place each decoded sample: within 1 ms.
@Suite struct MatroskaSoundSyncTests {
    /// Sound files made as their encoders make them, each with a click on sample 48000 (1 s at 48 kHz).
    static let sources: [String: [String]] = [
        "wav": ["-c:a", "pcm_s16le"], "opus": ["-c:a", "libopus"], "ogg": ["-c:a", "libvorbis"],
        "flac": ["-c:a", "flac"],
    ]

    @Test(arguments: [
        ("webm", "wav", "opus"), ("webm", "opus", "opus"), ("webm", "ogg", "vorbis"), ("mkv", "wav", "aac"),
        ("mkv", "opus", "opus"), ("mkv", "ogg", "vorbis"), ("mkv", "flac", "flac"),
    ])
    func aClickPlaysWithItsWhiteFrame(ext: String, source: String, codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let shades = try SampleImages.writeGreyLevels([0, 255], width: 64, height: 64, into: dir.path(""), prefix: "s")
        for index in 0..<50 {
            try FileManager.default.copyItem(
                atPath: shades[index == 25 ? 1 : 0], toPath: "\(frames)/f\(String(format: "%03d", index)).png")
        }
        let click = dir.path("click.\(source)")
        try AudioJudge.makeSound(
            click, source: "aevalsrc=if(eq(n\\,48000)\\,0.9\\,0):s=48000:d=3", Self.sources[source]!)
        let movie = dir.path("sync.\(ext)")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--fps", "25", "--audio", click, "-q"])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(try AudioJudge.stream(of: movie).codecName == codec)
        let byFFmpeg = try SyncJudge.ffmpeg(movie)
        let byGStreamer = try SyncJudge.gstreamer(movie)
        print("sync in .\(ext) from .\(source) (\(codec)): ffmpeg \(byFFmpeg); GStreamer \(byGStreamer)")
        #expect(abs(byFFmpeg.whiteFrame - 1) < 0.000_1, "ffmpeg: \(byFFmpeg)")
        #expect(abs(byFFmpeg.offsetMilliseconds) < 1, "ffmpeg: \(byFFmpeg)")
        // GStreamer 1.22's matroskademux reads a `CodecDelay` for Opus only: AAC's encoder delay (1024
        // samples, the track's `CodecDelay` as the specification has it) plays 21 ms late there.
        if codec != "aac" { #expect(abs(byGStreamer.offsetMilliseconds) < 1, "GStreamer: \(byGStreamer)") }
    }
}
