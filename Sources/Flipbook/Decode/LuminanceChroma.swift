/// OpenEXR's luminance-chroma pictures made RGB: `Y` with the differences `RY = (R - Y) / Y` and
/// `BY = (B - Y) / Y`, as OpenEXR's `RgbaYca` defines them.
enum LuminanceChroma {
    /// The luminance weights of red, green and blue for the primaries `chromaticities` gives (white, red,
    /// green, blue as x, y pairs), or BT.709's when there are none: the Y row of the RGB to XYZ matrix.
    static func weights(_ chromaticities: [Double]?) -> (red: Float, green: Float, blue: Float) {
        let given = chromaticities ?? [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]
        func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
        let white = xyz(given[0], given[1])
        let primaries = [xyz(given[2], given[3]), xyz(given[4], given[5]), xyz(given[6], given[7])]
        // The scale of each primary so that together they make white: solve P * s = W (Cramer's rule).
        func determinant(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let matrix = (0..<3).map { row in (0..<3).map { column in primaries[column][row] } }
        let whole = determinant(matrix)
        guard whole.isFinite, abs(whole) > 1e-12 else { return (0.2126, 0.7152, 0.0722) }
        let scales = (0..<3).map { column in
            determinant(
                matrix.enumerated().map { row, values in
                    values.enumerated().map { $0.offset == column ? white[row] : $0.element }
                }) / whole
        }
        return (Float(scales[0]), Float(scales[1]), Float(scales[2]))
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
