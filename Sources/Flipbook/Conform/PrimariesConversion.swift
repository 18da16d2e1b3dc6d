import Foundation

/// Linear RGB from one set of primaries to another, through CIE XYZ without adapting one white to the
/// other: OpenEXR's convention for its `chromaticities` (its own sample images `XYZ.exr`, white at
/// 1/3, 1/3, and `Rec709.exr`, white at D65, are the same picture so: 75 dB apart, and 29 dB apart with
/// the whites matched by the Bradford transform).
struct PrimariesConversion: Sendable {
    /// Row-major 3x3 matrix applied to a column of linear R, G, B.
    let matrix: [Float]

    /// BT.709 (sRGB) primaries, D65: white then red, green and blue (x, y), as OpenEXR's
    /// `chromaticities` attribute orders them (its default when a file has none).
    static let bt709 = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]
    /// BT.2020 primaries, D65.
    static let bt2020 = [0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046]
    /// Display P3 primaries, D65.
    static let displayP3 = [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]

    /// The primaries a movie of `standard` holds (BT.709's for BT.601 too: such movies hold sRGB values).
    static func primaries(of standard: ColourStandard) -> [Double] {
        switch standard {
        case .bt709, .bt601: bt709
        case .displayP3: displayP3
        case .bt2020, .pq, .hlg: bt2020
        }
    }

    /// The conversion from `source` to `destination` (each white then red, green, blue x, y); the
    /// identity when either is not a set of primaries.
    init(from source: [Double], to destination: [Double]) {
        guard let toXYZ = Self.rgbToXYZ(source), let fromXYZ = Self.rgbToXYZ(destination).flatMap(Self.inverse)
        else {
            matrix = [1, 0, 0, 0, 1, 0, 0, 0, 1]
            return
        }
        matrix = Self.multiply(fromXYZ, toXYZ).map(Float.init)
    }

    /// `(r, g, b)` converted.
    @inline(__always) func apply(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        (
            matrix[0] * r + matrix[1] * g + matrix[2] * b, matrix[3] * r + matrix[4] * g + matrix[5] * b,
            matrix[6] * r + matrix[7] * g + matrix[8] * b
        )
    }

    private static func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }

    /// The RGB to XYZ matrix of `chromaticities` (white, red, green, blue x, y), white at Y = 1. A
    /// primary may lie on the diagonal's edge (CIE XYZ's own, y = 0): each is taken as x, y, 1 - x - y.
    static func rgbToXYZ(_ chromaticities: [Double]) -> [Double]? {
        guard chromaticities.count == 8, chromaticities.allSatisfy({ $0.isFinite }), abs(chromaticities[1]) > 1e-9
        else { return nil }
        let white = xyz(chromaticities[0], chromaticities[1])
        func point(_ x: Double, _ y: Double) -> [Double] { [x, y, 1 - x - y] }
        let columns = [
            point(chromaticities[2], chromaticities[3]), point(chromaticities[4], chromaticities[5]),
            point(chromaticities[6], chromaticities[7]),
        ]
        let primaries = (0..<9).map { columns[$0 % 3][$0 / 3] }
        guard let inverse = inverse(primaries) else { return nil }
        let scales = (0..<3).map { row in (0..<3).reduce(0.0) { $0 + inverse[row * 3 + $1] * white[$1] } }
        return (0..<9).map { primaries[$0] * scales[$0 % 3] }
    }

    /// The inverse of a row-major 3x3 matrix, or `nil` when it has none.
    static func inverse(_ m: [Double]) -> [Double]? {
        func minor(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Double { m[a] * m[b] - m[c] * m[d] }
        let cofactors: [Double] = [
            minor(4, 8, 5, 7), minor(2, 7, 1, 8), minor(1, 5, 2, 4),
            minor(5, 6, 3, 8), minor(0, 8, 2, 6), minor(2, 3, 0, 5),
            minor(3, 7, 4, 6), minor(1, 6, 0, 7), minor(0, 4, 1, 3),
        ]
        let determinant: Double = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        guard determinant.isFinite, abs(determinant) > 1e-12 else { return nil }
        return cofactors.map { $0 / determinant }
    }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let (row, column) = (index / 3, index % 3)
            return (0..<3).reduce(0.0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }
}
