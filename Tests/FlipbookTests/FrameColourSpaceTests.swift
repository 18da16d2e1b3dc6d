import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// `Frame.colourSpace` and `VideoSettings`' colour choices through the library, judged by ffmpeg's
/// decode of ProRes 4444 movies (every chroma sample kept) against Pillow's ImageCms and against
/// sRGB's own formula.
@Suite struct FrameColourSpaceTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// A 64x48 RGB frame of saturated ramps and greys.
    static func pixels() -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<64 {
                let t = UInt8(x * 255 / 63)
                pixels +=
                    [[t, 0, 0], [0, t, 0], [0, 0, t], [t, t, t], [255, t, 255 - t], [t / 4, t / 3, t / 5]][y / 8]
            }
        }
        return pixels
    }

    static func movie(of frame: Frame, _ configure: (inout VideoSettings) -> Void = { _ in }) async throws -> [UInt8] {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("movie.mov")
        var settings = VideoSettings(width: 64, height: 48, codec: .prores)
        settings.proResProfile = .proRes4444
        configure(&settings)
        let writer = try MovieWriter(url: url, settings: settings)
        try await writer.append(frame)
        _ = try await writer.finish()
        return try Judge.decodedRGB(of: url.path).frames[0]
    }

    /// ImageCms's conversion of `pixels` from Display P3 (or sRGB), built by Little CMS, into `target`.
    static func imageCms(_ pixels: [UInt8], from source: String = "P3", target: String) throws -> [UInt8] {
        let script = """
            import io, sys
            sys.path.insert(0, sys.argv[1])
            from PIL import Image, ImageCms
            import colour_sources as cs
            image = Image.frombytes("RGB", (64, 48), sys.stdin.buffer.read())
            source = cs.built_profile(cs.D65, getattr(cs, sys.argv[3]), cs.SRGB_CURVE)
            sys.stdout.buffer.write(cs.reference(image, source, sys.argv[2], "relative").tobytes())
            """
        let folder = tests.appendingPathComponent("Colour").path
        return [UInt8](
            try ExternalTool.runForData(
                "/usr/bin/python3", ["-c", script, folder, target, source], stdin: Data(pixels)))
    }

    static func worst(_ a: [UInt8], _ b: [UInt8]) -> (mean: Double, max: Int) {
        let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
        return (Double(differences.reduce(0, +)) / Double(differences.count), differences.max() ?? 0)
    }

    @Test func aDisplayP3FrameIsConvertedIntoAnSRGBMovieAsImageCmsConvertsIt() async throws {
        var frame = try Frame(width: 64, height: 48, format: .rgb, pixels: Self.pixels())
        #expect(frame.colourSpace == .sRGB)
        frame.colourSpace = .displayP3
        #expect(frame.colourSpace == .displayP3)
        let decoded = try await Self.movie(of: frame)
        let error = Self.worst(decoded, try Self.imageCms(Self.pixels(), target: "srgb"))
        #expect(error.mean <= 0.5 && error.max <= 2, "mean \(error.mean), max \(error.max)")
        let off = try await Self.movie(of: frame) { $0.colourManagement = .off }
        #expect(off == Self.pixels(), "with colour management off the values are kept")
    }

    @Test func aDisplayP3FrameInADisplayP3MovieIsKeptAndAnSRGBOneConverted() async throws {
        var frame = try Frame(width: 64, height: 48, format: .rgb, pixels: Self.pixels())
        frame.colourSpace = .displayP3
        #expect(try await Self.movie(of: frame) { $0.colourStandard = .displayP3 } == Self.pixels())
        let sRGB = try Frame(width: 64, height: 48, format: .rgb, pixels: Self.pixels())
        let converted = try await Self.movie(of: sRGB) { $0.colourStandard = .displayP3 }
        let error = Self.worst(converted, try Self.imageCms(Self.pixels(), from: "SRGB", target: "p3"))
        #expect(error.mean <= 0.5 && error.max <= 2, "mean \(error.mean), max \(error.max)")
    }

    /// Linear sRGB values come out through sRGB's curve: 0.5 is 0.7354 (188 of 255).
    @Test func aLinearSRGBFrameIsEncodedWithSRGBsCurve() async throws {
        var frame = try Frame(
            width: 64, height: 48, format: .rgba,
            pixels: Self.pixels().enumerated().flatMap {
                $0.offset % 3 == 2 ? [$0.element, 255] : [$0.element]
            })
        frame.colourSpace = .linearSRGB
        let decoded = try await Self.movie(of: frame)
        func encoded(_ value: UInt8) -> Int {
            let linear = Double(value) / 255
            let curve = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return Int((curve * 255).rounded())
        }
        let expected = Self.pixels().map(encoded)
        let error = Self.worst(decoded, expected.map { UInt8($0) })
        // Little CMS's 8-bit shaper tables near black, where sRGB's curve is steepest: a few levels there.
        #expect(error.mean <= 1 && error.max <= 6, "mean \(error.mean), max \(error.max)")
    }
}
