import FlipbookTestSupport
import Foundation
import Testing

/// Surround sound keeps its layout: a WAV whose channels each carry their own tone comes out in AAC
/// (the AudioSpecificConfig's channel configuration), ALAC and Opus (mapping family 1) with every tone in its
/// channel, as ffprobe and ffmpeg read the movie, and a QuickTime movie names its speakers in a `chan` box; a
/// layout AAC cannot carry is mixed down with a warning.
@Suite struct SoundtrackLayoutTests {
    /// One tone a channel, in FFmpeg's order of each layout (the LFE channel's low).
    static let tones: [String: [Double]] = [
        "5.1": [200, 300, 400, 60, 500, 600],
        "7.1": [200, 300, 400, 60, 500, 600, 700, 800],
    ]

    static func surround(_ layout: String, into path: String) throws {
        let channels = try #require(tones[layout]).map { "0.5*sin(2*PI*\(Int($0))*t)" }.joined(separator: "|")
        try AudioJudge.makeSound(
            path, source: "aevalsrc=\(channels):s=48000:d=3:channel_layout=\(layout)", ["-c:a", "pcm_s16le"])
    }

    @Test(arguments: [
        ("5.1", "mp4", "aac"), ("5.1", "webm", "opus"), ("7.1", "mp4", "aac"), ("7.1", "mkv", "aac"),
        ("7.1", "webm", "opus"), ("5.1", "mov", "aac"), ("7.1", "mov", "aac"), ("5.1", "mov", "alac"),
        ("5.1", "mkv", "alac"),
    ])
    func everyChannelComesOutInItsPlace(layout: String, ext: String, codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let wav = dir.path("surround.wav")
        try Self.surround(layout, into: wav)
        let movie = dir.path("out.\(ext)")
        try SoundtrackEncodeTests.encode([frames, "-o", movie, "--audio", wav, "--audio-codec", codec])
        let tones = try #require(Self.tones[layout])
        let probed = try SoundtrackFormatTests.probe(movie, "codec_name,channels,channel_layout")
        #expect(probed == "\(codec),\(tones.count),\(layout)")
        let measured = try ToneJudge.dominantTones(of: movie, candidates: tones)
        #expect(measured.map(\.tone) == tones, "channel by channel: \(measured)")
        #expect(measured.allSatisfy { $0.margin > 100 }, "each tone stands alone in its channel: \(measured)")
        if ext == "mov" {
            // A QuickTime movie names the speakers in a `chan` box, as ffmpeg and Apple's tools write it.
            let details = try ExternalTool.run("mediainfo", ["--Details=1", movie]).stdout
            let chan = try #require(details.range(of: "Name:                          chan"), "a chan box")
            let mask = layout == "5.1" ? "0x0000003F" : "0x0000063F"
            #expect(
                details[chan.upperBound...].prefix(400).contains(
                    "ChannelBitmap:                  \(Int(mask.dropFirst(2), radix: 16)!) (\(mask))"))
        }
    }

    /// 6.1 has no AAC channel configuration: it is mixed to 5.1, and a warning line says so; Opus keeps it.
    @Test func aLayoutAACCannotCarryIsMixedDownWithAWarning() throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let wav = dir.path("six-one.wav")
        let channels = (0..<7).map { "0.5*sin(2*PI*\(200 + 100 * $0)*t)" }.joined(separator: "|")
        try AudioJudge.makeSound(
            wav, source: "aevalsrc=\(channels):s=48000:d=3:channel_layout=6.1", ["-c:a", "pcm_s16le"])
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", wav])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(
            warnings.count == 1 && warnings[0].contains(wav) && warnings[0].contains("mixed to 5.1"), "\(result.stderr)"
        )
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name,channels,channel_layout") == "aac,6,5.1")
        let webm = dir.path("out.webm")
        try SoundtrackEncodeTests.encode([frames, "-o", webm, "--audio", wav])
        #expect(try SoundtrackFormatTests.probe(webm, "codec_name,channels,channel_layout") == "opus,7,6.1")
    }
}
