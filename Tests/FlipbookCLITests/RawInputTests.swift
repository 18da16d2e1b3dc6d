import FlipbookTestSupport
import Foundation
import Testing

/// Raw frames piped into `flipbook -`.
@Suite struct RawInputTests {
    /// Three 64x32 frames: left half red, right half blue, a green bar that moves, in `format`.
    static func frames(format: String, count: Int = 3) -> Data {
        var bytes: [UInt8] = []
        for index in 0..<count {
            for _ in 0..<32 {
                for x in 0..<64 {
                    var rgb: [UInt8] = x < 32 ? [255, 0, 0] : [0, 0, 255]
                    if (index * 16..<index * 16 + 8).contains(x) { rgb = [0, 255, 0] }
                    switch format {
                    case "rgba": bytes += rgb + [255]
                    case "bgra": bytes += [rgb[2], rgb[1], rgb[0], 255]
                    default: bytes += rgb
                    }
                }
            }
        }
        return Data(bytes)
    }

    @Test func rgbaBGRAAndRGBFramesGiveTheSameMovieWithRedStayingRed() throws {
        let dir = try TemporaryDirectory()
        var decoded: [[[UInt8]]] = []
        for format in ["rgba", "bgra", "rgb"] {
            let movie = dir.path("\(format).mp4")
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath,
                ["-", "--raw-size", "64x32", "--raw-format", format, "-o", movie, "--crf", "10"],
                stdin: Self.frames(format: format))
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let stream = try Judge.stream(of: movie)
            #expect(stream.frameCount == 3 && stream.width == 64 && stream.height == 32)
            let rgb = try Judge.decodedRGB(of: movie)
            decoded.append(rgb.frames)
            // Frame 2's bar is at x 32..<40, so x 8 is red and x 56 is blue.
            let red = Array(rgb.frames[2][(16 * 64 + 8) * 3..<(16 * 64 + 8) * 3 + 3])
            let blue = Array(rgb.frames[2][(16 * 64 + 56) * 3..<(16 * 64 + 56) * 3 + 3])
            #expect(red[0] > 240 && red[1] < 15 && red[2] < 15, "\(format) red came back as \(red)")
            #expect(blue[0] < 15 && blue[1] < 15 && blue[2] > 240, "\(format) blue came back as \(blue)")
        }
        #expect(decoded[0] == decoded[1], "rgba and bgra give the same pictures")
        #expect(decoded[0] == decoded[2], "rgba and rgb give the same pictures")
    }

    @Test func aShortLastFrameFailsNamingItsIndexAndLeavesNoFile() throws {
        let dir = try TemporaryDirectory()
        let movie = dir.path("short.mp4")
        let input = Self.frames(format: "rgb").dropLast(100)
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, ["-", "--raw-size", "64x32", "--raw-format", "rgb", "-o", movie],
            stdin: Data(input))
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.contains("frame 2"), "\(result.stderr)")
        #expect(result.stderr.contains("6044 of 6144 bytes"), "\(result.stderr)")
        #expect(dir.entries().isEmpty, "nothing at the output path, no temporary files")
    }

    @Test func rawInputNeedsRawSizeAndStandsAlone() throws {
        let dir = try TemporaryDirectory()
        let noSize = try ExternalTool.run(ExternalTool.flipbookPath, ["-", "-o", dir.path("a.mp4")], stdin: Data())
        #expect(noSize.status == 2)
        #expect(noSize.stderr.contains("--raw-size"))
        let mixed = try ExternalTool.run(
            ExternalTool.flipbookPath, ["-", "x.png", "--raw-size", "8x8", "-o", dir.path("a.mp4")], stdin: Data())
        #expect(mixed.status == 2)
        #expect(dir.entries().isEmpty)
    }
}
