import Foundation

extension VideoSettings {
    /// Where DejaVu Sans is when ``fontFile`` is not given (Debian's `fonts-dejavu-core`).
    static let defaultFont = URL(filePath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

    /// The burn-ins' templates, read: each field a frame's own or one of ``fields``.
    ///
    /// - Throws: `.invalidSettings` for a template that cannot be read or names an unknown field.
    func burnInTemplates() throws -> [TextTemplate] {
        try burnIns.map { try TextTemplate($0.template, given: fields.keys) }
    }

    /// Checks the burn-ins, the fields, the slate and the deflicker's window, and the frame rate when a
    /// burn-in shows the timecode: the part of ``validate()`` that settings without a size can be given already.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings` naming the first that cannot be used: a
    ///   template's brace or unknown field, a field's key, a slate's length, a deflicker's window, a
    ///   timecode at the rate.
    public func validateText() throws {
        for key in fields.keys {
            let allowed =
                !key.isEmpty
                && key.unicodeScalars.allSatisfy {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
                }
            guard allowed && !TextTemplate.frameFields.contains(key) else { throw FlipbookError.fieldKeyInvalid(key) }
        }
        let templates = try burnInTemplates()
        if templates.contains(where: { $0.names("timecode") }) {
            guard Timecode.counts(at: frameRate) else { throw FlipbookError.timecodeRateOutOfRange(frameRate) }
        }
        if let deflicker {
            guard Deflicker.windowRange.contains(deflicker.window) && deflicker.window % 2 == 1 else {
                throw FlipbookError.deflickerWindowOutOfRange(deflicker.window)
            }
        }
        if let slate {
            let hour = (3600 * frameRate.numerator + frameRate.denominator - 1) / frameRate.denominator
            guard (1...max(1, hour)).contains(slate.frames) else { throw FlipbookError.slateOutOfRange(slate.frames) }
        }
    }

    /// The font burn-ins and the slate are drawn in, at `pixelSize`.
    ///
    /// - Throws: `.invalidSettings` naming the font when it is missing or FreeType cannot use it.
    func openFont(pixelSize: Int) throws -> FontFace {
        let url = fontFile ?? Self.defaultFont
        if fontFile == nil && !FileManager.default.fileExists(atPath: url.path) {
            throw FlipbookError.defaultFontMissing(url)
        }
        return try FontFace(file: url, pixelSize: pixelSize)
    }

    /// Whether the movie has text drawn into it: burn-ins or a slate.
    var drawsText: Bool { !burnIns.isEmpty || slate != nil }
}
