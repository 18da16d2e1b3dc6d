/// RGB from CMYK as Adobe applications store it in JPEG files (inverted: 255 means no ink), the
/// convention browsers apply to every CMYK JPEG: `R = C * K / 255` and likewise for G (M) and B (Y),
/// rounded. Without an ICC transform this is the naive conversion image viewers also use.
func rgbFromInvertedCMYK(_ cmyk: [UInt8]) -> [UInt8] {
    var rgb = [UInt8](repeating: 0, count: cmyk.count / 4 * 3)
    var out = rgb.mutableSpan
    let source = cmyk.span
    var target = 0
    for offset in stride(from: 0, to: source.count - 3, by: 4) {
        let k = Int(source[offset + 3])
        for channel in 0..<3 {
            let product = Int(source[offset + channel]) * k + 128
            out[target + channel] = UInt8(truncatingIfNeeded: (product + (product >> 8)) >> 8)
        }
        target += 3
    }
    return rgb
}
