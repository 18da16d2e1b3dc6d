import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// The libdeflate PNG path decodes exactly what libspng decodes, for every row filter.
@Suite struct DeflatePNGDecoderTests {
    /// A PNG written by ffmpeg with one prediction mode (none, sub, up, avg, paeth, mixed).
    static func png(prediction: String, alpha: Bool, in dir: TemporaryDirectory) throws -> Data {
        let path = dir.path("\(prediction)-\(alpha).png")
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=68x42,noise=alls=30:allf=t,scale=67:41", "-frames:v",
                "1",
                "-pix_fmt", alpha ? "rgba" : "rgb24", "-pred", prediction, path,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test(arguments: ["none", "sub", "up", "avg", "paeth", "mixed"], [false, true])
    func everyFilterDecodesLikeLibspng(prediction: String, alpha: Bool) throws {
        let dir = try TemporaryDirectory()
        let data = try Self.png(prediction: prediction, alpha: alpha, in: dir)
        let fast = try #require(try DeflatePNGDecoder.decode(data, limits: ImageLimits()))
        let reference = try SPNGDecoder.decode(data, limits: ImageLimits())
        #expect(fast.width == 67 && fast.height == 41)
        #expect(fast.format == (alpha ? .rgba : .rgb))
        #expect(reference.format == fast.format)
        #expect(fast.pixels == reference.pixels)
    }

    /// A 67x41 image with gradients and noise, its rows written with `filters` in turn.
    static func filteredPNG(colourType: UInt8 = 2, bitDepth: UInt8 = 8, filters: [UInt8]) -> Data {
        let channels = [0: 1, 2: 3, 4: 2, 6: 4][Int(colourType)]!
        let (width, height, top) = (67, 41, 1 << Int(bitDepth))
        var random = SplitMix64(state: 41)
        let samples = (0..<width * height * channels).map { index in
            let (pixel, channel) = (index / channels, index % channels)
            let (x, y) = (pixel % width, pixel / width)
            let smooth = [x * 3, y * 5, (x + y) * 2, 255 - x][channel] * (top / 256)
            return (smooth + Int(random.next() % 9) * (top / 256) + Int(random.next() % UInt64(top / 256))) % top
        }
        return TestPNG.encode(
            width: width, height: height, colourType: colourType, bitDepth: bitDepth, samples: samples,
            filters: filters)
    }

    @Test(arguments: [[UInt8(0)], [1], [2], [3], [4], [4, 4, 3, 1, 4, 2, 0, 4, 3]], [false, true])
    func rowsOfEachFilterDecodeLikeLibspng(filters: [UInt8], alpha: Bool) throws {
        let data = Self.filteredPNG(colourType: alpha ? 6 : 2, filters: filters)
        let fast = try #require(try DeflatePNGDecoder.decode(data, limits: ImageLimits()))
        let reference = try SPNGDecoder.decode(data, limits: ImageLimits())
        #expect(fast.format == reference.format && fast.width == 67 && fast.height == 41)
        #expect(firstDifference(fast.pixels, reference.pixels) == nil, "filters \(filters)")
    }

    @Test func anUnknownFilterTypeIsACorruptImageNamingTheRow() throws {
        let data = Self.filteredPNG(
            filters: [4, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 9] + [UInt8](repeating: 4, count: 27))
        let error = try #require(throws: FlipbookError.self) {
            try DeflatePNGDecoder.decode(data, limits: ImageLimits())
        }
        #expect(error.code == .corruptImage)
        #expect(error.message.contains("row 13 has an unknown filter type 9"), "\(error)")
    }

    @Test(arguments: [UInt8(0), 2, 4, 6], [UInt8(8), 16])
    func greyAnd16BitImagesDecodeLikeLibspng(colourType: UInt8, bitDepth: UInt8) throws {
        let data = Self.filteredPNG(colourType: colourType, bitDepth: bitDepth, filters: [4, 4, 3, 1, 4, 2, 0, 4, 3])
        let fast = try #require(try DeflatePNGDecoder.decode(data, limits: ImageLimits()))
        let reference = try SPNGDecoder.decode(data, limits: ImageLimits())
        #expect(fast.format == (colourType == 4 || colourType == 6 ? .rgba : .rgb))
        #expect(fast.format == reference.format && fast.width == 67 && fast.height == 41)
        #expect(firstDifference(fast.pixels, reference.pixels) == nil)
    }

    @Test(arguments: ["gray", "ya8", "rgb48be", "rgba64be", "gray16be"])
    func greyAnd16BitImagesFromFFmpegDecodeLikeLibspng(format: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("\(format).png")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=68x42,noise=alls=30:allf=t", "-frames:v", "1",
                "-pix_fmt", format, "-pred", "mixed", path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let fast = try #require(try DeflatePNGDecoder.decode(data, limits: ImageLimits()))
        let reference = try SPNGDecoder.decode(data, limits: ImageLimits())
        #expect(fast.format == reference.format && fast.width == 68 && fast.height == 42)
        #expect(firstDifference(fast.pixels, reference.pixels) == nil)
    }

    @Test func otherKindsOfPNGGoToLibspng() throws {
        let dir = try TemporaryDirectory()
        for format in ["pal8", "monob"] {
            let path = dir.path("\(format).png")
            let made = try ExternalTool.run(
                "ffmpeg",
                ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=16x16", "-frames:v", "1", "-pix_fmt", format, path])
            #expect(made.status == 0)
            #expect(
                try DeflatePNGDecoder.decode(Data(contentsOf: URL(fileURLWithPath: path)), limits: ImageLimits()) == nil
            )
        }
    }

    @Test func damageIsAnErrorNotAPicture() throws {
        let dir = try TemporaryDirectory()
        let data = try Self.png(prediction: "paeth", alpha: false, in: dir)
        var flipped = data
        flipped[data.count / 2] ^= 0x40
        for (name, damaged) in [
            ("bit flip", flipped), ("truncated", data.prefix(data.count - 20)), ("half", data.prefix(data.count / 2)),
        ] {
            do {
                _ = try DeflatePNGDecoder.decode(Data(damaged), limits: ImageLimits())
                Issue.record("\(name): damaged PNG decoded")
            } catch let error as FlipbookError {
                #expect(error.code == .corruptImage, "\(name): \(error)")
            }
        }
        var hugeHeader = Array(data)
        // Width 100000 in IHDR, with a CRC that matches so only the limit can stop it.
        hugeHeader.replaceSubrange(16..<20, with: [0x00, 0x01, 0x86, 0xA0])
        hugeHeader.replaceSubrange(17 + 12..<17 + 16, with: crc32(Array(hugeHeader[12..<29])))
        #expect(throws: FlipbookError.self) {
            _ = try DeflatePNGDecoder.decode(Data(hugeHeader), limits: ImageLimits(maxDimension: 16384))
        }
    }

    private func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        return [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
