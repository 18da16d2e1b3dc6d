import FlipbookTestSupport
import Foundation
import Testing

/// `--audio` with any sound file FFmpeg makes (AIFF, AIFF-C, ALAC in `.m4a` and `.caf` with `--audio-codec
/// aac`, Vorbis in Ogg, AC-3, E-AC-3, WMA): demuxed by libavformat, decoded, encoded to AAC-LC; judged by ffprobe (codec, rate,
/// layout, duration cut to the pictures) and by a click that plays with its white frame.
@Suite struct SoundtrackFormatTests {
    /// Each kind of file ffmpeg makes: extension, ffmpeg's encoder, and whether the file states its
    /// encoder's delay (raw AC-3 and WMA do not: ffmpeg itself plays their click late or early).
    static let kinds: [(ext: String, encoder: String, statesDelay: Bool)] = [
        ("aiff", "pcm_s16be", true), ("aifc", "pcm_f32be", true), ("m4a", "alac", true), ("caf", "alac", true),
        ("ogg", "libvorbis", true), ("ac3", "ac3", false), ("eac3", "eac3", false), ("wma", "wmav2", false),
    ]

    /// 60 frames at 30 fps, black but for a white frame 30 at 1.000 s.
    static func clickFrames(in dir: TemporaryDirectory) throws -> String {
        let frames = try dir.folder("frames")
        let shades = try SampleImages.writeGreyLevels(
            [0, 255], width: 64, height: 48, into: dir.path(""), prefix: "shade")
        for index in 0..<60 {
            try FileManager.default.copyItem(
                atPath: shades[index == 30 ? 1 : 0], toPath: "\(frames)/f\(String(format: "%03d", index)).png")
        }
        return frames
    }

    /// A stereo click at sample `48000 * 1` of `seconds` of silence at `rate` Hz.
    static func click(rate: Int = 48000, seconds: Int = 3) -> String {
        let click = "if(eq(n\\,\(rate))\\,0.9\\,0)"
        return "aevalsrc=\(click)|\(click):s=\(rate):d=\(seconds)"
    }

    static func probe(_ movie: String, _ entries: String) throws -> String {
        try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "a", "-show_entries", "stream=\(entries)", "-of", "csv=p=0", movie]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: kinds)
    func everyKindOfSoundFileBecomesAACThatPlaysWithItsPictures(kind: (ext: String, encoder: String, statesDelay: Bool))
        throws
    {
        let dir = try TemporaryDirectory()
        let frames = try Self.clickFrames(in: dir)
        let song = dir.path("click.\(kind.ext)")
        try AudioJudge.makeSound(song, source: Self.click(), ["-c:a", kind.encoder])
        let movie = dir.path("out.mp4")
        // ALAC would be copied into the MP4: it is encoded when asked.
        let choice = kind.encoder == "alac" ? ["--audio-codec", "aac"] : []
        try SoundtrackEncodeTests.encode([frames, "-o", movie, "--audio", song] + choice)
        #expect(try Self.probe(movie, "codec_name,sample_rate,channels,channel_layout") == "aac,48000,2,stereo")
        let sound = try AudioJudge.stream(of: movie)
        #expect(sound.startTime == 0 && abs(sound.duration - 2) < 1e-6, "the sound lasts \(sound.duration) s")
        #expect(try Judge.decodeErrors(of: movie) == "")
        let heard = try AudioJudge.loudestMoment(of: movie)
        let inSource = try AudioJudge.loudestMoment(of: song)
        #expect(
            abs(heard - inSource) < 0.001, "the click plays at \(heard) s, ffmpeg plays the source's at \(inSource) s")
        if kind.statesDelay {
            let white = try #require(try Judge.lumaMeans(of: movie).firstIndex { $0 > 128 })
            let whiteTime = try #require(Double(try Judge.frames(of: movie)[white].ptsTime))
            #expect(abs(heard - whiteTime) < 0.001, "the click is at \(heard) s, its white frame at \(whiteTime) s")
        }
    }

    /// Masters above 48 kHz are resampled to 48 kHz (SoX's resampler) and the click stays on its frame.
    @Test(arguments: [96000, 192_000])
    func hiResFLACIsResampledTo48kHzAndStaysOnItsFrame(rate: Int) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.clickFrames(in: dir)
        let song = dir.path("master.flac")
        try AudioJudge.makeSound(song, source: Self.click(rate: rate), ["-c:a", "flac"])
        let movie = dir.path("out.mp4")
        try SoundtrackEncodeTests.encode([frames, "-o", movie, "--audio", song])
        #expect(try Self.probe(movie, "codec_name,sample_rate,channels,channel_layout") == "aac,48000,2,stereo")
        #expect(abs(try AudioJudge.stream(of: movie).duration - 2) < 1e-6)
        let heard = try AudioJudge.loudestMoment(of: movie)
        #expect(abs(heard - 1) < 0.001, "the click plays at \(heard) s")
    }

    /// A rate AAC has no index for (50 kHz) is resampled to 48 kHz rather than refused.
    @Test func aRateAACCannotCarryIsResampledTo48kHz() throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let odd = dir.path("odd.wav")
        try AudioJudge.makeSound(odd, source: "sine=frequency=440:duration=1:sample_rate=50000", ["-c:a", "pcm_s16le"])
        let movie = dir.path("out.mp4")
        try SoundtrackEncodeTests.encode([frames, "-o", movie, "--audio", odd])
        #expect(try Self.probe(movie, "codec_name,sample_rate") == "aac,48000")
        #expect(abs(try AudioJudge.stream(of: movie).duration - 1) < 1e-6, "the sound ends where it ends")
    }

    /// Each kind, and WAV and FLAC, cut to half its length or with its header overwritten, under a movie that
    /// outlasts it: one line naming the file, status 1, and the movie already at the destination untouched.
    @Test(arguments: kinds + [("flac", "flac", true), ("wav", "pcm_s24le", true)], ["cut", "damaged"])
    func aCutOrDamagedFileIsOneLineNamingItAndTheOldMovieStays(
        kind: (ext: String, encoder: String, statesDelay: Bool), harm: String
    ) throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let whole = dir.path("whole.\(kind.ext)")
        try AudioJudge.makeSound(
            whole, source: "sine=frequency=440:duration=4:sample_rate=48000", ["-ac", "2", "-c:a", kind.encoder])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        if harm == "cut" {
            bytes = Array(bytes.prefix(bytes.count / 2))
        } else {
            for index in 12..<60 { bytes[index] = UInt8(truncatingIfNeeded: index &* 37) }
        }
        let song = dir.path("\(harm).\(kind.ext)")
        try Data(bytes).write(to: URL(fileURLWithPath: song))
        let movie = dir.path("out.mp4")
        let old = Data("the movie that was here".utf8)
        try old.write(to: URL(fileURLWithPath: movie))
        // 6 s of pictures: the whole of the sound is read.
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", song, "--fps", "10", "--overwrite"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && result.stderr.contains(song), "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("flipbook: error: \(song): "),
            "the sound is at fault, not a frame: \(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: movie)) == old, "the old movie is untouched")
        #expect(!dir.entries().contains { $0.hasPrefix(".out") }, "no temporary files: \(dir.entries())")
    }

    /// A soundtrack that is not there, or is a folder, is named as a soundtrack, not as an image.
    @Test(arguments: [("missing.wav", "does not exist"), ("folder", "is a folder, not a sound file")])
    func aMissingSoundtrackOrAFolderIsNamedAsTheSoundtrack(name: String, words: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let sound = name == "folder" ? try dir.folder(name) : dir.path(name)
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", sound])
        #expect(result.status == 1)
        #expect(
            result.stderr == "flipbook: error: \(sound): \(words)"
                + (name == "folder" ? "; give the sound file itself\n" : "; check the soundtrack's path\n"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
    }
}
