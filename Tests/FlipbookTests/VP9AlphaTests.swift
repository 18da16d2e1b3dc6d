import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// VP9's alpha through the library: a second libvpx stream whose frames ride in each packet, judged
/// by ffmpeg's libvpx decoder reading each stream as an IVF file (the alpha plane comes back as luma).
@Suite struct VP9AlphaTests {
    static let (width, height, count) = (64, 48, 12)

    /// The alpha plane of picture `index`: a ramp across the width that moves a little each picture,
    /// with an opaque and a transparent band.
    static func alpha(_ index: Int) -> [UInt8] {
        (0..<height).flatMap { y in
            (0..<width).map { x in
                y < 8 ? 255 : y >= height - 8 ? 0 : UInt8(min(255, x * 4 + index * 2))
            }
        }
    }

    /// An IVF file (the 32-byte header, then a 12-byte header for each frame) of VP9 frames.
    static func ivf(_ frames: [[UInt8]]) -> Data {
        var bytes: [UInt8] = Array("DKIF".utf8)
        func put<Value: FixedWidthInteger>(_ value: Value) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        put(UInt16(0))
        put(UInt16(32))
        bytes += Array("VP90".utf8)
        put(UInt16(width))
        put(UInt16(height))
        put(UInt32(30))
        put(UInt32(1))
        put(UInt32(frames.count))
        put(UInt32(0))
        for (index, frame) in frames.enumerated() {
            put(UInt32(frame.count))
            put(UInt64(index))
            bytes += frame
        }
        return Data(bytes)
    }

    /// The luma planes libvpx (through ffmpeg) decodes from an IVF file of VP9 frames, as coded.
    static func decodedLuma(_ frames: [[UInt8]], in dir: TemporaryDirectory, name: String) throws -> [[UInt8]] {
        let path = dir.path(name)
        try ivf(frames).write(to: URL(fileURLWithPath: path))
        let raw = [UInt8](
            try ExternalTool.runForData(
                "ffmpeg",
                ["-v", "error", "-c:v", "libvpx-vp9", "-i", path, "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"]))
        // The planes as decoded (no range conversion, as the alpha plane is read): each frame's luma first.
        let (size, frame) = (width * height, width * height * 3 / 2)
        return stride(from: 0, to: raw.count, by: frame).map { Array(raw[$0..<min(raw.count, $0 + size)]) }
    }

    @Test func eachPacketCarriesItsPicturesAlphaWhichLibvpxDecodesToTheSource() throws {
        // A low CRF, so that what comes back is the source within rounding, not the quality's loss.
        var settings = VideoSettings(width: Self.width, height: Self.height, crf: 4, preset: .veryfast, codec: .vp9)
        settings.keepsAlpha = true
        try settings.validate()
        let encoder = try VideoEncoders.make(settings: settings, colour: .bt709)
        #expect(encoder.pictureFormat == PictureFormat(chroma: .yuv420, hasAlpha: true))
        var packets: [EncodedPacket] = []
        for index in 0..<Self.count {
            var picture = YUVPicture(width: Self.width, height: Self.height, format: encoder.pictureFormat)
            picture.withEightBitPlanes { planes in
                planes.luma = [UInt8](repeating: UInt8(60 + index * 10), count: Self.width * Self.height)
                planes.alpha = Self.alpha(index)
            }
            packets += try encoder.encode(picture, presentationTime: Int64(index))
        }
        packets += try encoder.flush()
        #expect(packets.map(\.presentationTime) == (0..<Int64(Self.count)).map { $0 })
        #expect(packets.map(\.decodeTime) == packets.map(\.presentationTime))
        #expect(packets.first?.isKeyframe == true)
        let alphaFrames = packets.compactMap(\.alpha)
        #expect(alphaFrames.count == Self.count, "every packet carries its alpha frame")

        let dir = try TemporaryDirectory()
        let alpha = try Self.decodedLuma(alphaFrames, in: dir, name: "alpha.ivf")
        #expect(alpha.count == Self.count)
        for (index, plane) in alpha.enumerated() {
            let worst = zip(plane, Self.alpha(index)).map { abs(Int($0) - Int($1)) }.max() ?? .max
            #expect(worst <= 2, "picture \(index): alpha off by up to \(worst)")
        }
        let luma = try Self.decodedLuma(packets.map(\.data), in: dir, name: "picture.ivf")
        #expect(luma.count == Self.count)
        for (index, plane) in luma.enumerated() {
            let worst = plane.map { abs(Int($0) - (60 + index * 10)) }.max() ?? .max
            #expect(worst <= 2, "picture \(index): luma off by up to \(worst)")
        }
    }

    @Test func anOpaqueMovieHasNoAlphaStream() throws {
        let settings = VideoSettings(width: Self.width, height: Self.height, preset: .veryfast, codec: .vp9)
        let encoder = try VideoEncoders.make(settings: settings, colour: .bt709)
        #expect(!encoder.pictureFormat.hasAlpha)
        var packets: [EncodedPacket] = []
        for index in 0..<3 {
            packets += try encoder.encode(
                YUVPicture(width: Self.width, height: Self.height), presentationTime: Int64(index))
        }
        packets += try encoder.flush()
        #expect(packets.count == 3 && packets.allSatisfy { $0.alpha == nil })
    }

    @Test func alphaIsKeptAtEightBitsOnly() {
        var settings = VideoSettings(width: Self.width, height: Self.height, codec: .vp9, bitDepth: 10)
        settings.keepsAlpha = true
        #expect {
            try settings.validate()
        } throws: { error in
            (error as? FlipbookError)?.message == "alpha is kept by vp9 at 8 bits only, and the bit depth is 10"
        }
    }

    @Test func aWriterRefusesVP9AlphaInAnMP4() async throws {
        let dir = try TemporaryDirectory()
        var settings = VideoSettings(width: Self.width, height: Self.height, codec: .vp9)
        settings.keepsAlpha = true
        #expect {
            _ = try MovieWriter(url: URL(fileURLWithPath: dir.path("a.mp4")), settings: settings)
        } throws: { error in
            (error as? FlipbookError)?.code == .unsupportedOutput
                && (error as? FlipbookError)?.message == "vp9 keeps alpha only in .webm and .mkv files, not in .mp4"
        }
        #expect(dir.entries().isEmpty)
    }
}
