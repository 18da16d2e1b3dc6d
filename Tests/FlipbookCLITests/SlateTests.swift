import FlipbookTestSupport
import Foundation
import Testing

/// The slate, judged from outside: ffprobe counts its frames and reads the timecode that counts from the
/// first picture after it (or from the slate, when asked) and the soundtrack's start; Tesseract reads
/// the card's lines and the first picture's burn-ins; ffmpeg's PSNR finds the first picture in the
/// card's thumbnail.
@Suite struct SlateTests {
    static func flipbook(_ arguments: [String]) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-q"])
    }

    @Test func aOneSecondSlateComesBeforeTheFirstPictureWhichKeepsItsTimecodeAndSound() throws {
        let dir = try TemporaryDirectory()
        let frames = try BurnInTests.frames(from: 1001, count: 12, size: "1280x720", in: dir)
        let tone = dir.path("tone.wav")
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:r=48000:d=0.5", "-c:a", "pcm_s16le", tone])
        #expect(made.status == 0, "\(made.stderr)")
        let movie = dir.path("dailies.mp4")
        let result = try Self.flipbook([
            frames, "-o", movie, "--fps", "24", "--slate", "1s", "--field", "shot=KESTREL", "--burn-in", "BR:{frame}",
            "--burn-in", "TR:{timecode}", "--audio", tone,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // 24 frames of slate, then the 12 pictures.
        #expect(try Judge.frames(of: movie).count == 36)
        // The timecode track starts 24 frames before the first picture's 00:00:41:17.
        let probed = try TimecodeTests.probedTimecodes(movie)
        #expect(probed.streams.first == "00:00:40:17", "\(probed)")
        // The first picture, frame 24, carries its own number and timecode; the slate carries no burn-in.
        #expect(try TextJudge.read(movie, region: TextJudge.bottomRight, frames: 23...24) == ["", "1001"])
        #expect(try TextJudge.read(movie, region: TextJudge.topRight, frames: 24...24) == ["00:00:41:17"])
        // The card says what the movie is.
        let card = try TextJudge.read(movie, region: (0, 0, 0.55, 0.6), frames: 0...0, psm: 4, characters: nil)
        let text = card.joined(separator: "\n")
        for line in ["shot: KESTREL", "file: f1001.png", "frame: 1001", "timecode: 00:00:41:17", "rate: 24 fps"] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        // The thumbnail is the first picture, two fifths of the card's sides (512x288 at 704,72).
        let thumbnail = try Judge.psnr(
            of: movie, againstImages: "\(frames)/f1001.png", frameRate: "24",
            movieFilters: "select=eq(n\\,0),crop=512:288:704:72,format=yuv420p",
            imageFilters: "scale=512:288:flags=area:out_color_matrix=bt709:out_range=tv,format=yuv420p")
        #expect(thumbnail > 32, "thumbnail PSNR \(thumbnail) dB")
        // The sound starts with the first picture, one second in: ffmpeg's decode is silent until then.
        let silence = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "info", "-nostats", "-i", movie, "-map", "0:a", "-af", "silencedetect=n=-40dB:d=0.1", "-f",
                "null", "-",
            ])
        let end = silence.stderr.split(separator: "\n").first { $0.contains("silence_end:") }
            .flatMap { $0.components(separatedBy: "silence_end: ").last?.split(separator: " ").first }.flatMap {
                Double($0)
            }
        #expect(end.map { abs($0 - 1) < 0.005 } == true, "\(silence.stderr.suffix(600))")
    }

    @Test func theTimecodeCountsFromTheSlateWhenAsked() throws {
        let dir = try TemporaryDirectory()
        let frames = try BurnInTests.frames(from: 1001, count: 3, size: "1280x720", in: dir)
        let movie = dir.path("dailies.mov")
        let result = try Self.flipbook([
            frames, "-o", movie, "--fps", "24", "--slate", "6", "--timecode-on-slate", "--burn-in", "TR:{timecode}",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.frames(of: movie).count == 9)
        #expect(try TimecodeTests.probedTimecodes(movie).streams.first == "00:00:41:17")
        #expect(try TextJudge.read(movie, region: TextJudge.topRight, frames: 6...6) == ["00:00:41:23"])
    }
}
