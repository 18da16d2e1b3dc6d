/// Colour tags as in ITU-T H.273: primaries, transfer characteristics, matrix and range.
///
/// Written as a `colr` box: `nclx` in MP4 (with the full-range flag), `nclc` in QuickTime (without).
package struct ColourDescription: Sendable, Equatable {
    /// `colour_primaries`, e.g. 1 for BT.709.
    package var colourPrimaries: UInt16
    /// `transfer_characteristics`, e.g. 1 for BT.709.
    package var transferCharacteristics: UInt16
    /// `matrix_coefficients`, e.g. 1 for BT.709, 6 for BT.601.
    package var matrixCoefficients: UInt16
    /// Whether sample values use the full range (0...255) rather than limited (16...235).
    package var fullRange: Bool
    /// An HDR programme's mastering display, written where the container has room for it; `nil` for none.
    package var masteringDisplay: MasteringDisplayColourVolume?
    /// An HDR programme's MaxCLL and MaxFALL; `nil` for none, or not known yet.
    package var contentLight: ContentLightLevel?
    /// Whether ``contentLight`` will be known when the movie is complete (measured from its pictures), so
    /// that a container writing its description first keeps room for it.
    package var contentLightComesLast = false

    /// BT.709 primaries, transfer and matrix, limited range.
    package static let bt709 = ColourDescription(1, 1, 1, fullRange: false)
    /// BT.601 (SMPTE 170M) primaries, transfer and matrix, limited range.
    package static let bt601 = ColourDescription(6, 6, 6, fullRange: false)

    /// Creates a colour description.
    ///
    /// - Parameters:
    ///   - colourPrimaries: H.273 `colour_primaries`.
    ///   - transferCharacteristics: H.273 `transfer_characteristics`.
    ///   - matrixCoefficients: H.273 `matrix_coefficients`.
    ///   - fullRange: Whether sample values use the full range.
    package init(
        _ colourPrimaries: UInt16, _ transferCharacteristics: UInt16, _ matrixCoefficients: UInt16,
        fullRange: Bool
    ) {
        self.colourPrimaries = colourPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
        self.fullRange = fullRange
    }

    /// Creates a colour description with labelled arguments.
    ///
    /// - Parameters:
    ///   - colourPrimaries: H.273 `colour_primaries`.
    ///   - transferCharacteristics: H.273 `transfer_characteristics`.
    ///   - matrixCoefficients: H.273 `matrix_coefficients`.
    ///   - fullRange: Whether sample values use the full range.
    package init(
        colourPrimaries: UInt16, transferCharacteristics: UInt16, matrixCoefficients: UInt16, fullRange: Bool
    ) {
        self.init(colourPrimaries, transferCharacteristics, matrixCoefficients, fullRange: fullRange)
    }
}
