import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// Flipbook's undoing of OpenEXR's ZIP chunks (libdeflate and a vectorised loop) against the format's
/// byte-by-byte definition, and the quick way against the float way on the OpenEXR project's damaged
/// files: small and quick, so it runs under the sanitizers too.
@Suite struct OpenEXRZipChunkTests {
    /// The sample set's damaged files: refused by both ways (none holds a whole picture), or decoded by
    /// both to the same picture.
    @Test func damagedFilesAreRefusedOrDecodedAlikeBothWays() throws {
        let damaged = try FuzzSeeds.files(in: "Tests/OpenEXR/Damaged")
        #expect(damaged.count >= 150)
        for file in damaged {
            let data = Data(file.bytes)
            var request = DecodeRequest.frame(
                of: VideoSettings(width: 64, height: 64, codec: .hevc), limits: ImageLimits())
            request.sizeHint = nil
            let float = try? OpenEXRDecoder.decodeImage(data, request: request, quick: false)
            let fast = try? OpenEXRDecoder.decodeImage(data, request: request)
            #expect((float == nil) == (fast == nil), "\(file.name): one way decodes it, the other refuses it")
            if let float, let fast {
                #expect(
                    OpenEXRQuickPathTests.samples(float).0 == OpenEXRQuickPathTests.samples(fast).0,
                    "\(file.name): the pictures differ")
            }
        }
    }

    /// The vectorised undoing of ZIP's reordering and delta coding against the byte-by-byte loop, for
    /// every length up to 300 (each tail) and a chunk of 16 lines of 1920 half RGB pixels.
    @Test func zipChunksAreUndoneAsTheFormatDefines() {
        var generator = SystemRandomNumberGenerator()
        for count in Array(0...300) + [16 * 1920 * 3 * 2, 16 * 1920 * 4 * 4 + 7] {
            let coded = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(
                OpenEXRZipChunks.unpredicted(coded) == OpenEXRZipChunks.unpredicted(coded, portable: true),
                "\(count) bytes")
        }
        // The definition itself: the running sum of the stored bytes (each after the first less 128) is
        // 10, 15, 12, 13: the chunk's even bytes 10, 15, then its odd bytes 12, 13.
        #expect(OpenEXRZipChunks.unpredicted([10, 128 + 5, 128 - 3, 128 + 1], portable: true) == [10, 12, 15, 13])
    }
}
