import FlipbookTestSupport
import Foundation
import Testing

/// DPX and Cineon in, judged from outside: DPX files ffmpeg writes at every depth and byte order it
/// has (and the same files with their packing, orientation or transfer field set as film scanners write
/// them), made into lossless FFV1 movies and compared with ffmpeg's own DPX decoder; Cineon log made
/// linear compared with numpy's Cineon conversion of the codes. The patching and the Cineon writer are
/// Python (numpy, in `.build/heif-venv`).
@Suite(.enabled(if: OpenEXRFiles.python != nil, "the tests' Python (numpy) is missing: run make test"))
struct DPXInputTests {
    static let width = 62
    static let height = 36

    /// testsrc2 as ffmpeg writes it in DPX as `pixelFormat`.
    static func ffmpegDPX(_ pixelFormat: String, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("\(pixelFormat).dpx")
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height)", "-frames:v", "1", "-pix_fmt",
                pixelFormat, path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// ffmpeg's decode of an image as 8-bit RGB, rows `flipped` when asked.
    static func ffmpegRGB(_ image: String, flipped: Bool = false) throws -> [UInt8] {
        let data = try ExternalTool.runForData(
            "ffmpeg",
            ["-v", "error", "-i", image] + (flipped ? ["-vf", "vflip"] : []) + [
                "-pix_fmt", "rgb24", "-f", "rawvideo", "-",
            ])
        return [UInt8](data)
    }

    /// Runs a Python script on `arguments` (numpy at hand).
    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let result = try ExternalTool.run(try #require(OpenEXRFiles.python), ["-c", script] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// Writes `to` as `from` with header fields changed: the first image element's packing (`method-b`:
    /// 10-bit words shifted to the low 30 bits, packing 2), the orientation (`bottom-up`), or the transfer
    /// (`printing-density`), in the file's byte order.
    static func patch(_ from: String, to: String, _ change: String) throws {
        let script = """
            import sys, struct, numpy as np
            data = bytearray(open(sys.argv[1], "rb").read())
            order = ">" if data[:4] == b"SDPX" else "<"
            change = sys.argv[3]
            if change == "method-b":
                offset = struct.unpack(order + "I", data[4:8])[0]
                words = np.frombuffer(bytes(data[offset:]), dtype=np.dtype("u4").newbyteorder(order))
                data[offset:] = (words >> 2).astype(words.dtype).tobytes()
                struct.pack_into(order + "H", data, 780 + 24, 2)
            elif change == "bottom-up":
                struct.pack_into(order + "H", data, 768, 2)
            elif change == "printing-density":
                data[780 + 21] = 1
            open(sys.argv[2], "wb").write(data)
            """
        _ = try python(script, [from, to, change])
    }

    /// The expected 8-bit picture of 10-bit Cineon log codes (R, G, B interleaved) through the standard
    /// view at `stops` of exposure: Kodak's conversion (black 95, white 685, 0.002 density a code, 0.6
    /// gamma), then the sRGB curve.
    static func cineonExpected(_ codes: [Int], stops: Double = 0) -> [UInt8] {
        let black = pow(10, Double(95 - 685) * 0.002 / 0.6)
        return codes.map { code in
            let linear = (pow(10, Double(code - 685) * 0.002 / 0.6) - black) / (1 - black) * pow(2, stops)
            let clipped = min(max(linear, 0), 1)
            let encoded = clipped <= 0.003_130_8 ? clipped * 12.92 : 1.055 * pow(clipped, 1 / 2.4) - 0.055
            return UInt8((encoded * 255).rounded())
        }
    }

    @Test(arguments: [
        "rgb24", "rgba", "abgr", "gray", "gbrp10be", "gbrp10le", "gbrp12be", "gbrp12le", "rgb48be", "rgba64le",
        "gray16be",
    ])
    func everyDepthAndByteOrderFFmpegWritesShowsWhatFFmpegDecodes(pixelFormat: String) throws {
        let dir = try TemporaryDirectory()
        let image = try Self.ffmpegDPX(pixelFormat, in: dir)
        let ours = try OpenEXRInputTests.moviePixels(of: image, in: dir)
        let theirs = try Self.ffmpegRGB(image)
        #expect(ours.count == Self.width * Self.height * 3 && theirs.count == ours.count)
        let difference = OpenEXRInputTests.difference(ours, theirs)
        #expect(difference.largest <= 1 && difference.mean <= 0.5, "\(pixelFormat): \(difference)")
    }

    /// 10-bit samples filled by method B (in a word's low 30 bits, as some scanners write them), and
    /// lines stored bottom to top (orientation 2), are read as ffmpeg reads them (ffmpeg ignores the
    /// orientation: its picture is flipped to compare).
    @Test func methodBAndBottomToTopAreRead() throws {
        let dir = try TemporaryDirectory()
        let source = try Self.ffmpegDPX("gbrp10be", in: dir)
        let methodB = dir.path("method-b.dpx")
        try Self.patch(source, to: methodB, "method-b")
        let ours = try OpenEXRInputTests.moviePixels(of: methodB, in: dir)
        #expect(OpenEXRInputTests.difference(ours, try Self.ffmpegRGB(methodB)).largest <= 1)
        #expect(OpenEXRInputTests.difference(ours, try Self.ffmpegRGB(source)).largest <= 1, "the same picture")

        let upsideDown = dir.path("bottom-up.dpx")
        try Self.patch(source, to: upsideDown, "bottom-up")
        let flipped = try OpenEXRInputTests.moviePixels(of: upsideDown, in: dir)
        #expect(OpenEXRInputTests.difference(flipped, try Self.ffmpegRGB(upsideDown, flipped: true)).largest <= 1)
        #expect(OpenEXRInputTests.difference(flipped, ours).mean > 10, "the rows were turned")
    }

    /// A DPX whose transfer says printing density is Cineon log: made linear and shown through the
    /// view transform, as numpy's conversion of ffmpeg's 10-bit decode of its codes has it, within a level;
    /// `--exposure` moves it as it moves a render.
    @Test(arguments: [0.0, 1.5])
    func printingDensityIsCineonLogMadeLinear(stops: Double) throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("scan.dpx")
        try Self.patch(try Self.ffmpegDPX("gbrp10be", in: dir), to: log, "printing-density")
        let ours = try OpenEXRInputTests.moviePixels(of: log, in: dir, stops == 0 ? [] : ["--exposure", String(stops)])
        let codes = try ExternalTool.runForData(
            "ffmpeg", ["-v", "error", "-i", log, "-pix_fmt", "rgb48le", "-f", "rawvideo", "-"]
        ).withUnsafeBytes { raw in raw.bindMemory(to: UInt16.self).map { Int(UInt16(littleEndian: $0)) >> 6 } }
        let expected = Self.cineonExpected(codes, stops: stops)
        #expect(ours.count == expected.count && !ours.isEmpty)
        let difference = OpenEXRInputTests.difference(ours, expected)
        #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(stops) EV: \(difference)")
        let asTheyAre = try Self.ffmpegRGB(log)
        #expect(OpenEXRInputTests.difference(ours, asTheyAre).mean > 5, "the log values are not shown raw")
    }

    /// A Cineon file (big-endian, 10-bit RGB filled into words, as film scanners wrote them; written here
    /// from the format's header layout, since ffmpeg has no Cineon encoder or decoder) is Cineon log
    /// made linear.
    @Test func cineonIsLogMadeLinear() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("scan.cin")
        let script = """
            import sys, struct, numpy as np
            w, h = 40, 20
            y, x = np.mgrid[0:h, 0:w]
            codes = np.stack([(x * 25) % 1024, (y * 50 + 95) % 1024, 685 - x * 5], -1).astype(np.uint32)
            header = bytearray(1024)
            struct.pack_into(">IIIIII", header, 0, 0x802A5FD7, 1024, 1024, 0, 0, 1024 + w * h * 4)
            header[192], header[193] = 0, 3
            for c in range(3):
                base = 196 + 28 * c
                header[base + 1], header[base + 2] = c + 1, 10
                struct.pack_into(">II", header, base + 4, w, h)
            header[680], header[681] = 0, 5
            words = (codes[..., 0] << 22) | (codes[..., 1] << 12) | (codes[..., 2] << 2)
            open(sys.argv[1], "wb").write(bytes(header) + words.astype(">u4").tobytes())
            print(" ".join(str(v) for v in codes.reshape(-1)))
            """
        let codes = try Self.python(script, [path]).split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let ours = try OpenEXRInputTests.moviePixels(of: path, in: dir)
        let expected = Self.cineonExpected(codes)
        #expect(ours.count == 40 * 20 * 3 && expected.count == ours.count)
        let difference = OpenEXRInputTests.difference(ours, expected)
        #expect(difference.largest <= 1 && difference.mean <= 0.1, "\(difference)")
    }

    /// A DPX cut short, one of Y'CbCr, one of a packing DPX does not define and one run-length
    /// encoded are each refused by name with a sentence of Flipbook's own, and nothing is written.
    @Test func damagedAndUnreadDPXAreNamedAndNothingIsWritten() throws {
        let dir = try TemporaryDirectory()
        let source = try Self.ffmpegDPX("gbrp10be", in: dir)
        let script = """
            import sys, struct
            data = bytearray(open(sys.argv[1], "rb").read())
            open(sys.argv[2] + "/cut.dpx", "wb").write(data[:len(data) * 2 // 3])
            ycbcr = bytearray(data); ycbcr[780 + 20] = 100
            open(sys.argv[2] + "/ycbcr.dpx", "wb").write(ycbcr)
            packing = bytearray(data); struct.pack_into(">H", packing, 780 + 24, 5)
            open(sys.argv[2] + "/packing.dpx", "wb").write(packing)
            rle = bytearray(data); struct.pack_into(">H", rle, 780 + 26, 1)
            open(sys.argv[2] + "/rle.dpx", "wb").write(rle)
            """
        _ = try Self.python(script, [source, dir.path("")])
        for (name, words) in [
            ("cut", "cannot be decoded"), ("ycbcr", "Y'CbCr"), ("packing", "packing 5"),
            ("rle", "run-length encoded"),
        ] {
            let movie = dir.path("\(name).mp4")
            let result = try ExternalTool.run(ExternalTool.flipbookPath, [dir.path("\(name).dpx"), "-o", movie])
            #expect(result.status == 1, "\(name): \(result.stderr)")
            #expect(
                result.stderr.contains("\(name).dpx") && result.stderr.contains("DPX") && result.stderr.contains(words),
                "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }
}
