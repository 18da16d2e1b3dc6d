import FlipbookTestSupport
import Foundation
import Testing

/// A sound file libavformat reads is decoded as the pictures need it: a 5-minute AIFF under a 5-minute
/// movie takes no more memory than a 10-second one under a 10-second movie (held whole as floats, the
/// long one alone would be 115 MB).
@Suite struct SoundtrackMemoryTests {
    /// Peak resident memory in KiB of a movie of two images, each `seconds / 2` on screen, with an AIFF of
    /// `seconds` of stereo 48 kHz sound.
    static func peakMemory(seconds: Int, in dir: TemporaryDirectory) throws -> Int {
        let image = try #require(
            try SampleImages.write(count: 1, width: 64, height: 48, into: dir.path(""), prefix: "still-\(seconds)-")
                .first)
        let song = dir.path("song-\(seconds).aiff")
        try AudioJudge.makeSound(
            song, source: "sine=frequency=440:duration=\(seconds):sample_rate=48000", ["-ac", "2", "-c:a", "pcm_s16be"])
        let movie = dir.path("movie-\(seconds).mp4")
        let report = dir.path("time-\(seconds).txt")
        let result = try ExternalTool.run(
            "/usr/bin/time",
            [
                "-f", "%M", "-o", report, ExternalTool.flipbookPath, image, image, "--keep-order", "--duration",
                "\(seconds / 2)", "-o", movie, "--audio", song, "--quiet",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(abs(try AudioJudge.stream(of: movie).duration - Double(seconds)) < 1e-3, "all of the sound is in")
        return try MemoryTests.peak(inReport: report)
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
            "sanitizers hold freed memory in quarantine, so resident memory grows with the work"))
    func aLongSoundFileTakesNoMoreMemoryThanAShortOne() throws {
        let dir = try TemporaryDirectory()
        let short = try Self.peakMemory(seconds: 10, in: dir)
        let long = try Self.peakMemory(seconds: 300, in: dir)
        #expect(long - short < 20 * 1024, "peak RSS \(short) KiB with 10 s of sound, \(long) KiB with 300 s")
    }
}
