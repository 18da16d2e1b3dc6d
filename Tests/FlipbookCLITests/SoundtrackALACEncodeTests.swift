import FlipbookTestSupport
import Foundation
import Testing

/// `--audio-codec alac` and `--audio-rate keep`: lossless sound at the rate a studio masters at, described as
/// each container says, judged by ffprobe, ffmpeg's decode and MediaInfo's reading of the sample entry.
@Suite struct SoundtrackALACEncodeTests {
    /// Six pictures at 30 fps: 0.2 s, as long as the sounds made here, so nothing is cut.
    static func frames(in dir: TemporaryDirectory) throws -> String {
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 6, width: 64, height: 48, into: frames)
        return frames
    }

    /// The decoded samples of the first sound stream as 32-bit integers (24-bit sound in the high bits), hashed.
    static func decodedHash(of file: String) throws -> String {
        let result = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-i", file, "-map", "0:a:0", "-f", "s32le", "-c:a", "pcm_s32le", "-f", "md5", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A 24-bit FLAC master at 96 and 192 kHz, and 16-bit sound at 44.1 kHz, come out of each container sample for
    /// sample: the same decoded samples as the source, at its rate and depth.
    @Test(arguments: [
        ("mp4", 96000, 24), ("mov", 96000, 24), ("mkv", 96000, 24), ("mp4", 192_000, 24), ("m4v", 44100, 16),
    ])
    func alacKeepsTheSourceSampleForSample(ext: String, rate: Int, bits: Int) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let master = dir.path("master.flac")
        try AudioJudge.makeSound(
            master, source: "sine=frequency=997:duration=0.2:sample_rate=\(rate)",
            ["-af", "volume=0.7", "-c:a", "flac", "-sample_fmt", bits == 16 ? "s16" : "s32"]
                + (bits == 16 ? [] : ["-bits_per_raw_sample", "24"]))
        let movie = dir.path("out.\(ext)")
        try SoundtrackEncodeTests.encode([
            frames, "-o", movie, "--fps", "30", "--audio", master, "--audio-codec", "alac", "--audio-rate", "keep",
        ])
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name,sample_rate") == "alac,\(rate)")
        #expect(try SoundtrackFormatTests.probe(movie, "bits_per_raw_sample") == "\(bits)")
        #expect(try Self.decodedHash(of: movie) == (try Self.decodedHash(of: master)), "bit for bit")
        #expect(try Judge.decodeErrors(of: movie) == "")
    }

    /// Without `--audio-rate keep`, sound above 48 kHz is resampled to 48 kHz, whatever the codec.
    @Test(arguments: [("alac", "alac"), ("aac", "aac")])
    func withoutKeepSoundAbove48kHzIsResampled(choice: String, codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let master = dir.path("master.flac")
        try AudioJudge.makeSound(master, source: "sine=frequency=997:duration=0.2:sample_rate=96000", ["-c:a", "flac"])
        let movie = dir.path("out.mp4")
        try SoundtrackEncodeTests.encode([
            frames, "-o", movie, "--fps", "30", "--audio", master, "--audio-codec", choice,
        ])
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name,sample_rate") == "\(codec),48000")
        try SoundtrackEncodeTests.encode([
            frames, "-o", movie, "--fps", "30", "--audio", master, "--audio-codec", choice, "--audio-rate", "keep",
            "--overwrite",
        ])
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name,sample_rate") == "\(codec),96000")
        #expect(try Judge.decodeErrors(of: movie) == "")
    }

    /// A rate past 65535 Hz does not fit the 16.16 `samplerate` field: an MP4 states it in an `srat` box of a
    /// version 1 entry (in a version 1 `stsd`), a QuickTime movie in a version 2 sound description, as MediaInfo
    /// reads them.
    @Test(arguments: ["mp4", "mov"])
    func ratesPast65535HzAreDescribedAsTheFormatSays(ext: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let master = dir.path("master.flac")
        try AudioJudge.makeSound(master, source: "sine=frequency=997:duration=0.2:sample_rate=96000", ["-c:a", "flac"])
        let movie = dir.path("out.\(ext)")
        try SoundtrackEncodeTests.encode([
            frames, "-o", movie, "--fps", "30", "--audio", master, "--audio-codec", "alac", "--audio-rate", "keep",
        ])
        let details = try ExternalTool.run("mediainfo", ["--Details=1", movie]).stdout
        let entry = try #require(details.range(of: "Name:                           alac"))
        let fields = details[entry.upperBound...].prefix(1500)
        if ext == "mp4" {
            // entry_version 1 in the first reserved word, the rate halved to fit, then the srat box.
            #expect(fields.contains("reserved (0):                    65536 (0x00010000)"), "\(fields)")
            #expect(fields.contains("samplerate:                      48000"), "\(fields)")
            #expect(fields.contains("Name:                          srat"), "\(fields)")
            // The sound track's stsd: the last before its entry (a timecode track's comes after).
            let stsd = try #require(
                details.range(
                    of: "Name:                            stsd", options: .backwards,
                    range: details.startIndex..<entry.lowerBound))
            #expect(details[stsd.upperBound...].prefix(80).contains("Version:                          1 (0x01)"))
        } else {
            #expect(fields.contains("Version:                         2 (0x0002)"), "\(fields)")
            #expect(fields.contains("Sample rate:                     96000.000"), "\(fields)")
        }
        #expect(try SoundtrackFormatTests.probe(movie, "sample_rate") == "96000")
    }

    /// Sound made by SoX, as a studio's scripts make it: 16-bit AIFF at 44.1 kHz and 24-bit WAV at 48 kHz, encoded
    /// to ALAC sample for sample.
    @Test(arguments: [("aiff", "16", "44100"), ("wav", "24", "48000")])
    func soxFilesBecomeALACSampleForSample(ext: String, bits: String, rate: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let sound = dir.path("sox.\(ext)")
        let made = try ExternalTool.run(
            "sox",
            [
                "-n", "-b", bits, "-r", rate, "-c", "2", sound, "synth", "0.2", "sine", "440", "sine", "660", "vol",
                "0.5",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let movie = dir.path("out.mov")
        try SoundtrackEncodeTests.encode([
            frames, "-o", movie, "--fps", "30", "--audio", sound, "--audio-codec", "alac",
        ])
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name,sample_rate,channels") == "alac,\(rate),2")
        #expect(try Self.decodedHash(of: movie) == (try Self.decodedHash(of: sound)), "bit for bit")
    }

    /// What cannot be: Opus at another rate, a bit rate for lossless sound, ALAC in WebM, a rate that is not `keep`.
    @Test(arguments: [
        (["--audio-codec", "opus", "--audio-rate", "keep"], "Opus is always 48 kHz", "mp4"),
        (["--audio-codec", "alac", "--audio-bitrate", "256k"], "ALAC is lossless", "mp4"),
        (["--audio-codec", "alac"], ".mkv", "webm"),
        (["--audio-rate", "96000"], "use keep", "mp4"),
    ])
    func impossibleChoicesAreUsageErrors(options: [String], words: String, ext: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let sound = dir.path("tone.wav")
        try AudioJudge.makeSound(sound, source: "sine=duration=0.2", ["-c:a", "pcm_s16le"])
        let movie = dir.path("out.\(ext)")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", sound] + options)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(words), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
    }
}
