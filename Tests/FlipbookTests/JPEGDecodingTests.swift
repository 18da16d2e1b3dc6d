import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

@Suite struct JPEGDecodingTests {
    /// The upright test picture: 48x32, quadrants red, green / blue, white.
    static let quadrants: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]

    static func pixel(_ frame: Frame, _ x: Int, _ y: Int) -> [Int] {
        let offset = y * frame.bytesPerRow + x * frame.format.bytesPerPixel
        return frame.pixels[offset..<offset + 3].map(Int.init)
    }

    static func close(_ a: [Int], _ b: [UInt8], within tolerance: Int) -> Bool {
        zip(a, b).allSatisfy { abs($0 - Int($1)) <= tolerance }
    }

    /// ffmpeg's filters store the upright picture so that orientation `n` turns it upright again.
    @Test(arguments: [
        (1, "null"), (2, "hflip"), (3, "hflip,vflip"), (4, "vflip"), (5, "transpose=cclock_flip"),
        (6, "transpose=cclock"), (7, "transpose=clock_flip"), (8, "transpose=clock"),
    ])
    func exifOrientationTurnsThePictureUpright(orientation: Int, storeFilter: String) throws {
        let dir = try TemporaryDirectory()
        let stored = dir.path("stored.jpg")
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "color=red:s=24x16", "-f", "lavfi", "-i", "color=lime:s=24x16",
                "-f", "lavfi", "-i", "color=blue:s=24x16", "-f", "lavfi", "-i", "color=white:s=24x16",
                "-filter_complex", "[0][1]hstack[top];[2][3]hstack[bottom];[top][bottom]vstack,\(storeFilter)",
                "-frames:v", "1", "-pix_fmt", "yuvj444p", "-q:v", "2", stored,
            ])
        try #require(result.status == 0, "\(result.stderr)")
        for bigEndian in [true, false] {
            let jpeg = TestJPEG.withOrientation(
                try Data(contentsOf: URL(fileURLWithPath: stored)), UInt16(orientation), bigEndian: bigEndian)
            let frame = try ImageDecoder.decode(jpeg, limits: ImageLimits())
            #expect(
                frame.width == 48 && frame.height == 32, "orientation \(orientation): \(frame.width)x\(frame.height)")
            for (index, (x, y)) in [(12, 8), (36, 8), (12, 24), (36, 24)].enumerated() {
                let seen = Self.pixel(frame, x, y)
                #expect(
                    Self.close(seen, Self.quadrants[index], within: 12),
                    "orientation \(orientation) quadrant \(index): \(seen)")
            }
        }
    }

    /// The decoder copies only the bytes before the first scan for EXIF: that offset is the start of
    /// scan marker a walk over the segments' lengths reaches, not the start of scan of a thumbnail JPEG
    /// inside the EXIF segment, and the scans counted are the file's own.
    @Test func theMetadataEndsAtTheFirstScanNotAtAThumbnails() throws {
        let thumbnail = [UInt8](
            try TestJPEG.encode([UInt8](repeating: 9, count: 8 * 8 * 3), width: 8, height: 8, kind: .rgb))
        let picture = try TestJPEG.encode(
            [UInt8](repeating: 77, count: 16 * 8 * 3), width: 16, height: 8, kind: .rgb, progressive: true)
        let jpeg = TestJPEG.withOrientation(picture, 6, thumbnail: thumbnail)
        let bytes = [UInt8](jpeg)
        var position = 2
        while bytes[position + 1] != 0xDA { position += 2 + (Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])) }
        let layout = try #require(jpeg.withUnsafeBytes { ImageSniffing.jpegLayout($0) })
        #expect(layout.firstScan == position && layout.manyScans)
        let scanMarkers = bytes.indices.dropLast().filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
        #expect(scanMarkers.first! < position, "the thumbnail's scan comes first")
        let scans = jpeg.withUnsafeBytes { ImageSniffing.jpegScanCount($0, from: layout.firstScan) }
        #expect(scans == scanMarkers.filter { $0 >= position }.count && scans > 2)
        // Turned upright by orientation 6: 8 wide, 16 high.
        let frame = try ImageDecoder.decode(jpeg, limits: ImageLimits())
        #expect(frame.width == 8 && frame.height == 16, "\(frame.width)x\(frame.height)")
        #expect(ImageSniffing.jpegLayout(UnsafeRawBufferPointer(start: nil, count: 0)) == nil)
    }

    /// A 16x16 sequential (SOF0) JPEG with one scan per component, as `cjpeg -scans` writes it with
    /// the scan script "0; 1; 2;": sequential, yet three scans.
    static let oneScanPerComponent = """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcp\
        LDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy\
        MjIyMjIyMjIyMjIyMjL/wAARCAAQABADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABQMH/8QAKhAAAQIEBAMJAAAA\
        AAAAAAAAAQIDBAUREgATFCEiMVEGFRYjMkFSYYH/2gAIAQEAAD8Ay5apnFTV6FgeKxF5raEoSEgklStgPsnFpD4jlE4U1DAt\
        PloP3eWpGXaeO41TbvzrSu3PDEnW2t+eQhRnPO6daIe60upQaqAPWn70wlCvQyezCZHpgiOFYjuzMJWGy8XAi75We3qpvTH/\
        xAAUAQEAAAAAAAAAAAAAAAAAAAAB/8QAHhEAAQQBBQAAAAAAAAAAAAAAAQIRITEEAAMGEmH/2gAIAQIRAD8Acnk2burX0cJU\
        RDksDL2IFUB6Nf/EABQBAQAAAAAAAAAAAAAAAAAAAAX/xAAdEQABAwUBAAAAAAAAAAAAAAABAgMxAAQRIUFx/9oACAEDEQA/\
        AHL2xQXHG1qzgLHsgpgyOb1wiv/Z
        """

    /// Only a file that can hold several scans has them counted against the limit: a baseline JPEG's
    /// single interleaved scan (libjpeg-turbo refuses a second one) is not, a progressive one's are.
    @Test func onlyFilesWithSeveralScansAreCounted() throws {
        let oneScanPerComponent = try #require(Data(base64Encoded: Self.oneScanPerComponent))
        #expect(oneScanPerComponent.withUnsafeBytes { ImageSniffing.jpegLayout($0) }?.manyScans == true)
        _ = try ImageDecoder.decode(oneScanPerComponent, limits: ImageLimits(maxJPEGScans: 3))
        #expect(throws: FlipbookError.self) {
            try ImageDecoder.decode(oneScanPerComponent, limits: ImageLimits(maxJPEGScans: 2))
        }
        for (kind, channels) in [(TestJPEG.Kind.rgb, 3), (.rgb420, 3), (.gray, 1)] {
            let pixels = [UInt8](repeating: 128, count: 16 * 16 * channels)
            let baseline = try TestJPEG.encode(pixels, width: 16, height: 16, kind: kind)
            let progressive = try TestJPEG.encode(pixels, width: 16, height: 16, kind: kind, progressive: true)
            #expect(baseline.withUnsafeBytes { ImageSniffing.jpegLayout($0) }?.manyScans == false)
            #expect(progressive.withUnsafeBytes { ImageSniffing.jpegLayout($0) }?.manyScans == true)
            _ = try ImageDecoder.decode(baseline, limits: ImageLimits(maxJPEGScans: 0))
            #expect(throws: FlipbookError.self) {
                try ImageDecoder.decode(progressive, limits: ImageLimits(maxJPEGScans: 1))
            }
        }
    }

    @Test func malformedExifNeverTrapsAndMeansNoOrientation() throws {
        let jpeg = [UInt8](
            TestJPEG.withOrientation(try TestJPEG.encode([9, 9, 9], width: 1, height: 1, kind: .rgb), 6))
        #expect(ExifOrientation.read(fromJPEG: jpeg) == 6)
        // Every truncation of the file, and every single byte of the Exif segment set to each of a few values.
        for length in 0..<jpeg.count { _ = ExifOrientation.read(fromJPEG: Array(jpeg.prefix(length))) }
        for position in 2..<min(60, jpeg.count) {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF] {
                var mutated = jpeg
                mutated[position] = value
                if let orientation = ExifOrientation.read(fromJPEG: mutated) { #expect((1...8).contains(orientation)) }
            }
        }
        var outOfRange = jpeg
        outOfRange[2 + 4 + 6 + 8 + 2 + 8 + 1] = 9  // the orientation value's low byte
        #expect(ExifOrientation.read(fromJPEG: outOfRange) == nil)
        #expect(ExifOrientation.read(fromJPEG: [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF]) == nil)
    }

    @Test func cmykJPEGMatchesTheSamePictureSavedAsRGB() throws {
        // Patches of 16x16: colours a CMYK file can carry exactly, as inverted (Adobe) CMYK.
        let colours: [[UInt8]] = [
            [200, 100, 50], [255, 0, 0], [0, 128, 255], [255, 255, 255], [30, 30, 30], [224, 172, 105],
        ]
        let width = 16 * colours.count
        let height = 16
        var rgb: [UInt8] = []
        var cmyk: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                let colour = colours[x / 16]
                rgb += colour
                let k = colour.max()!
                let inks = colour.map { k == 0 ? 0 : UInt8((Int($0) * 255 + Int(k) / 2) / Int(k)) }
                cmyk += inks + [k]
            }
        }
        let rgbFrame = try ImageDecoder.decode(
            try TestJPEG.encode(rgb, width: width, height: height, kind: .rgb), limits: ImageLimits())
        let cmykFrame = try ImageDecoder.decode(
            try TestJPEG.encode(cmyk, width: width, height: height, kind: .cmyk), limits: ImageLimits())
        #expect(cmykFrame.width == width && cmykFrame.height == height && cmykFrame.format == .rgb)
        for (index, colour) in colours.enumerated() {
            let fromCMYK = Self.pixel(cmykFrame, index * 16 + 8, 8)
            let fromRGB = Self.pixel(rgbFrame, index * 16 + 8, 8)
            #expect(Self.close(fromCMYK, colour, within: 3), "CMYK patch \(index): \(fromCMYK), source \(colour)")
            #expect(Self.close(fromCMYK, fromRGB.map(UInt8.init), within: 3), "CMYK \(fromCMYK), RGB \(fromRGB)")
        }
    }

    @Test func invertedCMYKConvertsByMultiplyingWithK() {
        #expect(
            rgbFromInvertedCMYK([255, 255, 255, 255, 255, 0, 128, 200, 0, 0, 0, 0]) == [
                255, 255, 255, 200, 0, 100, 0, 0, 0,
            ])
    }

    @Test(arguments: [false, true])
    func grayscaleAndProgressiveJPEGsDecodeToTheirPixels(progressive: Bool) throws {
        let gray = (0..<32 * 16).map { UInt8(($0 % 32) * 8) }
        let grayFrame = try ImageDecoder.decode(
            try TestJPEG.encode(gray, width: 32, height: 16, kind: .gray, quality: 100, progressive: progressive),
            limits: ImageLimits())
        #expect(grayFrame.format == .rgb && grayFrame.width == 32 && grayFrame.height == 16)
        for x in stride(from: 0, to: 32, by: 5) {
            let seen = Self.pixel(grayFrame, x, 7)
            #expect(seen.allSatisfy { abs($0 - x * 8) <= 3 }, "gray at \(x): \(seen)")
        }
        let colour = [UInt8]((0..<32 * 16).flatMap { _ in [UInt8(200), 100, 50] })
        let colourFrame = try ImageDecoder.decode(
            try TestJPEG.encode(colour, width: 32, height: 16, kind: .rgb, progressive: progressive),
            limits: ImageLimits())
        #expect(Self.close(Self.pixel(colourFrame, 16, 8), [200, 100, 50], within: 3))
    }
}
