import FlipbookTestSupport
import Foundation
import Testing

/// `--audio-codec copy|aac|opus` chooses between copying a soundtrack's packets and encoding them; a choice
/// the container cannot hold is a usage error naming the containers that can.
@Suite struct SoundtrackCodecChoiceTests {
    @Test(arguments: [
        ("aac", "webm", ".mp4, .m4v, .mov or .mkv"), ("opus", "mov", ".mp4, .webm or .mkv"),
        ("opus", "m4v", ".mp4, .webm or .mkv"),
    ])
    func aCodecTheContainerCannotHoldIsAUsageErrorNamingWhatCan(codec: String, ext: String, names: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let song = dir.path("song.wav")
        try AudioJudge.makeSound(song, source: "sine=frequency=440:duration=1", ["-c:a", "pcm_s16le"])
        let movie = dir.path("out.\(ext)")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", song, "--audio-codec", codec])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("--audio-codec \(codec)") && result.stderr.contains(names), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
    }

    @Test func copyingSoundTheContainerDoesNotHoldIsOneLineNamingTheFile() throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let song = dir.path("song.ogg")
        try AudioJudge.makeSound(song, source: "sine=frequency=440:duration=3", ["-c:a", "libvorbis"])
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", song, "--audio-codec", "copy"])
        #expect(result.status == 2, "a usage error, before any picture is encoded")
        #expect(result.stderr.hasPrefix("flipbook: --audio-codec copy: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(song) && result.stderr.contains("cannot be copied"), "\(result.stderr)")
        #expect(result.stderr.contains("into .webm or .mkv files only"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
    }

    /// AAC from an `.m4a`: copied by default and with `copy`, encoded again with `aac`; WAV encoded to Opus
    /// in an MP4 with `opus`.
    @Test(arguments: [("m4a", "copy", "aac", true), ("m4a", "aac", "aac", false), ("wav", "opus", "opus", false)])
    func theChoiceDecidesBetweenCopyingAndEncoding(source: String, choice: String, codec: String, copied: Bool) throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let song = dir.path("song.\(source)")
        try AudioJudge.makeSound(
            song, source: "sine=frequency=440:duration=3", ["-c:a", source == "wav" ? "pcm_s16le" : "aac"])
        let movie = dir.path("out.mp4")
        try SoundtrackEncodeTests.encode([frames, "-o", movie, "--audio", song, "--audio-codec", choice])
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name") == codec)
        #expect(abs(try AudioJudge.stream(of: movie).duration - 2) < 1e-3)
        #expect(try Judge.decodeErrors(of: movie) == "")
        if source == "m4a" {
            let moviePackets = try AudioJudge.packetHashes(of: movie)
            let sourcePackets = try AudioJudge.packetHashes(of: song)
            #expect((moviePackets == Array(sourcePackets.prefix(moviePackets.count))) == copied)
        }
    }

    /// Vorbis from an Ogg file goes into WebM and Matroska packet for packet (`A_VORBIS`, its headers as
    /// `CodecPrivate`, its delay as `CodecDelay`), AC-3 and E-AC-3 into Matroska frame for frame (`A_AC3`,
    /// `A_EAC3`), each click where ffmpeg plays it in the source; `opus` and `aac` encode them instead.
    @Test(arguments: [
        ("ogg", "libvorbis", "webm", nil, "vorbis"), ("ogg", "libvorbis", "mkv", "copy", "vorbis"),
        ("ogg", "libvorbis", "webm", "opus", "opus"), ("ac3", "ac3", "mkv", nil, "ac3"),
        ("eac3", "eac3", "mkv", "copy", "eac3"), ("ac3", "ac3", "mkv", "aac", "aac"),
    ])
    func vorbisAndAC3AreCopiedIntoTheContainersThatHoldThem(
        source: String, encoder: String, ext: String, choice: String?, codec: String
    ) throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackFormatTests.clickFrames(in: dir)
        let song = dir.path("click.\(source)")
        try AudioJudge.makeSound(song, source: SoundtrackFormatTests.click(), ["-c:a", encoder])
        let movie = dir.path("out.\(ext)")
        try SoundtrackEncodeTests.encode(
            [frames, "-o", movie, "--audio", song] + (choice.map { ["--audio-codec", $0] } ?? []))
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name,sample_rate,channels") == "\(codec),48000,2")
        #expect(try Judge.formatDuration(of: movie) == "2.000000")
        #expect(try Judge.decodeErrors(of: movie) == "")
        let moviePackets = try AudioJudge.packetHashes(of: movie)
        let sourcePackets = try AudioJudge.packetHashes(of: song)
        let copied = codec != "opus" && codec != "aac"
        #expect((moviePackets == Array(sourcePackets.prefix(moviePackets.count))) == copied)
        // ffmpeg's Opus and Vorbis decoders drop the delay the track states (its CodecDelay, the stream's
        // negative start time); its AAC decoder in Matroska does not, so AAC's first sample plays at the start time.
        let start = codec == "aac" ? try AudioJudge.stream(of: movie).startTime : 0
        let heard = try AudioJudge.loudestMoment(of: movie) + start
        let inSource = try AudioJudge.loudestMoment(of: song)
        #expect(abs(heard - inSource) < 0.001, "the click plays at \(heard) s, in the source at \(inSource) s")
    }
}
