import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// Every decoded image carries the colour its file states, read in the decode itself: the ICC
/// profile each writer embedded (Pillow for PNG, JPEG, TIFF and WebP, heif-enc for HEIC), byte for
/// byte, as ExifTool also finds it; PNG's cICP, gAMA, cHRM and sRGB chunks; and nothing for a file
/// that states nothing.
@Suite struct SourceColourTests {
    static let adobe = "/usr/share/color/icc/compatibleWithAdobeRGB1998.icc"

    static func pillow(_ path: String, options: String) throws {
        let made = try ExternalTool.run(
            "/usr/bin/python3",
            [
                "-c",
                "import sys; from PIL import Image; Image.new('RGB', (32, 24), (200, 40, 40)).save(sys.argv[1]\(options))",
                path,
            ])
        try #require(made.status == 0, "\(made.stderr)")
    }

    static func decoded(_ path: String, deep: Bool = false) throws -> DecodedImage {
        try ImageDecoder.decodeImageFile(
            at: URL(fileURLWithPath: path), DecodeRequest(planes: .anyEvenSize, deep: deep))
    }

    @Test(arguments: ["png", "jpg", "tif", "webp", "heic"])
    func theEmbeddedProfileComesWithTheImage(ext: String) throws {
        let dir = try TemporaryDirectory()
        let profile = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.adobe)))
        let path = dir.path("adobe.\(ext)")
        if ext == "heic" {
            try Self.pillow(dir.path("adobe.png"), options: ", icc_profile=open('\(Self.adobe)', 'rb').read()")
            let made = try ExternalTool.run("heif-enc", ["-q", "80", "-o", path, dir.path("adobe.png")])
            try #require(made.status == 0, "\(made.stderr)")
        } else {
            try Self.pillow(path, options: ", icc_profile=open('\(Self.adobe)', 'rb').read()")
        }
        let described = try ExternalTool.run("exiftool", ["-s3", "-ProfileDescription", path])
        #expect(described.stdout.contains("Adobe RGB (1998)"), "ExifTool finds the profile: \(described.stdout)")
        let image = try Self.decoded(path)
        #expect(image.sourceColour.iccProfile == profile, "\(ext): \(image.sourceColour)")
        #expect(image.sourceColour.nonSRGBSpace == "Adobe RGB (1998)")

        let plain = dir.path("plain.\(ext == "heic" ? "png" : ext)")
        try Self.pillow(plain, options: "")
        #expect(try Self.decoded(plain).sourceColour.iccProfile == nil, "\(ext) without a profile")
    }

    /// A 16-bit PNG decoded deep for a 10-bit movie, and JPEG planes, carry it too.
    @Test func deepImagesAndPlanesCarryTheirColour() throws {
        let dir = try TemporaryDirectory()
        let icc = ", icc_profile=open('\(Self.adobe)', 'rb').read()"
        let deepPath = dir.path("deep.png")
        let script =
            "import sys; from PIL import Image; im = Image.new('I;16', (32, 24), 30000); "
            + "im.save(sys.argv[1]\(icc))"
        let made = try ExternalTool.run("/usr/bin/python3", ["-c", script, deepPath])
        try #require(made.status == 0, "\(made.stderr)")
        let deep = try Self.decoded(deepPath, deep: true)
        guard case .deep = deep else {
            Issue.record("a 16-bit grey PNG for a 10-bit movie came as \(deep)")
            return
        }
        #expect(deep.sourceColour.nonSRGBSpace == "Adobe RGB (1998)")
        let jpeg = dir.path("planes.jpg")
        try Self.pillow(jpeg, options: icc)
        let planes = try Self.decoded(jpeg)
        guard case .planes = planes else {
            Issue.record("a 32x24 JPEG came as \(planes), not planes")
            return
        }
        #expect(planes.sourceColour.nonSRGBSpace == "Adobe RGB (1998)")
    }

    /// PNG's other colour chunks, written into a PNG by hand after IHDR (with their CRCs, as libspng
    /// checks them), read as the PNG specification defines them.
    @Test func pngColourChunksAreRead() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("plain.png")
        try Self.pillow(path, options: "")
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            let crc = typed.withUnsafeBufferPointer { Deflate.crc32($0) }
            return UInt32(body.count).bigEndianBytes + typed + crc.bigEndianBytes
        }
        func with(_ chunks: [UInt8]) throws -> SourceColour {
            let edited = Array(png[..<33]) + chunks + Array(png[33...])
            try Data(edited).write(to: URL(fileURLWithPath: dir.path("edited.png")))
            return try Self.decoded(dir.path("edited.png")).sourceColour
        }
        let p3 = try with(chunk("cICP", [12, 13, 0, 1]))
        #expect(p3.codePoints == SourceColour.CodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true))
        #expect(p3.nonSRGBSpace == "Display P3")
        let gamma = try with(chunk("gAMA", UInt32(45455).bigEndianBytes))
        #expect(gamma.gamma == 0.45455 && gamma.nonSRGBSpace == nil)
        let bt2020 = [31270, 32900, 70800, 29200, 17000, 79700, 13100, 4600].flatMap { UInt32($0).bigEndianBytes }
        #expect(try with(chunk("cHRM", bt2020)).nonSRGBSpace == "BT.2020")
        let srgb = try with(chunk("sRGB", [0]) + chunk("cHRM", bt2020))
        #expect(srgb.statesSRGB && srgb.nonSRGBSpace == nil, "an sRGB chunk says sRGB whatever cHRM says")
        #expect(try Self.decoded(path).sourceColour.isUnstated)
    }
}

extension UInt32 {
    fileprivate var bigEndianBytes: [UInt8] {
        [UInt8(self >> 24), UInt8(self >> 16 & 0xFF), UInt8(self >> 8 & 0xFF), UInt8(self & 0xFF)]
    }
}
