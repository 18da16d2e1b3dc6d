import Foundation

/// Pictures whose file says PQ or HLG (a 16-bit PNG's `cICP`, a HEIF's `nclx`) made the movie's: their
/// light decoded by their transfer (PQ's EOTF in nits; HLG on BT.2100's 1000-nit reference display, as
/// ``HDRTransfer`` codes it), relative to white at the movie's peak luminance (203 nits by default),
/// their primaries made the movie's, then coded as the movie is: the sRGB curve, clipped at white, for a
/// standard-dynamic-range movie; the movie's own transfer for an HDR one.
struct HDRSourceConversion: Sendable {
    /// The source's transfer.
    let source: HDRTransfer.Curve
    /// The source's primaries: white, red, green and blue (x, y).
    let primaries: [Double]

    /// The conversion for pictures stating `colour`, when it states PQ or HLG with primaries Flipbook knows.
    init?(_ colour: SourceColour) {
        guard colour.iccProfile == nil, let points = colour.codePoints else { return nil }
        switch points.transfer {
        case 16: source = .pq
        case 18: source = .hlg
        default: return nil
        }
        switch points.primaries {
        case 1: primaries = PrimariesConversion.bt709
        case 9: primaries = PrimariesConversion.bt2020
        case 12: primaries = PrimariesConversion.displayP3
        default: return nil
        }
    }

    private static let lightTables = LockedValue([String: [Float]]())

    /// Light relative to white at `whiteNits` for each 16-bit code of `curve`, made once a curve and white.
    private static func lightTable(_ curve: HDRTransfer.Curve, whiteNits: Double) -> [Float] {
        let key = "\(curve) \(whiteNits)"
        if let known = lightTables.withLock({ $0[key] }) { return known }
        let made = (0..<65536).map { Float(HDRTransfer.nits(Double($0) / 65535, curve: curve) / whiteNits) }
        lightTables.withLock { $0[key] = made }
        return made
    }

    /// The name conversions are counted under: `PQ (BT.2020)`.
    var name: String {
        (source == .pq ? "PQ" : "HLG")
            + (primaries == PrimariesConversion.bt2020
                ? " (BT.2020)" : primaries == PrimariesConversion.bt709 ? " (BT.709)" : " (Display P3)")
    }

    /// `image` made the movie's; planes (which a request never asks for from such a file) are left as they are.
    func convert(_ image: DecodedImage, settings: ColourSettings) -> DecodedImage {
        let conversion = PrimariesConversion(from: primaries, to: PrimariesConversion.primaries(of: settings.target))
        let white = settings.peakLuminance
        let light = Self.lightTable(source, whiteNits: white)
        let coder: LinearLightCoder? =
            settings.target.isHDR ? LinearLightCoder(settings.target == .hlg ? .hlg : .pq, whiteNits: white) : nil
        func code(_ value: Float) -> UInt16 {
            let coded = coder.map { $0.code(value) } ?? ViewTransform.encode(value)
            return UInt16((min(max(coded, 0), 1) * 65535).rounded())
        }
        func recoded(_ samples: [UInt16], hasAlpha: Bool) -> [UInt16] {
            let channels = hasAlpha ? 4 : 3
            var out = samples
            for pixel in 0..<(samples.count / channels) {
                let base = pixel * channels
                let rgb = conversion.apply(
                    light[Int(samples[base])], light[Int(samples[base + 1])], light[Int(samples[base + 2])])
                out[base] = code(rgb.0)
                out[base + 1] = code(rgb.1)
                out[base + 2] = code(rgb.2)
            }
            return out
        }
        let stated = settings.target.codedColour ?? .inMovieSpace
        switch image {
        case .deep(let deep):
            var result = DeepImage(
                width: deep.width, height: deep.height, samples: recoded(deep.samples, hasAlpha: deep.hasAlpha),
                hasAlpha: deep.hasAlpha)
            result.sourceColour = stated
            return .deep(result)
        case .frame(let frame):
            // An 8-bit picture of an HDR transfer (rare): widened, converted, and made 8-bit again.
            let wide = frame.widened(through: Frame.widening, keepingAlpha: true)
            var deep = DeepImage(
                width: frame.width, height: frame.height, samples: recoded(wide.samples, hasAlpha: wide.hasAlpha),
                hasAlpha: wide.hasAlpha)
            deep.sourceColour = stated
            guard var result = try? deep.eightBit() else { return image }
            result.sourceColour = stated
            return .frame(result)
        case .planes:
            return image
        }
    }
}
