import ISOBMFF
import MediaModel

/// An RGB to Y'CbCr conversion: the matrix coefficients and the code range, as tagged in the movie.
///
/// The same value decides the arithmetic in ``RGBToYUVConverter`` and the tags written in the H.264
/// VUI and the `colr` box, so the two can never disagree.
package struct ColourMatrix: Sendable, Hashable {
    /// Luma weight of red (Kr).
    let kr: Double
    /// Luma weight of blue (Kb).
    let kb: Double
    /// Whether codes use the full 0...255 range (`true`) or the limited 16...235/240 range.
    let fullRange: Bool
    /// ITU-T H.273 code points for the tags.
    let colourPrimaries: UInt16
    let transferCharacteristics: UInt16
    let matrixCoefficients: UInt16

    /// ITU-R BT.709, limited range: HD video's standard, Flipbook's default.
    package static let bt709 = ColourMatrix(
        kr: 0.2126, kb: 0.0722, fullRange: false, colourPrimaries: 1, transferCharacteristics: 1, matrixCoefficients: 1)

    /// ITU-R BT.601 as SMPTE 170M (H.273 code 6 for primaries, transfer and matrix), limited range.
    static let bt601 = ColourMatrix(
        kr: 0.299, kb: 0.114, fullRange: false, colourPrimaries: 6, transferCharacteristics: 6, matrixCoefficients: 6)

    /// Display P3 primaries (H.273 code 12, SMPTE EG 432-1) with BT.709's matrix and transfer, limited range.
    static let displayP3 = ColourMatrix(
        kr: 0.2126, kb: 0.0722, fullRange: false, colourPrimaries: 12, transferCharacteristics: 1, matrixCoefficients: 1
    )

    /// ITU-R BT.2020 primaries and non-constant-luminance matrix (code 9), its 10-bit transfer (code 14), limited range.
    static let bt2020 = ColourMatrix(
        kr: 0.2627, kb: 0.0593, fullRange: false, colourPrimaries: 9, transferCharacteristics: 14, matrixCoefficients: 9
    )

    /// BT.2100 PQ: BT.2020's primaries and matrix with SMPTE ST 2084's transfer (code 16), limited range.
    static let bt2020PQ = ColourMatrix(
        kr: 0.2627, kb: 0.0593, fullRange: false, colourPrimaries: 9, transferCharacteristics: 16, matrixCoefficients: 9
    )

    /// BT.2100 HLG: BT.2020's primaries and matrix with ARIB STD-B67's transfer (code 18), limited range.
    static let bt2020HLG = ColourMatrix(
        kr: 0.2627, kb: 0.0593, fullRange: false, colourPrimaries: 9, transferCharacteristics: 18, matrixCoefficients: 9
    )

    /// Integer coefficients scaled by 2^16, derived once from the weights and the range.
    var fixedPoint: FixedPointCoefficients {
        let kg = 1 - kr - kb
        let lumaScale = fullRange ? 1.0 : 219.0 / 255.0
        let chromaScale = fullRange ? 1.0 : 224.0 / 255.0
        let cbScale = chromaScale / (2 * (1 - kb))
        let crScale = chromaScale / (2 * (1 - kr))
        func fixed(_ value: Double) -> Int32 { Int32((value * 65536).rounded()) }
        return FixedPointCoefficients(
            yR: fixed(kr * lumaScale), yG: fixed(kg * lumaScale), yB: fixed(kb * lumaScale),
            cbR: fixed(-kr * cbScale), cbG: fixed(-kg * cbScale), cbB: fixed((1 - kb) * cbScale),
            crR: fixed((1 - kr) * crScale), crG: fixed(-kg * crScale), crB: fixed(-kb * crScale),
            lumaOffset: fullRange ? 0 : 16)
    }
}

extension ColourMatrix {
    /// The matrix for a colour standard and range, as chosen in ``VideoSettings``.
    init(_ standard: ColourStandard, _ range: ColourRange) {
        let base: ColourMatrix =
            switch standard {
            case .bt709: .bt709
            case .bt601: .bt601
            case .displayP3: .displayP3
            case .bt2020: .bt2020
            case .pq: .bt2020PQ
            case .hlg: .bt2020HLG
            }
        self.init(
            kr: base.kr, kb: base.kb, fullRange: range == .full, colourPrimaries: base.colourPrimaries,
            transferCharacteristics: base.transferCharacteristics, matrixCoefficients: base.matrixCoefficients)
    }
}

/// RGB to Y'CbCr weights in 16.16 fixed point.
struct FixedPointCoefficients: Sendable {
    let yR: Int32, yG: Int32, yB: Int32
    let cbR: Int32, cbG: Int32, cbB: Int32
    let crR: Int32, crG: Int32, crB: Int32
    let lumaOffset: Int32
}

extension ColourDescription {
    /// The tags that say how pictures converted with `matrix` are to be decoded.
    init(_ matrix: ColourMatrix) {
        self.init(
            colourPrimaries: matrix.colourPrimaries, transferCharacteristics: matrix.transferCharacteristics,
            matrixCoefficients: matrix.matrixCoefficients, fullRange: matrix.fullRange)
    }
}
