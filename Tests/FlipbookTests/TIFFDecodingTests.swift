import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// TIFF images of every kind the issue names (8- and 16-bit RGB, RGBA, grey, palette, bilevel, CMYK;
/// uncompressed, LZW, Deflate, PackBits, JPEG; strips and tiles; separate planes; the Orientation tag;
/// several pages) decoded by Flipbook against an outside decoder on the same file: ffmpeg for the files
/// ffmpeg wrote, Pillow for those libtiff's tools and Pillow wrote. Within 2 levels, except subsampled
/// Y'CbCr without JPEG (4 levels): libtiff repeats each chroma sample where ffmpeg interpolates.
@Suite struct TIFFDecodingTests {
    /// Who made a variant and who judges it.
    enum Maker: Sendable {
        /// ffmpeg's TIFF encoder from a test pattern in `pixelFormat` with `compression`; ffmpeg judges.
        case ffmpeg(pixelFormat: String, compression: String)
        /// `tiffcp` with `options` over the 8-bit RGB LZW file; Pillow judges.
        case tiffcp(options: [String])
        /// A Python/Pillow statement over `src` (an RGB Pillow image of the pattern) saving to `out`; Pillow judges.
        case pillow(String)
    }

    static let width = 66
    static let height = 38

    /// The pattern: ffmpeg's testsrc2, with an alpha ramp across it when `alpha`.
    static func makePattern(_ path: String, alpha: Bool = false) throws {
        let filters = alpha ? ",format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='3*X+20'" : ""
        let made = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height)\(filters)", "-frames:v", "1", path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// Writes the variant `maker` describes to `path` in `dir`.
    static func make(_ maker: Maker, at path: String, in dir: TemporaryDirectory) throws {
        switch maker {
        case .ffmpeg(let pixelFormat, let compression):
            let pattern = dir.path("pattern-\(pixelFormat).png")
            try makePattern(pattern, alpha: pixelFormat.hasPrefix("rgba") || pixelFormat.hasPrefix("ya"))
            let made = try ExternalTool.run(
                "ffmpeg",
                ["-v", "error", "-y", "-i", pattern, "-pix_fmt", pixelFormat, "-compression_algo", compression, path])
            #expect(made.status == 0, "\(made.stderr)")
        case .tiffcp(let options):
            let base = dir.path("base.tif")
            try make(.ffmpeg(pixelFormat: "rgb24", compression: "raw"), at: base, in: dir)
            let made = try ExternalTool.run("tiffcp", options + [base, path])
            #expect(made.status == 0, "\(made.stderr)")
        case .pillow(let statement):
            let pattern = dir.path("pattern.png")
            try makePattern(pattern)
            let script =
                "import sys; from PIL import Image; src = Image.open(sys.argv[1]).convert('RGB'); out = sys.argv[2]; \(statement)"
            let made = try ExternalTool.run("/usr/bin/python3", ["-c", script, pattern, path])
            #expect(made.status == 0, "\(made.stderr)")
        }
    }

    /// The outside decoder's pixels for `path` as tightly packed RGB or RGBA bytes.
    static func reference(_ maker: Maker, path: String, alpha: Bool) throws -> [UInt8] {
        if case .ffmpeg = maker {
            return [UInt8](
                try ExternalTool.runForData(
                    "ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", alpha ? "rgba" : "rgb24", "-"]))
        }
        return try pillowPixels(path, mode: alpha ? "RGBA" : "RGB")
    }

    /// Pillow's decode of `path`, turned upright by its Orientation tag, as bytes of `mode`.
    static func pillowPixels(_ path: String, mode: String, page: Int = 0) throws -> [UInt8] {
        let script =
            "import sys; from PIL import Image, ImageOps; im = Image.open(sys.argv[1]); im.seek(int(sys.argv[3])); "
            + "sys.stdout.buffer.write(ImageOps.exif_transpose(im).convert(sys.argv[2]).tobytes())"
        return [UInt8](try ExternalTool.runForData("/usr/bin/python3", ["-c", script, path, mode, String(page)]))
    }

    static func worstDifference(_ frame: Frame, _ reference: [UInt8]) -> Int {
        guard frame.pixels.count == reference.count else { return 999 }
        return zip(frame.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 999
    }

    @Test(arguments: [
        ("rgb8-none", Maker.ffmpeg(pixelFormat: "rgb24", compression: "raw"), PixelFormat.rgb, 2),
        ("rgb8-lzw", .ffmpeg(pixelFormat: "rgb24", compression: "lzw"), .rgb, 2),
        ("rgb8-deflate", .ffmpeg(pixelFormat: "rgb24", compression: "deflate"), .rgb, 2),
        ("rgb8-packbits", .ffmpeg(pixelFormat: "rgb24", compression: "packbits"), .rgb, 2),
        ("rgb16-deflate", .ffmpeg(pixelFormat: "rgb48le", compression: "deflate"), .rgb, 2),
        ("rgba8-lzw", .ffmpeg(pixelFormat: "rgba", compression: "lzw"), .rgba, 2),
        ("rgba16-lzw", .ffmpeg(pixelFormat: "rgba64le", compression: "lzw"), .rgba, 2),
        ("grey8-lzw", .ffmpeg(pixelFormat: "gray", compression: "lzw"), .rgb, 2),
        ("grey16-raw", .ffmpeg(pixelFormat: "gray16le", compression: "raw"), .rgb, 2),
        ("palette-packbits", .ffmpeg(pixelFormat: "pal8", compression: "packbits"), .rgb, 2),
        ("bilevel-raw", .ffmpeg(pixelFormat: "monob", compression: "raw"), .rgb, 2),
        ("ycbcr420-raw", .ffmpeg(pixelFormat: "yuv420p", compression: "raw"), .rgb, 4),
        ("rgb8-jpeg-ycbcr", .tiffcp(options: ["-c", "jpeg:90", "-r", "16"]), .rgb, 2),
        ("rgb8-jpeg-rgb", .tiffcp(options: ["-c", "jpeg:r:90", "-r", "16"]), .rgb, 2),
        ("rgb8-tiles-lzw", .tiffcp(options: ["-t", "-w", "16", "-l", "16", "-c", "lzw"]), .rgb, 2),
        ("rgb8-separate-deflate", .tiffcp(options: ["-p", "separate", "-c", "zip"]), .rgb, 2),
        ("rgb8-one-strip-packbits", .tiffcp(options: ["-s", "-r", "100000", "-c", "packbits"]), .rgb, 2),
        ("cmyk8-lzw", .pillow("src.convert('CMYK').save(out, compression='tiff_lzw')"), .rgb, 2),
        (
            "grey8-tiles-pillow",
            .pillow("src.convert('L').save(out, tiled=True, tile=(16, 16), compression='tiff_adobe_deflate')"), .rgb, 2
        ),
    ])
    func decodesLikeAnOutsideDecoder(name: String, maker: Maker, format: PixelFormat, tolerance: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("\(name).tif")
        try Self.make(maker, at: path, in: dir)
        let frame = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
        #expect(frame.width == Self.width && frame.height == Self.height, "\(name)")
        #expect(frame.format == format, "\(name)")
        let reference = try Self.reference(maker, path: path, alpha: format == .rgba)
        #expect(reference.count == Self.width * Self.height * (format == .rgba ? 4 : 3), "\(name)")
        let worst = Self.worstDifference(frame, reference)
        #expect(worst <= tolerance, "\(name): largest difference from the outside decoder \(worst)")
    }

    /// The Orientation tag (set in place with libtiff's `tiffset`) turns the picture like EXIF does, on both
    /// the direct path (RGB LZW) and libtiff's RGBA reader (palette). The judge is ffmpeg, which ignores the
    /// tag, turning its decode with its own filters (Pillow's handling of the tag differs between versions).
    @Test(arguments: ["rgb24", "pal8"], [2, 3, 4, 5, 6, 7, 8])
    func theOrientationTagIsApplied(pixelFormat: String, orientation: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("turned.tif")
        try Self.make(.ffmpeg(pixelFormat: pixelFormat, compression: "lzw"), at: path, in: dir)
        let set = try ExternalTool.run("tiffset", ["-s", "274", String(orientation), path])
        #expect(set.status == 0, "\(set.stderr)")
        let frame = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
        #expect(frame.width == (orientation >= 5 ? Self.height : Self.width), "orientation \(orientation)")
        let turn = [
            2: "hflip", 3: "hflip,vflip", 4: "vflip", 5: "transpose=0", 6: "transpose=1", 7: "transpose=3",
            8: "transpose=2",
        ]
        let reference = [UInt8](
            try ExternalTool.runForData(
                "ffmpeg",
                ["-v", "error", "-i", path, "-vf", turn[orientation]!, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        let worst = Self.worstDifference(frame, reference)
        #expect(worst <= 2, "\(pixelFormat), orientation \(orientation): largest difference from ffmpeg \(worst)")
    }

    @Test func pagesAreCountedAndEachDecodes() throws {
        let dir = try TemporaryDirectory()
        let first = dir.path("first.tif")
        let second = dir.path("second.tif")
        try Self.make(.ffmpeg(pixelFormat: "rgb24", compression: "lzw"), at: first, in: dir)
        try Self.make(.pillow("src.transpose(Image.FLIP_LEFT_RIGHT).save(out)"), at: second, in: dir)
        let stack = dir.path("stack.tif")
        let joined = try ExternalTool.run("tiffcp", [first, second, stack])
        #expect(joined.status == 0, "\(joined.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: stack))
        #expect(try TIFFDecoder.pageCount(data, limits: ImageLimits()) == 2)
        for page in 0..<2 {
            let frame = try TIFFDecoder.decode(data, limits: ImageLimits(), page: page)
            let worst = Self.worstDifference(frame, try Self.pillowPixels(stack, mode: "RGB", page: page))
            #expect(worst <= 2, "page \(page + 1): largest difference from Pillow \(worst)")
        }
        #expect(throws: FlipbookError.self) { try TIFFDecoder.decode(data, limits: ImageLimits(), page: 2) }
    }

    /// A page marked as a reduced-resolution preview (NewSubfileType bit 0, the thumbnail camera raw
    /// files put first) is not the picture: a TIFF of a preview then its full image gives the full
    /// image and `--tiff-pages all` lists only that page; a TIFF holding a preview alone is refused.
    @Test func previewPagesArePassedOverAndAPreviewAloneIsRefused() throws {
        let dir = try TemporaryDirectory()
        let full = dir.path("full.tif")
        try Self.make(.ffmpeg(pixelFormat: "rgb24", compression: "lzw"), at: full, in: dir)
        let preview = dir.path("preview.tif")
        try Self.make(.pillow("src.resize((22, 13)).save(out)"), at: preview, in: dir)
        let marked = try ExternalTool.run("tiffset", ["-s", "254", "1", preview])
        #expect(marked.status == 0, "\(marked.stderr)")
        let alone = try Data(contentsOf: URL(fileURLWithPath: preview))
        #expect {
            try TIFFDecoder.decode(alone, limits: ImageLimits())
        } throws: { error in
            guard let error = error as? FlipbookError else { return false }
            return error.code == .unsupportedImage && error.message.contains("only a 22x13 reduced-resolution preview")
                && error.message.contains("camera raw")
        }
        let stack = dir.path("stack.tif")
        let joined = try ExternalTool.run("tiffcp", [preview, full, stack])
        #expect(joined.status == 0, "\(joined.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: stack))
        #expect(try TIFFDecoder.pageCount(data, limits: ImageLimits()) == 2)
        #expect(try TIFFDecoder.fullPages(data, limits: ImageLimits()) == [1])
        let frame = try TIFFDecoder.decode(data, limits: ImageLimits())
        #expect(frame.width == Self.width && frame.height == Self.height, "\(frame.width)x\(frame.height)")
        let worst = Self.worstDifference(frame, try Self.pillowPixels(stack, mode: "RGB", page: 1))
        #expect(worst <= 2, "largest difference from Pillow's second page \(worst)")
        let listed = try ImageFiles.collect([URL(fileURLWithPath: stack)], tiffPages: .all)
        #expect(listed.map { ImageReference($0).page } == [2], "\(listed)")
    }

    /// A page of sensor data (PhotometricInterpretation colour filter array or linear raw, as camera
    /// raw files store the photo) is refused as camera raw, not handed to a reader that cannot show it.
    @Test(arguments: ["32803", "34892"])
    func sensorDataIsRefusedAsCameraRaw(photometric: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("sensor.tif")
        try Self.make(.ffmpeg(pixelFormat: "gray", compression: "raw"), at: path, in: dir)
        let marked = try ExternalTool.run("tiffset", ["-s", "262", photometric, path])
        #expect(marked.status == 0, "\(marked.stderr)")
        #expect {
            try TIFFDecoder.decode(try Data(contentsOf: URL(fileURLWithPath: path)), limits: ImageLimits())
        } throws: { error in
            guard let error = error as? FlipbookError else { return false }
            return error.code == .unsupportedImage && error.message.contains("a camera's sensor data")
        }
    }

    @Test func aTruncatedTIFFIsCorruptAndNamesTheDamage() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("whole.tif")
        try Self.make(.ffmpeg(pixelFormat: "rgb24", compression: "lzw"), at: path, in: dir)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        for cut in [6, 40, whole.count / 2] {
            do {
                _ = try ImageDecoder.decode(whole.prefix(cut), limits: ImageLimits())
                Issue.record("a TIFF cut at \(cut) of \(whole.count) bytes must be refused")
            } catch let error as FlipbookError {
                #expect(error.code == .corruptImage, "cut at \(cut): \(error)")
                #expect(error.message.contains("TIFF"), "cut at \(cut): \(error.message)")
            }
        }
    }

    @Test func floatingPointSamplesAreRefusedAsSuch() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("float.tif")
        try Self.make(.pillow("src.convert('F').save(out)"), at: path, in: dir)
        do {
            _ = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
            Issue.record("a floating-point TIFF must be refused")
        } catch let error as FlipbookError {
            #expect(error.code == .unsupportedImage, "\(error)")
            #expect(error.message.contains("floating-point"), "\(error.message)")
            #expect(error.path == path)
        }
    }

    @Test func aTIFFOverTheLimitsIsRefusedBeforeDecoding() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("big.tif")
        try Self.make(.ffmpeg(pixelFormat: "rgb24", compression: "lzw"), at: path, in: dir)
        do {
            _ = try ImageDecoder.decodeFile(
                at: URL(fileURLWithPath: path), limits: ImageLimits(maxDimension: 40, maxPixels: 1 << 20))
            Issue.record("a 66-pixel-wide TIFF must be refused by a 40-pixel limit")
        } catch let error as FlipbookError {
            #expect(error.code == .unsupportedImage, "\(error)")
        }
    }

    /// A header declaring 16384x16384 pixels in one strip of a few bytes: refused or reported as damaged,
    /// without taking a gigabyte.
    @Test func aTIFFBombDeclaringAHugeImageIsRefusedQuickly() throws {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let entries: [(Int, Int, Int)] = [
            (256, 4, 16384), (257, 4, 16384), (258, 3, 8), (259, 3, 8), (262, 3, 2), (273, 4, 8 + 2 + 12 * 9 + 4),
            (277, 3, 3), (278, 4, 16384), (279, 4, 16),
        ]
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0] + u32(8) + u16(entries.count)
        for (tag, type, value) in entries {
            bytes += u16(tag) + u16(type) + u32(1) + (type == 3 ? u16(value) + [0, 0] : u32(value))
        }
        bytes += u32(0) + [UInt8](repeating: 0x78, count: 16)
        let started = Date()
        #expect(throws: FlipbookError.self) { try ImageDecoder.decode(Data(bytes), limits: ImageLimits()) }
        #expect(Date().timeIntervalSince(started) < TimeBudget.seconds(5))
    }

    /// A tiled TIFF whose header declares tiles of 1048576x1048576 (3 TB each) is refused before any
    /// allocation, quickly, as damaged.
    @Test func tilesDeclaredLargerThanTheImageAreRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("tiled.tif")
        try Self.make(.tiffcp(options: ["-t", "-w", "16", "-l", "16"]), at: path, in: dir)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        #expect(bytes[0] == 0x49, "tiffcp writes little-endian TIFFs here")
        let ifd = u32(4)
        var changed = 0
        for entry in 0..<u16(ifd) {
            let at = ifd + 2 + 12 * entry
            guard [322, 323].contains(u16(at)) else { continue }  // TileWidth, TileLength
            let huge = 1 << 20
            if u16(at + 2) == 3 {  // SHORT cannot hold it: make the field a LONG
                bytes[at + 2] = 4
            }
            for k in 0..<4 { bytes[at + 8 + k] = UInt8((huge >> (8 * k)) & 0xFF) }
            changed += 1
        }
        #expect(changed == 2)
        let started = Date()
        do {
            _ = try ImageDecoder.decode(Data(bytes), limits: ImageLimits())
            Issue.record("tiles of 1048576x1048576 must be refused")
        } catch let error as FlipbookError {
            #expect(error.code == .corruptImage, "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < TimeBudget.seconds(5))
    }

    /// A file the fuzzer found whose strips are declared far larger than its image (an 11 GB block):
    /// refused before any allocation.
    @Test func aStripDeclaredLargerThanTheImageIsRefused() throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "fuzz/seeds/tiff/regression-strip-larger-than-the-image.tif")
        #expect(throws: FlipbookError.self) { try ImageDecoder.decodeFile(at: seed, limits: ImageLimits()) }
    }
}
