import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// Decoding hostile bytes: metadata bombs, vanished files, limits, and errors that say what happened.
@Suite struct HostileDecodingTests {
    /// An 8x8 palette PNG (libspng's path), with `chunks` after its header.
    static func palettePNG(with chunks: [(type: String, data: [UInt8])] = []) -> Data {
        let png = TestPNG.encode(
            width: 8, height: 8, colourType: 3, bitDepth: 8, samples: (0..<64).map { $0 % 2 },
            palette: [[255, 0, 0], [0, 0, 255]])
        return HostilePNG.inserting(chunks, into: png)
    }

    @Test func twoHundredMegabytesOfCompressedMetadataAreNeverInflated() throws {
        let bomb = HostilePNG.compressedText(inflatingTo: 200 << 20)
        var profile = Array("icc".utf8) + [0, 0]
        profile += bomb.dropFirst(9)  // the same zlib stream as an ICC profile
        let png = Self.palettePNG(with: [("zTXt", bomb), ("iCCP", profile)])
        // The same number of bytes as plain text: reading past them is all the bomb may cost.
        let plain = Self.palettePNG(with: [
            ("tEXt", Array("key".utf8) + [0] + [UInt8](repeating: 0x61, count: bomb.count - 4)),
            ("tEXt", Array("icc".utf8) + [0] + [UInt8](repeating: 0x61, count: profile.count - 4)),
        ])
        let (_, control) = try TimeBudget.measure { try ImageDecoder.decode(plain, limits: ImageLimits()) }
        let (frame, seconds) = try TimeBudget.measure { try ImageDecoder.decode(png, limits: ImageLimits()) }
        // Inflating 400 MB takes whole seconds; skipping 2 chunks takes as long as the control.
        #expect(seconds < max(TimeBudget.seconds(0.5), 4 * control), "control \(control) s")
        #expect(frame.width == 8 && frame.pixels.prefix(3) == [255, 0, 0])
    }

    @Test func thousandsOfMetadataChunksDecode() throws {
        let chunks = (0..<5000).map { _ in (type: "tEXt", data: Array("key\u{0}value".utf8)) }
        let frame = try ImageDecoder.decode(Self.palettePNG(with: chunks), limits: ImageLimits())
        #expect(frame.width == 8)
    }

    @Test func libspngErrorsAreReportedAsThemselves() throws {
        // A palette with a wrong checksum: libspng's own reason, not a later "non-recoverable state".
        var damaged = Self.palettePNG()
        damaged[8 + 25 + 8 + 6] ^= 0xFF  // the PLTE chunk's CRC
        #expect {
            try ImageDecoder.decode(damaged, limits: ImageLimits())
        } throws: { error in
            let error = error as? FlipbookError
            return error?.code == .corruptImage && error?.message.contains("non-recoverable") == false
                && (error?.underlying as? LibraryCallError)?.function == "spng_get_trns"
        }
    }

    @Test func imageSizeIsCheckedFromTheHeaderForEveryColourType() throws {
        for colourType: UInt8 in [0, 2, 3, 4, 6] {
            let png = HostilePNG.claimingSize(width: 20000, height: 10, colourType: colourType)
            #expect(throws: FlipbookError.self) { try ImageDecoder.decode(png, limits: ImageLimits()) }
            let narrow = HostilePNG.claimingSize(width: 5000, height: 5000, colourType: colourType)
            #expect {
                try ImageDecoder.decode(narrow, limits: ImageLimits(maxPixels: 1 << 20))
            } throws: { error in
                (error as? FlipbookError)?.code == .unsupportedImage
            }
        }
    }

    @Test func jpegWithTooManyScansIsRefused() throws {
        let pixels = [UInt8](repeating: 128, count: 32 * 32 * 3)
        let jpeg = try TestJPEG.encode(pixels, width: 32, height: 32, kind: .rgb, progressive: true)
        _ = try ImageDecoder.decode(jpeg, limits: ImageLimits())
        #expect {
            try ImageDecoder.decode(jpeg, limits: ImageLimits(maxJPEGScans: 2))
        } throws: { error in
            (error as? FlipbookError)?.message.contains("scans") == true
        }
    }

    @Test func aFileThatVanishedAfterListingIsNamedWithItsFrame() async throws {
        let dir = try TemporaryDirectory()
        let paths = try SampleImages.write(count: 3, width: 32, height: 32, into: dir.url.path)
        try FileManager.default.removeItem(atPath: paths[1])
        let output = dir.url.appendingPathComponent("out.mp4")
        await #expect {
            try await MovieWriter.makeMovie(
                fromImagesAt: paths.map { URL(fileURLWithPath: $0) }, to: output, options: SequenceOptions())
        } throws: { error in
            guard let error = error as? FlipbookError else { return false }
            return error.code == .unreadableInput && error.frameIndex == 1 && error.path == paths[1]
                && error.message.contains("gone")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func anEmptyListOfImagesIsRefused() async throws {
        let dir = try TemporaryDirectory()
        await #expect {
            try await MovieWriter.makeMovie(
                fromImagesAt: [], to: dir.url.appendingPathComponent("out.mp4"), options: SequenceOptions())
        } throws: { error in
            (error as? FlipbookError)?.code == .invalidSettings
        }
    }
}
