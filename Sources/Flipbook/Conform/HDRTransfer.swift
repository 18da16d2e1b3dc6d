import Foundation

/// How an HDR movie's pictures are coded (``ColourStandard/pq``, ``ColourStandard/hlg``): light relative
/// to reference white (display white of an image, scene 1.0 of a render, after exposure) placed at
/// ``whiteNits`` and coded with the standard's transfer.
///
/// - PQ (SMPTE ST 2084): the light in nits (capped at 10,000) through the inverse of the PQ EOTF.
/// - HLG (ARIB STD-B67): the light on BT.2100's 1000-nit reference display, through the inverse of that
///   display's system gamma (1.2) and the HLG OETF, each channel alike: exact for greys, where 203 nits
///   is 75% of the signal as BT.2408 places it; brighter than the display's 1000 nits is clipped.
///
/// The pictures come to it in BT.2020's primaries coded with sRGB's curve (the colour conversion's
/// output for an HDR movie), 8 or 16 bits; the tables here recode them.
struct HDRTransfer: Sendable {
    enum Curve: Sendable {
        case pq
        case hlg
    }

    let curve: Curve
    /// The nits reference white is shown at.
    let whiteNits: Double
    /// 8-bit sRGB-coded samples recoded, to 16 bits.
    let fromSRGB8: [UInt16]
    /// 16-bit sRGB-coded samples recoded.
    let fromSRGB16: [UInt16]
    /// The nits of each 16-bit coded sample (the display light it stands for).
    let nits16: [Float]

    /// The transfer of `standard`, or `nil` for a standard-dynamic-range one.
    init?(_ standard: ColourStandard, whiteNits: Double) {
        switch standard {
        case .pq: curve = .pq
        case .hlg: curve = .hlg
        default: return nil
        }
        self.whiteNits = whiteNits
        let curve = curve
        func code(_ relative: Double) -> UInt16 {
            UInt16((Self.code(relative, curve: curve, whiteNits: whiteNits) * 65535).rounded())
        }
        fromSRGB8 = (0..<256).map { code(ViewTransform.linear(Double($0) / 255)) }
        fromSRGB16 = (0..<65536).map { code(ViewTransform.linear(Double($0) / 65535)) }
        nits16 = (0..<65536).map { Float(Self.nits(Double($0) / 65535, curve: curve)) }
    }

    /// The coded value (0...1) of light `relative` to reference white; negative light and NaN are black.
    func code(_ relative: Double) -> Double { Self.code(relative, curve: curve, whiteNits: whiteNits) }

    static func code(_ relative: Double, curve: Curve, whiteNits: Double) -> Double {
        guard relative > 0 else { return 0 }
        switch curve {
        case .pq:
            return pqInverseEOTF(min(relative * whiteNits, 10_000) / 10_000)
        case .hlg:
            let display = min(relative * whiteNits / 1000, 1)
            return hlgOETF(pow(display, 1 / 1.2))
        }
    }

    /// The display light in nits of coded value `coded` (0...1).
    static func nits(_ coded: Double, curve: Curve) -> Double {
        switch curve {
        case .pq: 10_000 * pqEOTF(coded)
        case .hlg: 1000 * pow(hlgInverseOETF(coded), 1.2)
        }
    }

    // SMPTE ST 2084's constants.
    private static let m1 = 2610.0 / 16384
    private static let m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096
    private static let c2 = 2413.0 / 4096 * 32
    private static let c3 = 2392.0 / 4096 * 32

    /// PQ's inverse EOTF: `luminance` as a fraction of 10,000 nits to the coded value.
    static func pqInverseEOTF(_ luminance: Double) -> Double {
        let power = pow(max(luminance, 0), m1)
        return pow((c1 + c2 * power) / (1 + c3 * power), m2)
    }

    /// PQ's EOTF: the coded value to luminance as a fraction of 10,000 nits.
    static func pqEOTF(_ coded: Double) -> Double {
        let power = pow(min(max(coded, 0), 1), 1 / m2)
        return pow(max(power - c1, 0) / (c2 - c3 * power), 1 / m1)
    }

    // ARIB STD-B67's constants.
    private static let a = 0.178_832_77
    private static let b = 1 - 4 * a
    private static let c = 0.5 - a * log(4 * a)

    /// The HLG OETF: scene light 0...1 to the coded value.
    static func hlgOETF(_ light: Double) -> Double {
        light <= 1.0 / 12 ? sqrt(3 * max(light, 0)) : a * log(12 * light - b) + c
    }

    /// The inverse of the HLG OETF.
    static func hlgInverseOETF(_ coded: Double) -> Double {
        coded <= 0.5 ? coded * coded / 3 : (exp((coded - c) / a) + b) / 12
    }

    /// `image` (BT.2020, sRGB-coded) recoded; alpha is kept as it is.
    func recoded(_ image: DeepImage) -> DeepImage {
        let channels = image.hasAlpha ? 4 : 3
        let samples = [UInt16](unsafeUninitializedCapacity: image.samples.count) { out, initialized in
            fromSRGB16.withUnsafeBufferPointer { table in
                image.samples.withUnsafeBufferPointer { source in
                    for index in 0..<source.count {
                        out[index] = index % channels == 3 ? source[index] : table[Int(source[index])]
                    }
                }
            }
            initialized = image.samples.count
        }
        var result = DeepImage(width: image.width, height: image.height, samples: samples, hasAlpha: image.hasAlpha)
        result.sourceColour = image.sourceColour
        return result
    }

    /// An 8-bit frame's RGB (and alpha, when `keepingAlpha`) at 16 bits: recoded from sRGB's curve, or
    /// widened as they are when `coded` (the frame holds this transfer's values already).
    func deep(_ frame: Frame, coded: Bool, keepingAlpha: Bool) -> DeepImage {
        frame.widened(through: coded ? Frame.widening : fromSRGB8, keepingAlpha: keepingAlpha)
    }
}

extension Frame {
    /// Each 8-bit value at 16 bits as it is (times 257).
    static let widening = (0..<256).map { UInt16($0) * 257 }

    /// The frame's R, G, B through `table` (16-bit samples for each 8-bit value) and its alpha widened
    /// (when it has alpha and `keepingAlpha`), as a 16-bit picture.
    func widened(through table: [UInt16], keepingAlpha: Bool) -> DeepImage {
        let (red, green, blue) = format.channelOffsets
        let hasAlpha = keepingAlpha && format != .rgb
        let channels = hasAlpha ? 4 : 3
        let count = width * height * channels
        let samples = [UInt16](unsafeUninitializedCapacity: count) { out, initialized in
            table.withUnsafeBufferPointer { table in
                pixels.withUnsafeBufferPointer { source in
                    var target = 0
                    for row in 0..<height {
                        var offset = row * bytesPerRow
                        for _ in 0..<width {
                            out[target] = table[Int(source[offset + red])]
                            out[target + 1] = table[Int(source[offset + green])]
                            out[target + 2] = table[Int(source[offset + blue])]
                            if hasAlpha { out[target + 3] = UInt16(source[offset + 3]) * 257 }
                            target += channels
                            offset += format.bytesPerPixel
                        }
                    }
                }
            }
            initialized = count
        }
        return DeepImage(width: width, height: height, samples: samples, hasAlpha: hasAlpha)
    }
}

/// MaxCLL and MaxFALL (CTA-861.3) measured over a movie's coded pictures: the brightest channel of any
/// pixel, and the largest mean over a picture of each pixel's brightest channel, in nits. Shared by the
/// threads that prepare the pictures.
final class ContentLightMeter: Sendable {
    private struct Levels {
        var maxCLL: Float = 0
        var maxFALL: Double = 0
    }

    private let levels = LockedValue(Levels())
    private let transfer: HDRTransfer

    init(_ transfer: HDRTransfer) {
        self.transfer = transfer
    }

    /// Takes one picture's light: coded R, G, B (and A) samples.
    func measure(_ image: DeepImage) {
        let channels = image.hasAlpha ? 4 : 3
        var brightest: Float = 0
        var total = 0.0
        transfer.nits16.withUnsafeBufferPointer { nits in
            image.samples.withUnsafeBufferPointer { samples in
                var rowTotal: Float = 0
                for pixel in 0..<(image.width * image.height) {
                    let base = pixel * channels
                    let level = nits[Int(max(samples[base], samples[base + 1], samples[base + 2]))]
                    brightest = max(brightest, level)
                    rowTotal += level
                    // Summed a row at a time in single precision, then in double: no precision lost over 8K.
                    if (pixel + 1) % image.width == 0 {
                        total += Double(rowTotal)
                        rowTotal = 0
                    }
                }
            }
        }
        let average = total / Double(max(image.width * image.height, 1))
        levels.withLock { levels in
            levels.maxCLL = max(levels.maxCLL, brightest)
            levels.maxFALL = max(levels.maxFALL, average)
        }
    }

    /// MaxCLL and MaxFALL in whole nits, rounded up (a picture is never brighter than its label says).
    var contentLight: (maxCLL: Int, maxFALL: Int) {
        levels.withLock { (Int(Double($0.maxCLL).rounded(.up)), Int($0.maxFALL.rounded(.up))) }
    }

    /// Whether any picture was measured.
    var hasMeasured: Bool { levels.withLock { $0.maxCLL > 0 || $0.maxFALL > 0 } }
}

/// An HDR transfer as a table over linear light, for pictures of floats (renders): each non-negative
/// float's coded value, interpolated between the floats whose low 16 bits are zero (a step of 1/128
/// of the value at most, over which the curve is close to straight). Made once a transfer and white.
struct LinearLightCoder: Sendable {
    private let table: [Float]

    private static let made = LockedValue([String: [Float]]())

    /// The coder of `curve` with reference white at `whiteNits`.
    init(_ curve: HDRTransfer.Curve, whiteNits: Double) {
        let key = "\(curve) \(whiteNits)"
        if let known = Self.made.withLock({ $0[key] }) {
            table = known
            return
        }
        // Every float from 0 up to infinity's bit pattern, by its high 16 bits.
        let made = (0...0x7F80).map { high in
            let value = Float(bitPattern: UInt32(high) << 16)
            return Float(HDRTransfer.code(value.isFinite ? Double(value) : 1e30, curve: curve, whiteNits: whiteNits))
        }
        Self.made.withLock { $0[key] = made }
        table = made
    }

    /// The coded value (0...1) of linear light `value` relative to white; negative light and NaN are black.
    @inline(__always) func code(_ value: Float) -> Float {
        guard value > 0 else { return 0 }
        let bits = value.bitPattern
        let high = Int(bits >> 16)
        let fraction = Float(bits & 0xFFFF) / 65536
        return table.withUnsafeBufferPointer { table in
            guard high < 0x7F80 else { return table[0x7F80] }
            return table[high] + (table[high + 1] - table[high]) * fraction
        }
    }
}

extension ColourStandard {
    /// What pictures coded for a movie of this HDR standard state: BT.2020 primaries with its transfer
    /// (H.273 16 or 18), RGB, full range; `nil` for a standard-dynamic-range standard.
    var codedColour: SourceColour? {
        guard isHDR else { return nil }
        return SourceColour(
            codePoints: SourceColour.CodePoints(
                primaries: 9, transfer: Int(ColourMatrix(self, .limited).transferCharacteristics), matrix: 0,
                fullRange: true))
    }

    /// Whether pictures stating `colour` hold this HDR standard's coded values already (a render decoded
    /// for the movie, a PQ or HLG PNG of its transfer in BT.2020).
    func holdsCodedValues(_ colour: SourceColour) -> Bool {
        guard isHDR, colour.iccProfile == nil, let points = colour.codePoints else { return false }
        return points.primaries == 9 && points.transfer == Int(ColourMatrix(self, .limited).transferCharacteristics)
    }
}
