/// OpenEXR's luminance-chroma pictures made RGB: `Y` with the differences `RY = (R - Y) / Y` and
/// `BY = (B - Y) / Y`, as OpenEXR's `RgbaYca` defines them.
enum LuminanceChroma {
    /// The luminance weights of red, green and blue for the primaries `chromaticities` gives (white, red,
    /// green, blue as x, y pairs), or BT.709's when there are none: the Y row of the RGB to XYZ matrix.
    static func weights(_ chromaticities: [Double]?) -> (red: Float, green: Float, blue: Float) {
        guard let matrix = PrimariesConversion.rgbToXYZ(chromaticities ?? PrimariesConversion.bt709) else {
            return (0.2126, 0.7152, 0.0722)
        }
        return (Float(matrix[3]), Float(matrix[4]), Float(matrix[5]))
    }

    /// R, G and B planes from luminance and the two differences, all at full resolution.
    static func rgb(
        luminance: [Float], redDifference: [Float], blueDifference: [Float],
        weights: (red: Float, green: Float, blue: Float)
    ) -> (red: [Float], green: [Float], blue: [Float]) {
        let count = luminance.count
        guard redDifference.count == count, blueDifference.count == count, weights.green != 0 else {
            return (luminance, luminance, luminance)
        }
        var red = [Float](repeating: 0, count: count)
        var green = [Float](repeating: 0, count: count)
        var blue = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let y = luminance[index]
            let r = (redDifference[index] + 1) * y
            let b = (blueDifference[index] + 1) * y
            red[index] = r
            blue[index] = b
            green[index] = (y - r * weights.red - b * weights.blue) / weights.green
        }
        return (red, green, blue)
    }
}
