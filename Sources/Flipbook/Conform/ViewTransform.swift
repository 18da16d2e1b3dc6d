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
    }

    /// The curve.
    public var curve: Curve
    /// Stops of exposure applied to scene light before the curve: +1 doubles it, -1 halves it.
    public var exposure: Double

    /// A view transform: the `standard` curve at 0 EV unless told otherwise.
    public init(curve: Curve = .standard, exposure: Double = 0) {
        self.curve = curve
        self.exposure = exposure
    }

    /// The `standard` curve at 0 EV.
    public static let standard = ViewTransform()

    /// The display code value (0...1) for scene-linear `value`.
    func display(_ value: Float, gain: Float) -> Float {
        let scaled = value * gain
        // NaN and negative light are black; infinite light is white.
        guard scaled > 0 else { return 0 }
        guard scaled < 1 else { return 1 }
        return scaled <= 0.003_130_8 ? scaled * 12.92 : 1.055 * powf(scaled, 1 / 2.4) - 0.055
    }

    /// The linear light of an sRGB-encoded value (0...1): IEC 61966-2-1's EOTF.
    static func linear(_ encoded: Float) -> Float {
        encoded <= 0.040_45 ? encoded / 12.92 : powf((encoded + 0.055) / 1.055, 2.4)
    }

    /// The factor scene light is multiplied by: 2 to the power of ``exposure``.
    var gain: Float { Float(pow(2, exposure)) }
}
