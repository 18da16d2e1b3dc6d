/// Scene light coded for an HDR movie, pixel by pixel: exposed, its primaries made BT.2020's, its light
/// relative to white coded with the movie's transfer (reference white at the movie's peak luminance),
/// as 16-bit samples. One statement of the arithmetic, for every way a render reaches it.
struct HDRPixelCoder {
    private let coder: LinearLightCoder
    /// The conversion to BT.2020 with the exposure folded in, in locals the loop reads without an array.
    private let m: (Float, Float, Float, Float, Float, Float, Float, Float, Float)
    /// The factor scene light is multiplied by (the exposure).
    let gain: Float

    /// The coder for an HDR movie of `colour`, for light in `chromaticities` (white then red, green,
    /// blue x, y; BT.709's when `nil`, OpenEXR's default).
    init(_ colour: ColourSettings, chromaticities: [Double]?) {
        coder = LinearLightCoder(colour.target == .hlg ? .hlg : .pq, whiteNits: colour.peakLuminance)
        let gain = colour.view.gain
        self.gain = gain
        let conversion = PrimariesConversion(
            from: chromaticities ?? PrimariesConversion.bt709, to: PrimariesConversion.bt2020)
        let m = conversion.matrix.map { $0 * gain }
        self.m = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
    }

    /// The coded R, G, B samples of a pixel's scene light.
    @inline(__always) func code(_ red: Float, _ green: Float, _ blue: Float) -> (UInt16, UInt16, UInt16) {
        @inline(__always) func sample(_ value: Float) -> UInt16 { UInt16(coder.code(value) * 65535 + 0.5) }
        return (
            sample(m.0 * red + m.1 * green + m.2 * blue), sample(m.3 * red + m.4 * green + m.5 * blue),
            sample(m.6 * red + m.7 * green + m.8 * blue)
        )
    }
}
