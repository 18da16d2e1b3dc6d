import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// The image-format records: one per format, read by the decoder's dispatch, the folder listing and
/// the error messages; and the one decode request, which makes a 10-bit movie's images deep however
/// they are handed over.
@Suite struct ImageFormatTests {
    @Test func everyExtensionBelongsToOneFormatAndFoldersListThemAll() {
        let extensions = ImageFormat.all.flatMap(\.fileExtensions)
        #expect(Set(extensions).count == extensions.count, "an extension names two formats")
        #expect(ImageFiles.extensions == Set(extensions))
        #expect(
            ImageFiles.extensions.isSuperset(of: [
                "png", "jpg", "jpeg", "webp", "gif", "tif", "tiff", "heic", "heif", "avif", "exr", "dpx", "cin",
            ]))
        #expect(ImageFormat.forExtension("JPG")?.name == "JPEG")
        #expect(ImageFormat.forExtension("GIF")?.name == "GIF")
        #expect(ImageFormat.forExtension("bmp") == nil)
        #expect(ImageFormat.nameList == "PNG, JPEG, WebP, GIF, camera raw, TIFF, HEIC, AVIF, OpenEXR, DPX or Cineon")
        #expect(ImageFormat.all.filter(\.hasPages).map(\.name) == ["TIFF"])
    }

    @Test func eachFormatRecognisesItsOwnFilesAndNoOthers() throws {
        let dir = try TemporaryDirectory()
        var made: [String: Data] = [:]
        for ext in ["png", "jpg", "webp", "tif"] {
            let path = dir.path("one.\(ext)")
            let result = try ExternalTool.run(
                "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=16x16", "-frames:v", "1", path])
            try #require(result.status == 0, "\(ext): \(result.stderr)")
            made[ext] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        for (ext, arguments) in [("heic", ["-q", "90"]), ("avif", ["-A", "-q", "90"])] {
            let path = dir.path("one.\(ext)")
            let result = try ExternalTool.run("heif-enc", arguments + [dir.path("one.png"), "-o", path])
            try #require(result.status == 0, "\(ext): \(result.stderr)")
            made[ext] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        for (ext, data) in made {
            let recognised = ImageFormat.all.filter { $0.recognises(data) }
            #expect(recognised.map(\.name) == [ImageFormat.forExtension(ext)!.name], "\(ext)")
            let frame = try ImageDecoder.decode(data, limits: ImageLimits())
            #expect(frame.width == 16 && frame.height == 16, "\(ext)")
        }
        let gif = Data("GIF89a".utf8) + Data(count: 32)
        #expect(ImageFormat.recognising(gif)?.name == "GIF")
        #expect {
            try ImageDecoder.decode(gif, limits: ImageLimits())
        } throws: { error in
            (error as? FlipbookError)?.code == .corruptImage
                && (error as? FlipbookError)?.message.contains("the GIF has no whole image") ?? false
        }
        let bmp = Data("BM".utf8) + Data(count: 32)
        #expect(ImageFormat.recognising(bmp) == nil)
        #expect {
            try ImageDecoder.decode(bmp, limits: ImageLimits())
        } throws: { error in
            (error as? FlipbookError)?.message.contains(
                "this is a BMP file, not a PNG, JPEG, WebP, GIF, camera raw, TIFF, HEIC, AVIF, OpenEXR, DPX or Cineon image"
            )
                ?? false
        }
        #expect {
            try ImageDecoder.decodeImage(made["png"]!, DecodeRequest(page: 1))
        } throws: { error in
            (error as? FlipbookError)?.message == "only a TIFF has pages, and this file is a PNG"
        }
    }

    /// A 16-bit grey ramp handed to a 10-bit movie's writer one file at a time keeps its 10-bit steps,
    /// as it does in a listed sequence (before the one decode request, this way gave 8-bit sources).
    @Test func aTenBitMovieMadeWithAppendImageAtGetsDeepSources() async throws {
        let dir = try TemporaryDirectory()
        let ramp = dir.path("ramp.png")
        let script =
            "import sys, struct; from PIL import Image; w, h = 1024, 64; "
            + "row = struct.pack('<%dH' % w, *[30000 + 2 * x for x in range(w)]); "
            + "Image.frombytes('I;16', (w, h), row * h).save(sys.argv[1])"
        let made = try ExternalTool.run("/usr/bin/python3", ["-c", script, ramp])
        try #require(made.status == 0, "\(made.stderr)")
        func widestStep(bitDepth: Int) async throws -> Int {
            let movie = dir.url.appendingPathComponent("ramp-\(bitDepth).mp4")
            var settings = VideoSettings(width: 1024, height: 64, crf: 4, codec: .hevc, bitDepth: bitDepth)
            settings.preset = .ultrafast
            let writer = try MovieWriter(url: movie, settings: settings)
            try await writer.append(imageAt: URL(fileURLWithPath: ramp))
            _ = try await writer.finish()
            let raw = try ExternalTool.runForData(
                "ffmpeg",
                ["-v", "error", "-i", movie.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray10le", "-"])
            let samples = raw.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
            try #require(samples.count == 1024 * 64)
            let distinct = Set(samples[32 * 1024..<33 * 1024].map(Int.init)).sorted()
            return zip(distinct, distinct.dropFirst()).map { $1 - $0 }.max() ?? 0
        }
        #expect(try await widestStep(bitDepth: 10) <= 2, "10-bit steps kept")
        #expect(try await widestStep(bitDepth: 8) >= 4, "the judge tells 8-bit steps apart")
    }
}
