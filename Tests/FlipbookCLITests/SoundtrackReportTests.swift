import FlipbookTestSupport
import Foundation
import Testing

/// `--json` and `flipbook probe` report the sound track as ffprobe sees it.
@Suite struct SoundtrackReportTests {
    @Test func jsonAndProbeReportTheSoundTrackAsFFprobeSeesIt() throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let song = dir.path("song.flac")
        try AudioJudge.makeSound(
            song, source: "sine=frequency=440:duration=3:sample_rate=32000", ["-ac", "2", "-c:a", "flac"])
        let movie = dir.path("out.mp4")
        let made = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", song, "--json", "--quiet"])
        #expect(made.status == 0, "\(made.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let reported = try #require(summary["audio"] as? [String: Any])
        let judged = try AudioJudge.stream(of: movie)
        #expect(reported["codec"] as? String == judged.codecName)
        #expect(reported["sampleRate"] as? Int == judged.sampleRate && judged.sampleRate == 32000)
        #expect(reported["channels"] as? Int == judged.channels && judged.channels == 2)
        #expect(abs((reported["duration"] as? Double ?? 0) - judged.duration) < 1e-6)

        let probed = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie, "--json"])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any])
        let audio = try #require(info["audio"] as? [String: Any])
        #expect(audio["codec"] as? String == "aac" && audio["channels"] as? Int == 2)
        #expect(audio["sampleRate"] as? Int == 32000 && abs((audio["duration"] as? Double ?? 0) - 2) < 1e-6)
        let text = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie])
        #expect(text.stdout.contains("audio       aac, 32000 Hz, 2 channels, 2.000000 s"), "\(text.stdout)")

        let silent = dir.path("silent.mp4")
        _ = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", silent, "--quiet"])
        let plain = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", silent, "--json"])
        #expect(!plain.stdout.contains("audio"), "a movie without sound reports none: \(plain.stdout)")
    }
}
