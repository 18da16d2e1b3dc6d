import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What is AV1's own in `--codec av1` (SVT-AV1), judged from outside: ffmpeg's `trace_headers` for
/// the colour in every sequence header, decode times equal to presentation times, SVT-AV1's log kept
/// off standard error, MediaInfo for `av1C`, AV1's smallest size. What AV1 shares with the other
/// codecs (10-bit, NTSC and slideshow times, fragments and `kill -9`, joins, probe, the CRF scale) is
/// in ``CodecGuaranteeTests``.
@Suite struct AV1Tests {
    /// Runs the tool with `--codec av1` and fast SVT-AV1 settings on `frames`, expecting success and
    /// (with `-q`) nothing at all on standard error, SVT-AV1's own log included.
    @discardableResult
    static func encode(_ inputs: [String], to movie: String, _ options: [String] = []) throws -> ToolResult {
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, inputs + ["-o", movie, "--codec", "av1", "--preset", "veryfast", "-q"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "-q leaves standard error empty: \(result.stderr)")
        return result
    }

    /// ffprobe's `codec_tag_string` of the first video stream.
    static func codecTag(of movie: String) throws -> String {
        try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_tag_string", "-of", "csv=p=0",
                movie,
            ]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The colour fields of every sequence header in the stream (in `av1C` and in the key frames'
    /// samples), as ffmpeg's `trace_headers` reads them from the bitstream, not from `colr`.
    static func sequenceHeaderColour(of movie: String) throws -> [[String: Int]] {
        let result = try ExternalTool.run(
            "ffmpeg", ["-v", "trace", "-i", movie, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
        #expect(result.status == 0, "\(result.stderr.suffix(500))")
        let keys = ["color_primaries", "transfer_characteristics", "matrix_coefficients", "color_range"]
        var headers: [[String: Int]] = []
        for line in result.stderr.split(separator: "\n") where line.contains("[trace_headers") {
            if line.hasSuffix("Sequence Header") { headers.append([:]) }
            let words = line.split(separator: " ")
            guard words.count >= 4, let key = keys.first(where: { words.contains(Substring($0)) }),
                let value = Int(words[words.count - 1]), !headers.isEmpty
            else { continue }
            headers[headers.count - 1][key] = value
        }
        return headers
    }

    /// Expects every sequence header of `movie` (in `av1C` and in the key frames) to state BT.709 limited range.
    static func expectBT709SequenceHeaders(of movie: String) throws {
        let headers = try sequenceHeaderColour(of: movie)
        #expect(!headers.isEmpty)
        for header in headers {
            #expect(
                header == [
                    "color_primaries": 1, "transfer_characteristics": 1, "matrix_coefficients": 1, "color_range": 0,
                ],
                "\(header)")
        }
    }

    @Test func a30fpsMovieIsMainProfileAV01WithExactTimesBT709AndTheSourcePictures() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 45, width: 128, height: 96, into: frames, padded: true)
        let movie = dir.path("av1.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--codec", "av1", "--preset", "veryfast", "--json", "-q"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(summary["codec"] as? String == "av1")

        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == "av1")
        #expect(try Self.codecTag(of: movie) == "av01")
        #expect(stream.profile == "Main")
        #expect(stream.pixelFormat == "yuv420p")
        #expect(stream.width == 128 && stream.height == 96)
        #expect(
            [stream.colorSpace, stream.colorPrimaries, stream.colorTransfer, stream.colorRange]
                == ["bt709", "bt709", "bt709", "tv"])
        #expect(stream.frameCount == 45)
        let decoded = try Judge.frames(of: movie)
        #expect(decoded.map(\.pts) == (0..<45).map { Int64($0) * 400 }, "30 fps at 12000 ticks a second")
        #expect(decoded.allSatisfy { $0.duration == 400 })
        #expect(try Judge.formatDuration(of: movie) == "1.500000")
        #expect(try Judge.decodeErrors(of: movie) == "")
        let psnr = try Judge.psnr(of: movie, againstImages: "\(frames)/frame%03d.png")
        #expect(psnr >= 35, "PSNR \(psnr) dB at CRF 35")

        // AV1 samples are in presentation order: decode time equals presentation time, no ctts.
        let packets = try Judge.packets(of: movie)
        #expect(packets.map(\.dts) == packets.map(\.pts))
        #expect(packets.first?.isKeyframe == true)
        try Self.expectBT709SequenceHeaders(of: movie)
    }

    @Test func bt601FullRangeIsTaggedInColrAndTheSequenceHeader() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 10, width: 128, height: 96, into: frames, padded: true)
        let movie = dir.path("sd.mp4")
        try Self.encode([frames], to: movie, ["--colour", "bt601", "--range", "full"])
        let stream = try Judge.stream(of: movie)
        #expect(
            [stream.colorSpace, stream.colorPrimaries, stream.colorTransfer, stream.colorRange]
                == ["smpte170m", "smpte170m", "smpte170m", "pc"])
        let headers = try Self.sequenceHeaderColour(of: movie)
        #expect(!headers.isEmpty)
        for header in headers {
            #expect(
                header == [
                    "color_primaries": 6, "transfer_characteristics": 6, "matrix_coefficients": 6, "color_range": 1,
                ],
                "\(header)")
        }
        let colour = try BoxReaders.mediaInfoFields(of: movie).filter { $0.box == "colr" }
        #expect(colour.contains { $0.key == "Color parameter type" && $0.value == "nclx" }, "\(colour)")
    }

    @Test func mediaInfoReadsAnAV01EntryWithAV1CAndTheBrand() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 10, width: 128, height: 96, into: frames)
        let movie = dir.path("mi.mp4")
        try Self.encode([frames], to: movie)
        let summary = try ExternalTool.run("mediainfo", [movie])
        let codecIDs = summary.stdout.split(separator: "\n").filter { $0.hasPrefix("Codec ID") }
        #expect(codecIDs.contains { $0.hasSuffix(": av01") }, "\(codecIDs)")
        #expect(summary.stdout.contains("AV1"))
        let fields = try BoxReaders.mediaInfoFields(of: movie)
        #expect(fields.contains { $0.key == "Name" && $0.value == "av1C" })
        #expect(fields.first { $0.box == "av1C" && $0.key == "seq_profile" }?.number == 0)
        #expect(fields.first { $0.box == "av1C" && $0.key == "chroma_subsampling_x" }?.value == "Yes")
        #expect(fields.first { $0.box == "av1C" && $0.key == "chroma_subsampling_y" }?.value == "Yes")
        #expect(fields.contains { $0.box == "ftyp" && $0.value.hasPrefix("av01") }, "ftyp names av01")
    }

    @Test func aSizeBelowSixtyFourPixelsIsAUsageError() throws {
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, ["x.png", "-o", "/tmp/x.mp4", "--codec", "av1", "--size", "128x48"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--size 128x48") && result.stderr.contains("64x64"), "\(result.stderr)")
    }
}
