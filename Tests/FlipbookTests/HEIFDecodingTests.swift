import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// The venv's Python, with pillow-heif, next to the build folder.
enum PillowHEIF {
    static let python: String? = {
        var folder = ExternalTool.productsDirectory
        while folder.lastPathComponent != ".build" && folder.path != "/" { folder.deleteLastPathComponent() }
        let python = folder.appendingPathComponent("heif-venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: python) ? python : nil
    }()
}

/// HEIC and AVIF stills (8- and 10-bit, with alpha, turned by `irot`, under two different nclx matrices)
/// made by Debian's `heif-enc` (x265, libaom) or pillow-heif, decoded by Flipbook (Debian's libheif with
/// libde265 and dav1d) against pillow-heif's decode (its own libheif, libde265 and libaom) within 2 levels.
/// pillow-heif lives in `.build/heif-venv`, which `make test` creates.
@Suite(.enabled(if: PillowHEIF.python != nil, "pillow-heif is missing: run make test (it creates .build/heif-venv)"))
struct HEIFDecodingTests {
    static var referencePython: String? { PillowHEIF.python }

    static let width = 64
    static let height = 48

    /// A test pattern PNG, with an alpha ramp when `alpha`, 16-bit when `deep`.
    static func makePattern(_ path: String, alpha: Bool = false, deep: Bool = false) throws {
        var filters = "testsrc2=size=\(width)x\(height)"
        if alpha { filters += ",format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='3*X+40'" }
        let format = deep ? (alpha ? "rgba64be" : "rgb48be") : (alpha ? "rgba" : "rgb24")
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", filters, "-frames:v", "1", "-pix_fmt", format, path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// pillow-heif's decode of `path`, turned as its `irot`/`imir` say, as bytes of `mode`.
    static func referencePixels(_ path: String, mode: String) throws -> [UInt8] {
        let script =
            "import sys, pillow_heif; from PIL import Image; pillow_heif.register_heif_opener(); "
            + "pillow_heif.register_avif_opener(); "
            + "sys.stdout.buffer.write(Image.open(sys.argv[1]).convert(sys.argv[2]).tobytes())"
        return [UInt8](try ExternalTool.runForData(referencePython!, ["-c", script, path, mode]))
    }

    static func heifEnc(_ arguments: [String]) throws {
        let made = try ExternalTool.run("heif-enc", arguments)
        #expect(made.status == 0, "\(made.stderr)")
    }

    static func worstDifference(_ frame: Frame, _ reference: [UInt8]) -> Int {
        guard frame.pixels.count == reference.count else { return 999 }
        return zip(frame.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 999
    }

    @Test(arguments: [
        ("8bit.heic", false, false, ["-q", "90"]),
        ("8bit.avif", false, false, ["-A", "-q", "90"]),
        ("alpha.heic", true, false, ["-q", "90"]),
        ("alpha.avif", true, false, ["-A", "-q", "90"]),
        ("10bit.heic", false, true, ["-q", "90", "-b", "10"]),
        ("bt709-limited.heic", false, false, ["-q", "90", "--matrix_coefficients", "1", "--full_range_flag", "0"]),
        ("bt601-full.avif", false, false, ["-A", "-q", "90", "--matrix_coefficients", "6", "--full_range_flag", "1"]),
    ])
    func decodesLikePillowHEIF(name: String, alpha: Bool, deep: Bool, options: [String]) throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.png")
        try Self.makePattern(source, alpha: alpha, deep: deep)
        let path = dir.path(name)
        try Self.heifEnc(options + ["-o", path, source])
        let frame = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
        #expect(frame.width == Self.width && frame.height == Self.height, "\(name)")
        #expect(frame.format == (alpha ? .rgba : .rgb), "\(name)")
        let worst = Self.worstDifference(frame, try Self.referencePixels(path, mode: alpha ? "RGBA" : "RGB"))
        #expect(worst <= 2, "\(name): largest difference from pillow-heif's decode \(worst)")
    }

    /// The same picture under the BT.601 and BT.709 matrices decodes to nearly the same colours: the
    /// matrix the `colr` box names is the one used (with the wrong one, saturated colours move by 20+ levels).
    @Test func theNCLXMatrixIsRespected() throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.png")
        try Self.makePattern(source)
        var frames: [Frame] = []
        for matrix in ["1", "6"] {
            let path = dir.path("m\(matrix).heic")
            try Self.heifEnc(["-q", "95", "--matrix_coefficients", matrix, "-o", path, source])
            frames.append(try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits()))
        }
        let original = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: source), limits: ImageLimits())
        for frame in frames {
            let mean =
                Double(zip(frame.pixels, original.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +))
                / Double(original.pixels.count)
            #expect(mean < 4, "mean difference from the source \(mean)")
        }
    }

    /// Debian's heif-enc cannot write a 10-bit AVIF (libaom asserts), so pillow-heif writes this one from
    /// 16-bit samples; Flipbook rounds it to 8 bits as pillow-heif does.
    @Test func aTenBitAVIFDecodesLikePillowHEIF() throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.png")
        try Self.makePattern(source, deep: true)
        let path = dir.path("10bit.avif")
        let script =
            "import sys, subprocess, pillow_heif; pillow_heif.register_avif_opener(); "
            + "raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', sys.argv[1], '-f', 'rawvideo', '-pix_fmt', 'rgb48le', '-'], "
            + "capture_output=True, check=True).stdout; "
            + "pillow_heif.from_bytes(mode='RGB;16', size=(\(Self.width), \(Self.height)), data=raw)"
            + ".save(sys.argv[2], quality=90, format='AVIF'); "
            + "assert pillow_heif.open_heif(sys.argv[2], convert_hdr_to_8bit=False).info['bit_depth'] == 10"
        let made = try ExternalTool.run(Self.referencePython!, ["-c", script, source, path])
        #expect(made.status == 0, "\(made.stderr)")
        let frame = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
        let worst = Self.worstDifference(frame, try Self.referencePixels(path, mode: "RGB"))
        #expect(worst <= 2, "largest difference from pillow-heif's decode \(worst)")
    }

    /// A 10-bit ramp (pillow-heif from 16-bit samples) rising 8 levels of 8 bits across 1024 pixels keeps
    /// every 10-bit step when decoded deep for a 10-bit movie, and has 8 levels when decoded at 8 bits.
    @Test(arguments: [("HEIF", "heic"), ("AVIF", "avif")])
    func aTenBitImageDecodesDeepForATenBitMovie(format: String, ext: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ramp.\(ext)")
        let ramp = "row = b''.join(struct.pack('<3H', v, v, v) for v in [30000 + 2 * x for x in range(w)]); "
        let save = "pillow_heif.from_bytes(mode='RGB;16', size=(w, h), data=row * h)"
        let script: String =
            "import sys, struct, pillow_heif; pillow_heif.register_avif_opener(); w, h = 1024, 64; " + ramp + save
            + ".save(sys.argv[1], quality=95, format=sys.argv[2])"
        let made = try ExternalTool.run(Self.referencePython!, ["-c", script, path, format])
        #expect(made.status == 0, "\(made.stderr)")
        let url = URL(fileURLWithPath: path)
        let deep = try ImageDecoder.decodeImageFile(at: url, limits: ImageLimits(), planes: .anyEvenSize, deep: true)
        guard case .deep(let image) = deep else {
            Issue.record("a 10-bit \(ext) was not decoded at its depth")
            return
        }
        let middleRow: StrideTo<Int> = stride(from: 98_305, to: 101_376, by: 3)  // green samples of row 32
        var deepLevels = Set<UInt16>()
        for index in middleRow { deepLevels.insert(image.samples[index] >> 6) }
        #expect(deepLevels.count >= 28, "\(deepLevels.count) 10-bit levels")
        let shallow = try ImageDecoder.decodeFile(at: url, limits: ImageLimits())
        var shallowLevels = Set<UInt8>()
        for index in middleRow { shallowLevels.insert(shallow.pixels[index]) }
        #expect(shallowLevels.count <= 10, "\(shallowLevels.count) 8-bit levels")
    }

    /// pillow-heif writes an EXIF orientation as `irot` and `imir` boxes; the picture comes out turned and
    /// mirrored as pillow-heif shows it.
    @Test(arguments: 2...8)
    func rotationAndMirroringAreApplied(orientation: Int) throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.png")
        try Self.makePattern(source)
        let path = dir.path("turned.heic")
        let script =
            "import sys, pillow_heif; from PIL import Image; pillow_heif.register_heif_opener(); "
            + "exif = Image.Exif(); exif[0x0112] = \(orientation); "
            + "Image.open(sys.argv[1]).convert('RGB').save(sys.argv[2], quality=90, exif=exif.tobytes())"
        let made = try ExternalTool.run(Self.referencePython!, ["-c", script, source, path])
        #expect(made.status == 0, "\(made.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(
            bytes.range(of: Data("irot".utf8)) != nil || bytes.range(of: Data("imir".utf8)) != nil,
            "the file holds neither an irot nor an imir box")
        let frame = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
        let swaps = orientation >= 5
        #expect(frame.width == (swaps ? Self.height : Self.width), "orientation \(orientation)")
        let worst = Self.worstDifference(frame, try Self.referencePixels(path, mode: "RGB"))
        #expect(worst <= 2, "orientation \(orientation): largest difference from pillow-heif's decode \(worst)")
    }

    @Test(arguments: ["heic", "avif"])
    func aTruncatedFileIsCorruptAndNamedAsItsFormat(ext: String) throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.png")
        try Self.makePattern(source)
        let path = dir.path("whole.\(ext)")
        try Self.heifEnc(["-q", "90", "-o", path, source])
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        for cut in [40, whole.count / 2, whole.count - 10] {
            do {
                _ = try ImageDecoder.decode(whole.prefix(cut), limits: ImageLimits())
                Issue.record("a \(ext) cut at \(cut) of \(whole.count) bytes must be refused")
            } catch let error as FlipbookError {
                #expect(error.code == .corruptImage || error.code == .unsupportedImage, "cut at \(cut): \(error)")
                #expect(error.message.contains(ext.uppercased()), "cut at \(cut): \(error.message)")
            }
        }
    }

    @Test func anImageOverTheLimitsIsRefusedBeforeDecoding() throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.png")
        try Self.makePattern(source)
        let path = dir.path("big.heic")
        try Self.heifEnc(["-q", "90", "-o", path, source])
        do {
            _ = try ImageDecoder.decodeFile(
                at: URL(fileURLWithPath: path), limits: ImageLimits(maxDimension: 40, maxPixels: 1 << 20))
            Issue.record("a 64-pixel-wide HEIC must be refused by a 40-pixel limit")
        } catch let error as FlipbookError {
            #expect(error.code == .unsupportedImage, "\(error)")
            #expect(error.path == path)
        }
    }

    /// 1 KB files the fuzzer found, whose grid lists one tile thousands of times or is built from
    /// itself: Debian's libheif would start decoders and threads without end and abort the process;
    /// they are refused at once.
    @Test(arguments: [
        ("regression-grid-lists-a-tile-twice.heic", "cannot be decoded"),
        ("regression-grid-built-from-itself.heic", "built from itself"),
    ])
    func aGridListingATileTwiceOrItselfIsRefusedAtOnce(file: String, words: String) throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/seeds/heif").appendingPathComponent(file)
        let started = Date()
        do {
            _ = try ImageDecoder.decodeFile(at: seed, limits: ImageLimits())
            Issue.record("the damaged grid must be refused")
        } catch let error as FlipbookError {
            #expect(error.code == .corruptImage, "\(error)")
            #expect(error.message.contains(words), "\(error.message)")
        }
        #expect(Date().timeIntervalSince(started) < TimeBudget.seconds(2))
    }

    /// libheif writes premultiplied alpha as `auxl` and `prem` references pointing both ways between the
    /// colour and alpha items; that is no cycle of derived images, and the picture decodes with its alpha.
    @Test func premultipliedAlphaDecodes() throws {
        let dir = try TemporaryDirectory()
        let source = dir.path("source.png")
        try Self.makePattern(source, alpha: true)
        let path = dir.path("premultiplied.heic")
        try Self.heifEnc(["-q", "90", "--premultiplied-alpha", "-o", path, source])
        let frame = try ImageDecoder.decodeFile(at: URL(fileURLWithPath: path), limits: ImageLimits())
        #expect(frame.format == .rgba && frame.width == Self.width && frame.height == Self.height)
    }
}
