import FlipbookTestSupport
import Foundation
import Testing

/// Folders of TIFF, HEIC and AVIF images (alone, and one of every format side by side) become movies,
/// judged by ffprobe and by PSNR against the pictures; a damaged file of each is one line naming it.
@Suite struct TIFFAndHEIFInputTests {
    /// Writes `count` numbered frames of a moving test pattern as PNG `f1.png ...` into `folder`.
    static func makePNGs(_ folder: String, count: Int, size: String = "96x64") throws {
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30", "-frames:v", String(count),
                "-start_number", "1", "\(folder)/f%d.png",
            ])
        #expect(made.status == 0, "\(made.stderr)")
    }

    @Test func aFolderOfTIFFsMakesAMovie() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        // Half 8-bit LZW, half 16-bit Deflate, as a compositor's output folder might hold.
        for (range, format, compression) in [(1...6, "rgb24", "lzw"), (7...12, "rgb48le", "deflate")] {
            let made = try ExternalTool.run(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=30", "-vf",
                    "trim=start_frame=\(range.lowerBound - 1):end_frame=\(range.upperBound)", "-pix_fmt", format,
                    "-compression_algo", compression, "-start_number", String(range.lowerBound), "\(frames)/f%d.tif",
                ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        #expect(dir.entries("frames").count == 12)
        let movie = dir.path("tiff.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--crf", "12", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.stream(of: movie).frameCount == 12)
        #expect(try Judge.decodeErrors(of: movie) == "")
        let psnr = try Judge.psnr(of: movie, againstImages: "\(frames)/f%d.tif")
        #expect(psnr > 38, "PSNR \(psnr) dB against the TIFF images")
    }

    @Test(arguments: [("heic", [String]()), ("avif", ["-A"])])
    func aFolderOfHEIFImagesMakesAMovie(ext: String, options: [String]) throws {
        let dir = try TemporaryDirectory()
        let sources = try dir.folder("sources")
        let frames = try dir.folder("frames")
        try Self.makePNGs(sources, count: 8)
        for index in 1...8 {
            let made = try ExternalTool.run(
                "heif-enc", options + ["-q", "92", "-o", "\(frames)/f\(index).\(ext)", "\(sources)/f\(index).png"])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let movie = dir.path("\(ext).mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--crf", "12", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.stream(of: movie).frameCount == 8)
        #expect(try Judge.decodeErrors(of: movie) == "")
        // Against the pictures the HEIF files were made from: both encodings lose a little.
        let psnr = try Judge.psnr(of: movie, againstImages: "\(sources)/f%d.png")
        #expect(psnr > 30, "PSNR \(psnr) dB against the pictures the \(ext) files were made from")
    }

    /// One frame of every format in one folder, in natural order: the movie shows each in turn.
    @Test func oneOfEveryFormatInOneFolder() throws {
        let dir = try TemporaryDirectory()
        let sources = try dir.folder("sources")
        let frames = try dir.folder("frames")
        try Self.makePNGs(sources, count: 6)
        let converters: [(String, [String])] = [
            ("png", []), ("jpg", ["-q:v", "2"]), ("webp", ["-c:v", "libwebp", "-lossless", "1"]),
            ("tiff", ["-compression_algo", "packbits"]),
        ]
        for (index, (ext, options)) in converters.enumerated() {
            let made = try ExternalTool.run(
                "ffmpeg",
                ["-v", "error", "-i", "\(sources)/f\(index + 1).png"] + options + ["\(frames)/f\(index + 1).\(ext)"])
            #expect(made.status == 0, "\(made.stderr)")
        }
        for (index, options) in [(5, ["-q", "95"]), (6, ["-A", "-q", "95"])] {
            let ext = index == 5 ? "heic" : "avif"
            let made = try ExternalTool.run(
                "heif-enc", options + ["-o", "\(frames)/f\(index).\(ext)", "\(sources)/f\(index).png"])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let movie = dir.path("mixed.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--crf", "10", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.stream(of: movie).frameCount == 6)
        let psnr = try Judge.psnr(of: movie, againstImages: "\(sources)/f%d.png")
        #expect(psnr > 30, "PSNR \(psnr) dB against the pictures the six files were made from")
    }

    @Test(arguments: ["tif", "heic", "avif"])
    func aTruncatedFileIsOneLineNamingIt(ext: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try Self.makePNGs(frames, count: 2)
        let whole = dir.path("whole.\(ext)")
        let made =
            ext == "tif"
            ? try ExternalTool.run(
                "ffmpeg", ["-v", "error", "-i", "\(frames)/f1.png", "-compression_algo", "lzw", whole])
            : try ExternalTool.run("heif-enc", ["-q", "90", "-o", whole, "\(frames)/f1.png"])
        #expect(made.status == 0, "\(made.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let broken = "\(frames)/f3.\(ext)"
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: broken))
        let existing = dir.path("movie.mp4")
        try Data("an older movie".utf8).write(to: URL(fileURLWithPath: existing))
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", existing, "--overwrite"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(broken), "\(result.stderr)")
        let format = ext == "tif" ? "TIFF" : ext.uppercased()
        #expect(result.stderr.contains(format), "\(result.stderr)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "an older movie")
        #expect(dir.entries().sorted() == ["frames", "movie.mp4", "whole.\(ext)"])
    }

    /// A stack of three pages: one frame by default, every page with `--tiff-pages all`, judged by ffprobe
    /// and by PSNR against the single-page files the stack was made from; a damaged page is named.
    @Test func everyPageOfAStackWithTIFFPagesAll() throws {
        let dir = try TemporaryDirectory()
        let pages = try dir.folder("pages")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=30", "-frames:v", "3", "-pix_fmt",
                "rgb24", "-compression_algo", "lzw", "-start_number", "1", "\(pages)/p%d.tif",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let stack = dir.path("stack.tif")
        let joined = try ExternalTool.run("tiffcp", ["\(pages)/p1.tif", "\(pages)/p2.tif", "\(pages)/p3.tif", stack])
        #expect(joined.status == 0, "\(joined.stderr)")

        let first = dir.path("first.mp4")
        let one = try ExternalTool.run(ExternalTool.flipbookPath, [stack, "-o", first, "-q"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(try Judge.stream(of: first).frameCount == 1)

        let all = dir.path("all.mp4")
        let every = try ExternalTool.run(
            ExternalTool.flipbookPath, [stack, "-o", all, "--tiff-pages", "all", "--crf", "10", "-q"])
        #expect(every.status == 0, "\(every.stderr)")
        #expect(try Judge.stream(of: all).frameCount == 3)
        let psnr = try Judge.psnr(of: all, againstImages: "\(pages)/p%d.tif")
        #expect(psnr > 38, "PSNR \(psnr) dB against the pages")

        // The second page's strip placed past the end of the file: its frame is named by file and page.
        let damaged = dir.path("damaged.tif")
        let uncompressed = try ExternalTool.run("tiffcp", ["-c", "none", "-r", "1000", stack, damaged])
        #expect(uncompressed.status == 0, "\(uncompressed.stderr)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: damaged)))
        let entry = try #require(Self.entry(273, ofPage: 1, in: bytes))
        // One strip per page, so its offset is held in the entry itself: point it past the end of the file.
        let past = UInt32(bytes.count + 100)
        for k in 0..<4 { bytes[entry + 8 + k] = UInt8((past >> (8 * UInt32(k))) & 0xFF) }
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let broken = try ExternalTool.run(
            ExternalTool.flipbookPath, [damaged, "-o", dir.path("broken.mp4"), "--tiff-pages", "all"])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("\(damaged), page 2"), "\(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("broken.mp4")))
    }

    /// The offset of the entry for `tag` in the IFD of page `page` (from 0) of a little-endian TIFF.
    static func entry(_ tag: Int, ofPage page: Int, in bytes: [UInt8]) -> Int? {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        var ifd = u32(4)
        for _ in 0..<page { ifd = u32(ifd + 2 + 12 * u16(ifd)) }
        for entry in 0..<u16(ifd) where u16(ifd + 2 + 12 * entry) == tag {
            return ifd + 2 + 12 * entry
        }
        return nil
    }

    /// Files that look like camera raw files but are not are named, never turned into a movie of their
    /// thumbnails: a TIFF-laid-out file whose first page is a preview (as NEF and DNG hold first), a CR3
    /// header alone and a CR2 header alone are taken for raw files and refused by LibRaw; each ends with
    /// status 1, one line naming the file, and no movie, and a folder of them names its first.
    @Test func fakeCameraRawFilesAreNamedNotMadeIntoThumbnails() throws {
        let dir = try TemporaryDirectory()
        let raws = try dir.folder("raws")
        let nef = "\(raws)/DSC_0001.NEF"
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120", "-frames:v", "1", "-f", "image2",
                "-c:v", "tiff", nef,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let marked = try ExternalTool.run("tiffset", ["-s", "254", "1", nef])
        #expect(marked.status == 0, "\(marked.stderr)")
        let cr3 = "\(raws)/IMG_0002.CR3"
        try Data([0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8))
            .write(to: URL(fileURLWithPath: cr3))
        // A CR2's header: a little-endian TIFF's, then "CR", version 2.0 and the raw IFD's offset.
        let cr2 = "\(raws)/IMG_0003.CR2"
        try Data(
            [0x49, 0x49, 0x2A, 0, 0x10, 0, 0, 0, 0x43, 0x52, 2, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 64)
        ).write(to: URL(fileURLWithPath: cr2))
        for (input, expected) in [
            (nef, "\(nef)): the file is not a camera raw file LibRaw 0.20 reads"),
            (cr3, "\(cr3)): the camera raw file is damaged or truncated"),
            (cr2, "\(cr2)): the file is not a camera raw file LibRaw 0.20 reads"),
            (raws, "\(nef)): the file is not a camera raw file LibRaw 0.20 reads"),
        ] {
            let movie = dir.path("out.mp4")
            let result = try ExternalTool.run(ExternalTool.flipbookPath, [input, "-o", movie])
            #expect(result.status == 1, "\(input): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }
}
