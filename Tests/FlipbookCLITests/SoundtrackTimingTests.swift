import FlipbookTestSupport
import Foundation
import Testing

/// `--audio-offset` both ways and `--loop-audio`: a 0.75 s sound with a click at 0.5 s, under a
/// 2 s movie, comes out (decoded by ffmpeg) with its clicks and its end where the options put them.
@Suite struct SoundtrackTimingTests {
    /// The loud samples' times, in seconds from the stream's start time, one per click.
    static func clicks(in movie: String) throws -> [Double] {
        let samples = try AudioJudge.decodedSamples(of: movie)
        let start = try AudioJudge.stream(of: movie).startTime
        var times: [Double] = []
        var index = 1
        while index < samples.count - 1 {
            let level = abs(samples[index])
            if level > 0.3, level >= abs(samples[index - 1]), level >= abs(samples[index + 1]) {
                times.append(start + Double(index) / 48000)
                index += 2400  // one click, not its ringing
            }
            index += 1
        }
        return times
    }

    static func make(_ options: [String], sound ext: String) throws -> String {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 64, height: 48, into: frames)
        let sound = dir.path("short.\(ext)")
        let codec = ext == "wav" ? ["-c:a", "pcm_s16le"] : ["-c:a", "aac"]
        try AudioJudge.makeSound(sound, source: "aevalsrc=if(eq(n\\,24000)\\,0.9\\,0):s=48000:d=0.75", codec)
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", sound, "--quiet"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        // The movie outlives the directory object: copy it out.
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("timing-\(UUID().uuidString).mp4").path
        try FileManager.default.copyItem(atPath: movie, toPath: kept)
        return kept
    }

    @Test(arguments: [
        (["--audio-offset", "0.5"], [1.0], 1.25), (["--audio-offset", "-0.25"], [0.25], 0.5),
        (["--loop-audio"], [0.5, 1.25], 2.0), (["--loop-audio", "--audio-offset", "-0.25"], [0.25, 1.0, 1.75], 2.0),
        (["--loop-audio", "--audio-offset", "0.1"], [0.6, 1.35], 2.0),
    ])
    func encodedSoundIsPlacedToTheSample(options: [String], clicks: [Double], end: Double) throws {
        let movie = try Self.make(options, sound: "wav")
        defer { try? FileManager.default.removeItem(atPath: movie) }
        let found = try Self.clicks(in: movie)
        #expect(found.count == clicks.count, "clicks at \(found)")
        for (time, expected) in zip(found, clicks) {
            #expect(abs(time - expected) < 0.001, "a click at \(time) s, expected \(expected) s")
        }
        let sound = try AudioJudge.stream(of: movie)
        #expect(sound.startTime == 0)
        #expect(abs(sound.end - end) < 1e-6, "the sound ends at \(sound.end) s")
        #expect(try Judge.formatDuration(of: movie) == "2.000000")
    }

    @Test(arguments: [(["--audio-offset", "0.5"], 1.0), (["--audio-offset", "-0.25"], 0.25)])
    func copiedSoundIsPlacedByTheEditList(options: [String], click: Double) throws {
        let movie = try Self.make(options, sound: "m4a")
        defer { try? FileManager.default.removeItem(atPath: movie) }
        let found = try Self.clicks(in: movie)
        #expect(found.count == 1 && abs((found.first ?? 0) - click) < 0.001, "clicks at \(found)")
        #expect(try Judge.formatDuration(of: movie) == "2.000000")
    }

    @Test func copiedSoundCannotLoopInAFragmentedMovieAndSaysWhatToDo() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 4, width: 64, height: 48, into: frames)
        let sound = dir.path("short.m4a")
        try AudioJudge.makeSound(sound, source: "sine=duration=0.5", ["-c:a", "aac"])
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", sound, "--loop-audio", "--fragmented"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(sound) && result.stderr.contains("have it encoded"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
        // As it says: encoded, the same sound loops in a fragmented movie.
        let encoded = try ExternalTool.run(
            ExternalTool.flipbookPath,
            [frames, "-o", movie, "--audio", sound, "--loop-audio", "--fragmented", "--audio-codec", "aac", "--quiet"])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(try SoundtrackFormatTests.probe(movie, "codec_name") == "aac")
    }
}
