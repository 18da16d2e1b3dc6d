extension FuzzEntry {
    /// What the `FuzzColour` target does with one input: the bytes as an ICC profile (and, from the
    /// fifth byte, as PNG `cICP`, `gAMA` and `cHRM` values) resolved, its transforms into each movie space
    /// made by Little CMS, and a small frame of every layout converted through them; any failure is a
    /// statement Flipbook cannot use, never a trap.
    package static func colourTarget(_ bytes: [UInt8]) {
        var colours = [SourceColour(iccProfile: bytes)]
        var cmyk = SourceColour(iccProfile: bytes)
        cmyk.pixelsAreCMYK = true
        colours.append(cmyk)
        if bytes.count >= 4 {
            colours.append(
                SourceColour(
                    codePoints: SourceColour.CodePoints(
                        primaries: Int(bytes[0]), transfer: Int(bytes[1]), matrix: Int(bytes[2]),
                        fullRange: bytes[3] != 0)))
        }
        if bytes.count >= 40 {
            func value(_ at: Int) -> Double {
                Double(bytes[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) / 100_000
            }
            colours.append(SourceColour(gamma: value(4), chromaticities: (0..<8).map { value(8 + 4 * $0) }))
        }
        let pixels = (0..<64).map { UInt8(truncatingIfNeeded: $0 * 37) }
        for colour in colours {
            for target in ColourStandard.allCases {
                var settings = VideoSettings(width: 4, height: 4)
                settings.colourStandard = target
                let transform = ColourTransform(settings: settings)
                for format in PixelFormat.allCases {
                    guard
                        var frame = try? Frame(
                            width: 4, height: 4, format: format, pixels: Array(pixels.prefix(16 * format.bytesPerPixel))
                        )
                    else { continue }
                    frame.sourceColour = colour
                    if colour.pixelsAreCMYK && format != .rgba { continue }
                    _ = transform.apply(to: .frame(frame))
                }
                var deep = DeepImage(width: 2, height: 2, samples: (0..<12).map { UInt16($0 * 5000) })
                deep.sourceColour = colour
                _ = transform.apply(to: .deep(deep))
            }
        }
    }
}
