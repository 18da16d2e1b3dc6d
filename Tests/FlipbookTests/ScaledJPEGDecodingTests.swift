import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

@Suite struct DecodeSizeHintTests {
    /// Every factor TurboJPEG offers below one, n/8.
    static let eighths = (1...7).map { DecodeScale(numerator: $0, denominator: 8) }

    @Test(arguments: [
        // A 24 MP photo into 1080p: cover needs 1080 rows (3/8 gives 2250x1500), contain 1620x1080.
        (6000, 4000, false, 1920, 1080, FitPolicy.cover, 3),
        (6000, 4000, false, 1920, 1080, .contain, 3),
        (6000, 4000, false, 1920, 1080, .stretch, 3),
        // Stored on its side with a quarter-turn orientation: upright it is 6000x4000 again.
        (4000, 6000, true, 1920, 1080, .cover, 3),
        // The same stored pixels shown as portrait: cover needs 1920 columns of the 4000.
        (4000, 6000, false, 1920, 1080, .cover, 4),
        (6000, 4000, false, 640, 360, .cover, 1),
        (3840, 2160, false, 1920, 1080, .cover, 4),
        // Drawn at or above its size: decoded whole.
        (1920, 1080, false, 1920, 1080, .cover, 8),
        (1280, 720, false, 1920, 1080, .contain, 8),
        // Half size would land one row shorter in the picture (500x499 instead of 500x500): decoded whole.
        (1001, 1000, false, 500, 500, .contain, 8),
    ])
    func picksTheSmallestEighthStillAtLeastTheDrawnSize(
        storedWidth: Int, storedHeight: Int, swapsSides: Bool, width: Int, height: Int, fit: FitPolicy,
        eighths: Int
    ) {
        let hint = DecodeSizeHint(width: width, height: height, fit: fit)
        let scale = hint.smallestScale(
            storedWidth: storedWidth, storedHeight: storedHeight, swapsSides: swapsSides, among: Self.eighths)
        #expect(
            scale.numerator * 8 == eighths * scale.denominator,
            "\(storedWidth)x\(storedHeight) \(swapsSides ? "turned " : "")to \(width)x\(height) \(fit): \(scale)")
    }

    /// The factors Flipbook decodes with are TurboJPEG's fast ones: 1/2, 1/4 and 1/8.
    @Test func decodesOnlyAtTheFactorsTurboJPEGHasSIMDCodeFor() {
        #expect(
            TurboJPEGDecoder.scales.sorted()
                == [1, 2, 4].map { DecodeScale(numerator: 1, denominator: 8 / $0) }.sorted())
        let hint = DecodeSizeHint(width: 1920, height: 1080, fit: .cover)
        let photo = hint.smallestScale(
            storedWidth: 6000, storedHeight: 4000, swapsSides: false, among: TurboJPEGDecoder.scales)
        #expect(photo == DecodeScale(numerator: 1, denominator: 2))
        // A portrait movie needs 1280 rows: 4000x6000 upright gives them at a quarter (1000x1500), the
        // same pixels as landscape 6000x4000 only at half size (3000x2000).
        let portrait = DecodeSizeHint(width: 720, height: 1280, fit: .cover)
        let turned = portrait.smallestScale(
            storedWidth: 6000, storedHeight: 4000, swapsSides: true, among: TurboJPEGDecoder.scales)
        #expect(turned == DecodeScale(numerator: 1, denominator: 4))
        let unturned = portrait.smallestScale(
            storedWidth: 6000, storedHeight: 4000, swapsSides: false, among: TurboJPEGDecoder.scales)
        #expect(unturned == DecodeScale(numerator: 1, denominator: 2))
    }

    @Test func noMovieSizeMeansNoHint() {
        #expect(DecodeSizeHint(movieSize: nil, fit: .cover) == nil)
        #expect(
            DecodeSizeHint(movieSize: FrameSize(width: 64, height: 48), fit: .contain)
                == DecodeSizeHint(width: 64, height: 48, fit: .contain))
    }
}

@Suite struct ScaledJPEGDecodingTests {
    /// A smooth colour picture (slow waves in each channel), `width` x `height` RGB.
    static func smoothPicture(width: Int, height: Int) -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (fx, fy) = (Double(x), Double(y))
                pixels.append(UInt8(128 + 100 * sin(fx / 90 + fy / 170)))
                pixels.append(UInt8(128 + 90 * cos(fy / 120 - fx / 300)))
                pixels.append(UInt8(128 + 80 * sin((fx + fy) / 210)))
            }
        }
        return pixels
    }

    /// Peak signal-to-noise ratio in dB of two equally sized byte arrays.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let squares = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
        return 10 * log10(255 * 255 / (squares / Double(a.count)))
    }

    /// Stored on its side (1200x1600) with orientation 6, so upright it is 1600x1200.
    static func turnedJPEG() throws -> Data {
        let upright = smoothPicture(width: 1600, height: 1200)
        // The stored pixel (x, y) is the upright one that orientation 6 shows there: (1599 - y, x).
        var stored = [UInt8](repeating: 0, count: upright.count)
        for y in 0..<1600 {
            for x in 0..<1200 {
                let from = (x * 1600 + (1599 - y)) * 3
                let to = (y * 1200 + x) * 3
                stored[to..<to + 3] = upright[from..<from + 3]
            }
        }
        return TestJPEG.withOrientation(try TestJPEG.encode(stored, width: 1200, height: 1600, kind: .rgb), 6)
    }

    @Test func aJPEGDrawnSmallerIsDecodedAtTheFactorItsTurnedSizeAllows() throws {
        let jpeg = try Self.turnedJPEG()
        let whole = try ImageDecoder.decode(jpeg, limits: ImageLimits())
        #expect(whole.width == 1600 && whole.height == 1200)
        // Cover into 640x360 needs 640 of the 1600 upright columns: half size (800x600) is the smallest.
        let half = try ImageDecoder.decode(
            jpeg, limits: ImageLimits(), sizeHint: DecodeSizeHint(width: 640, height: 360, fit: .cover))
        #expect(half.width == 800 && half.height == 600, "\(half.width)x\(half.height)")
        // Into 300x100 a quarter (400x300) still covers it.
        let quarter = try ImageDecoder.decode(
            jpeg, limits: ImageLimits(), sizeHint: DecodeSizeHint(width: 300, height: 100, fit: .stretch))
        #expect(quarter.width == 400 && quarter.height == 300, "\(quarter.width)x\(quarter.height)")
        // Drawn larger than it is: decoded whole.
        let enlarged = try ImageDecoder.decode(
            jpeg, limits: ImageLimits(), sizeHint: DecodeSizeHint(width: 1920, height: 1080, fit: .contain))
        #expect(enlarged.width == 1600 && enlarged.height == 1200)
    }

    @Test(arguments: [FitPolicy.cover, .contain, .stretch])
    func aScaledDecodeLooksLikeTheWholeImageScaled(fit: FitPolicy) throws {
        let jpeg = try Self.turnedJPEG()
        let conformer = FrameConformer(width: 640, height: 360, fit: fit, background: .black)
        let hint = DecodeSizeHint(width: 640, height: 360, fit: fit)
        let whole = try ImageDecoder.decode(jpeg, limits: ImageLimits())
        let scaled = try ImageDecoder.decode(jpeg, limits: ImageLimits(), sizeHint: hint)
        #expect(scaled.width < whole.width, "the hint should have made a smaller decode")
        let fromWhole = try conformer.conform(whole).pixels
        let fromScaled = try conformer.conform(scaled).pixels
        let psnr = Self.psnr(fromWhole, fromScaled)
        #expect(psnr > 40, "\(fit): \(psnr) dB")
    }

    @Test func pngsIgnoreTheHint() throws {
        let dir = try TemporaryDirectory()
        let png = try SampleImages.write(count: 1, width: 320, height: 240, into: dir.url.path)[0]
        let frame = try ImageDecoder.decodeFile(
            at: URL(fileURLWithPath: png), limits: ImageLimits(),
            sizeHint: DecodeSizeHint(width: 32, height: 24, fit: .cover))
        #expect(frame.width == 320 && frame.height == 240)
    }
}
