import FlipbookTestSupport
import Foundation
import Testing

/// ALAC (Apple Lossless, `.m4a` and `.caf`) copied packet for packet into MP4, M4V and MOV (an `alac` sample
/// entry with its `alac` configuration box) and Matroska (`A_ALAC`); judged by ffprobe (codec, rate,
/// channels, duration, packet hashes against the source's) and by ffmpeg's decode, bit for bit the source's.
@Suite struct SoundtrackALACCopyTests {
    /// Two channels of their own tones with a little noise, 3 s at 44.1 kHz: every bit of every sample counts.
    static let source =
        "aevalsrc=0.5*sin(2*PI*440*t)+0.01*random(0)|0.3*sin(2*PI*660*t)+0.01*random(1):s=44100:d=3"

    /// The sound ffmpeg decodes from `file`, as 16- or 24-bit little-endian PCM.
    static func pcm(of file: String, bits: Int) throws -> Data {
        try ExternalTool.runForData(
            "ffmpeg", ["-v", "error", "-i", file, "-map", "0:a:0", "-f", bits == 16 ? "s16le" : "s24le", "-"])
    }

    @Test(arguments: [
        ("m4a", "s16p", 16, "mp4"), ("caf", "s32p", 24, "mov"), ("m4a", "s32p", 24, "m4v"), ("caf", "s16p", 16, "mkv"),
    ])
    func alacIsCopiedPacketForPacketAndDecodesToTheSourcesSamples(
        ext: String, sampleFormat: String, bits: Int, container: String
    ) throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackFormatTests.clickFrames(in: dir)
        let song = dir.path("song.\(ext)")
        try AudioJudge.makeSound(song, source: Self.source, ["-c:a", "alac", "-sample_fmt", sampleFormat])
        let movie = dir.path("out.\(container)")
        try SoundtrackEncodeTests.encode([frames, "-o", movie, "--audio", song])
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name,sample_rate,channels") == "alac,44100,2")
        #expect(try Judge.formatDuration(of: movie) == "2.000000")
        #expect(try Judge.decodeErrors(of: movie) == "")
        let moviePackets = try AudioJudge.packetHashes(of: movie)
        let sourcePackets = try AudioJudge.packetHashes(of: song)
        #expect(moviePackets.count == 22, "2 s of 4096-sample packets at 44.1 kHz: \(moviePackets.count)")
        #expect(moviePackets == Array(sourcePackets.prefix(moviePackets.count)), "the packets are the source's")
        let kept = 2 * 44100 * 2 * bits / 8
        let heard = try Self.pcm(of: movie, bits: bits)
        let played = try Self.pcm(of: song, bits: bits)
        if container != "mkv" {
            #expect(abs(try AudioJudge.stream(of: movie).duration - 2) < 1e-6, "the edit list cuts the sound")
        }
        // ffmpeg 5.1 plays the last packet whole: past the edit list's end, and in Matroska the last block
        // carries no DiscardPadding (its frame-threaded ALAC decoder would cut an earlier frame).
        let packet = 4096 * 2 * bits / 8
        #expect(
            heard.count >= kept && heard.count < kept + packet,
            "ffmpeg decodes \(heard.count) bytes of the movie's sound, for \(kept)")
        #expect(heard.prefix(kept) == played.prefix(kept), "the movie's sound is the source's, bit for bit")
    }

    /// WebM holds no ALAC: `copy` is one line naming the file and the containers that hold it; without a
    /// choice it is encoded to Opus.
    @Test func alacIsNotCopiedIntoWebM() throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let song = dir.path("song.m4a")
        try AudioJudge.makeSound(song, source: "sine=frequency=440:duration=3", ["-c:a", "alac"])
        let movie = dir.path("out.webm")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", song, "--audio-codec", "copy"])
        #expect(result.status == 2, "a usage error, before any picture is encoded")
        #expect(result.stderr.hasPrefix("flipbook: --audio-codec copy: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(song) && result.stderr.contains("cannot be copied"), "\(result.stderr)")
        #expect(result.stderr.contains("into .mp4, .m4v, .mov or .mkv files only"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
        try SoundtrackEncodeTests.encode([frames, "-o", movie, "--audio", song])
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name") == "opus")
    }
}
