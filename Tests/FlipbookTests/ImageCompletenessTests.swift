import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// A file a renderer is still writing is not taken while following: every prefix of a TIFF (libtiff
/// writes its directory last), a HEIC and an AVIF looks incomplete, and the whole file complete.
@Suite struct ImageCompletenessTests {
    @Test(arguments: ["tif", "heic", "avif"])
    func everyPrefixOfAFileLooksIncompleteAndTheWholeFileComplete(ext: String) throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.png")
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", source])
        #expect(made.status == 0, "\(made.stderr)")
        let whole = dir.path("whole.\(ext)")
        let written =
            ext == "tif"
            ? try ExternalTool.run("tiffcp", ["-c", "lzw", "-r", "8", try Self.tiff(from: source, in: dir), whole])
            : try ExternalTool.run("heif-enc", (ext == "avif" ? ["-A"] : []) + ["-q", "80", "-o", whole, source])
        #expect(written.status == 0, "\(written.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        #expect(ImageCompleteness.looksComplete(whole, size: Int64(bytes.count)))
        let partial = dir.path("partial.\(ext)")
        var wronglyComplete: [Int] = []
        for cut in stride(from: 12, to: bytes.count, by: max(1, bytes.count / 97)) {
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: partial))
            if ImageCompleteness.looksComplete(partial, size: Int64(cut)) { wronglyComplete.append(cut) }
        }
        #expect(wronglyComplete.isEmpty, "prefixes taken for whole files: \(wronglyComplete)")
    }

    /// An 8-bit RGB TIFF of `source` (ffmpeg's), for tiffcp to rewrite with its directory last.
    static func tiff(from source: String, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("plain.tif")
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-i", source, "-pix_fmt", "rgb24", "-compression_algo", "raw", path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// A box declaring a 64-bit size near the largest integer is not whole (and does not trap).
    @Test func aHugeDeclaredBoxIsNotWhole() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("x.heic")
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0]
        bytes += [0, 0, 0, 1] + Array("mdat".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(!ImageCompleteness.looksComplete(path, size: Int64(bytes.count)))
    }

    /// A JPEG with more after its picture (a phone's motion-photo movie) is whole once the picture's end
    /// marker is written, and not before; a progressive JPEG too.
    @Test(arguments: [false, true])
    func aJPEGWithATrailerIsWholeOnceItsPictureEnds(progressive: Bool) throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.png")
        let picture = dir.path("picture.jpg")
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120", "-frames:v", "1", source])
        #expect(made.status == 0, "\(made.stderr)")
        // Pillow (libjpeg) writes the baseline or progressive JPEG, with an EXIF block in APP1.
        let script =
            "import sys; from PIL import Image; exif = Image.Exif(); exif[0x0112] = 1; "
            + "Image.open(sys.argv[1]).convert('RGB').save(sys.argv[2], quality=85, progressive=sys.argv[3] == '1', exif=exif.tobytes())"
        let saved = try ExternalTool.run("/usr/bin/python3", ["-c", script, source, picture, progressive ? "1" : "0"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: picture))
        let trailer = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }) + Data([0xFF, 0xD8, 0x00, 0x10])
        let path = dir.path("motion.jpg")
        var wrong: [Int] = []
        let whole = jpeg + trailer
        for cut in stride(from: 12, through: whole.count, by: max(1, whole.count / 150)) + [jpeg.count - 1, jpeg.count]
        {
            try whole.prefix(cut).write(to: URL(fileURLWithPath: path))
            let complete = ImageCompleteness.looksComplete(path, size: Int64(cut))
            if complete != (cut >= jpeg.count) { wrong.append(cut) }
        }
        #expect(wrong.isEmpty, "cuts judged wrongly (the picture ends at \(jpeg.count)): \(wrong)")
    }
}
