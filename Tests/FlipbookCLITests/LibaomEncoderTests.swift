import FlipbookTestSupport
import Foundation
import Testing

/// `--encoder`: a codec's second encoder, AV1 made by libaom beside SVT-AV1, judged from outside: ffprobe
/// for the stream, every time and the key frames, ffmpeg's `trace_headers` for the colour in every
/// sequence header, ffmpeg for decoding and PSNR against the sources; and the usage errors that name the
/// encoders or what the chosen one cannot do, with nothing written.
@Suite struct LibaomEncoderTests {
    static func run(_ arguments: [String]) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.flipbookPath, arguments)
    }

    @Test(arguments: [("mp4", "8", "yuv420p"), ("webm", "10", "yuv420p10le")])
    func libaomMakesAV1WithExactTimesTheColourAndTheSourcePictures(
        container: String, bitDepth: String, pixelFormat: String
    ) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 24, width: 160, height: 96, into: frames, padded: true)
        let movie = dir.path("aom.\(container)")
        let made = try Self.run([
            frames, "-o", movie, "--codec", "av1", "--encoder", "libaom", "--preset", "ultrafast",
            "--bit-depth", bitDepth, "--keyint", "10", "--json", "-q",
        ])
        #expect(made.status == 0 && made.stderr.isEmpty, "\(made.stderr)")
        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == "av1" && stream.profile == "Main" && stream.pixelFormat == pixelFormat)
        #expect(stream.width == 160 && stream.height == 96)
        #expect(
            [stream.colorSpace, stream.colorPrimaries, stream.colorTransfer, stream.colorRange]
                == ["bt709", "bt709", "bt709", "tv"])
        let decoded = try Judge.frames(of: movie)
        #expect(decoded.count == 24)
        #expect(try Judge.decodeErrors(of: movie) == "")
        // One temporal unit a frame, in presentation order, a key frame at least every 10.
        let packets = try Judge.packets(of: movie)
        #expect(packets.count == 24)
        #expect(packets.map(\.dts) == packets.map(\.pts))
        #expect(packets.map(\.pts) == packets.map(\.pts).sorted())
        let keys = packets.enumerated().filter(\.element.isKeyframe).map(\.offset)
        #expect(keys.first == 0 && zip(keys, keys.dropFirst() + [24]).allSatisfy { $1 - $0 <= 10 }, "\(keys)")
        try AV1Tests.expectBT709SequenceHeaders(of: movie)
        let psnr = try Judge.psnr(
            of: movie, againstImages: "\(frames)/frame%03d.png", byIndex: container == "webm")
        #expect(psnr >= 35, "PSNR \(psnr) dB at libaom's CRF 32")
    }

    @Test func eachEncoderMakesItsOwnStreamAndTheDefaultIsTheCodecsFirst() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 12, width: 128, height: 96, into: frames)
        func movie(_ name: String, _ options: [String]) throws -> Data {
            let path = dir.path("\(name).mp4")
            let made = try Self.run(
                [frames, "-o", path, "--codec", "av1", "--preset", "ultrafast", "--threads", "1", "-q"] + options)
            #expect(made.status == 0, "\(made.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let plain = try movie("plain", [])
        let svt = try movie("svt", ["--encoder", "svt-av1"])
        let aom = try movie("aom", ["--encoder", "libaom"])
        #expect(plain == svt, "naming the default encoder changes nothing")
        #expect(aom != svt)
    }

    @Test func anEncoderTheCodecHasNotIsAUsageErrorNamingItsEncoders() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 128, height: 96, into: frames)
        let movie = dir.path("x.mp4")
        let cases: [([String], String)] = [
            (
                ["--codec", "av1", "--encoder", "x264"],
                "--encoder x264 is not one of av1's encoders; use svt-av1 (the default) or libaom."
            ),
            (["--encoder", "libaom"], "--encoder libaom is not one of h264's encoders; use x264 (the default)."),
            (
                ["--codec", "av1", "--encoder", "libaom", "--level", "4"],
                "--level 4 is not available for av1 made by libaom, which marks no level; use --encoder svt-av1."
            ),
            (["--codec", "av1", "--encoder", "libaom", "--bitrate", "1M", "--two-pass"], "two passes"),
            (["--codec", "av1", "--encoder", "libaom", "--tune", "psnr"], "tune"),
        ]
        for (options, expected) in cases {
            let result = try Self.run([frames, "-o", movie] + options)
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(options): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie), "\(options)")
        }
    }
}
