import Foundation

/// How scene-linear pictures (OpenEXR renders) become the display-referred pictures a movie holds.
///
/// Scene-linear light is never shown raw: it is scaled by the exposure and then encoded for display by
/// the curve. The picture that comes out is sRGB-encoded (IEC 61966-2-1), as any 8- or 16-bit image
/// without a colour statement is read, and goes on through the movie's colour conversion from there.
public struct ViewTransform: Sendable, Hashable {
    /// The curve from scene light (after exposure) to display code values.
    public enum Curve: String, Sendable, Hashable, CaseIterable {
        /// Scene value 1.0 is display white: values are clipped to 0...1 and encoded with the sRGB
        /// curve (the inverse of IEC 61966-2-1's EOTF), which is how ffmpeg's `-apply_trc
        /// iec61966_2_1` and Blender's "Standard" view show a linear render.
        case standard
        /// A filmic roll-off of highlights: John Hable's filmic curve (Uncharted 2, "Uncharted 2: HDR
        /// Lighting", GDC 2010; A 0.15, B 0.50, C 0.10, D 0.20, E 0.02, F 0.30) with his exposure bias of
        /// 2 and white at scene value 11.2, applied to each pixel's brightest channel and the pixel
        /// scaled by it (hue kept, as ffmpeg's `tonemap=hable:desat=0` does), then the sRGB curve. Scene
        /// 1.0 is shown at 68% of display white, 18% grey at 39%; light 5.6 times scene white still
        /// differs from white.
        case filmic
    }

    /// The curve.
    public var curve: Curve
    /// Stops of exposure applied to scene light before the curve: +1 doubles it, -1 halves it.
    public var exposure: Double
    /// A display transform from an OpenColorIO config, used instead of ``curve`` when set.
    public var openColorIO: OpenColorIOView?

    /// A view transform: the `standard` curve at 0 EV unless told otherwise.
    public init(curve: Curve = .standard, exposure: Double = 0) {
        self.curve = curve
        self.exposure = exposure
    }

    /// The `standard` curve at 0 EV.
    public static let standard = ViewTransform()

    /// The display code value (0...1) for scene-linear `value`, through the `standard` curve.
    func display(_ value: Float, gain: Float) -> Float {
        Self.encode(value * gain)
    }

    /// The display code values (0...1) of a pixel's scene-linear light.
    @inline(__always) func display(_ red: Float, _ green: Float, _ blue: Float, gain: Float) -> (Float, Float, Float) {
        switch curve {
        case .standard:
            return (Self.encode(red * gain), Self.encode(green * gain), Self.encode(blue * gain))
        case .filmic:
            // NaN is black; the bias is Hable's exposure bias of 2.
            let light = (
                (red.isNaN ? 0 : red) * gain * 2, (green.isNaN ? 0 : green) * gain * 2,
                (blue.isNaN ? 0 : blue) * gain * 2
            )
            let brightest = max(light.0, light.1, light.2, 1e-6)
            guard brightest.isFinite else { return (1, 1, 1) }
            let scale = Self.hable(brightest) / Self.hableWhite / brightest
            return (Self.encode(light.0 * scale), Self.encode(light.1 * scale), Self.encode(light.2 * scale))
        }
    }

    /// Hable's filmic curve.
    static func hable(_ x: Float) -> Float {
        let (a, b, c, d, e, f): (Float, Float, Float, Float, Float, Float) = (0.15, 0.50, 0.10, 0.20, 0.02, 0.30)
        return (x * (x * a + c * b) + d * e) / (x * (x * a + b) + d * f) - e / f
    }

    /// The filmic curve's value at its white point, scene value 11.2.
    static let hableWhite = hable(11.2)

    /// Display light clipped to 0...1 and encoded with the sRGB curve; NaN and negative light are
    /// black, infinite light is white. From a table over the floats below 1 whose low 16 bits are zero,
    /// interpolated between them (within an eighth of a 16-bit level of the curve itself).
    @inline(__always) static func encode(_ value: Float) -> Float {
        guard value > 0 else { return 0 }
        guard value < 1 else { return 1 }
        let bits = value.bitPattern
        let high = Int(bits >> 16)
        let fraction = Float(bits & 0xFFFF) / 65536
        return encodeTable.withUnsafeBufferPointer { table in
            table[high] + (table[high + 1] - table[high]) * fraction
        }
    }

    /// The sRGB curve at each float from 0 to 1 whose low 16 bits are zero, by its high 16 bits.
    private static let encodeTable: [Float] = (0...0x3F80).map { high in
        let value = Double(Float(bitPattern: UInt32(high) << 16))
        return Float(value <= 0.003_130_8 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055)
    }

    /// The linear light of an sRGB-encoded value (0...1): IEC 61966-2-1's EOTF.
    static func linear(_ encoded: Float) -> Float { Float(linear(Double(encoded))) }

    /// The same in double precision.
    static func linear(_ encoded: Double) -> Double {
        encoded <= 0.040_45 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// The factor scene light is multiplied by: 2 to the power of ``exposure``.
    var gain: Float { Float(pow(2, exposure)) }
}
