import Foundation

/// The smooth curve a deflickered sequence follows, and each image's change to reach it (in stops).
///
/// An image's measured brightness is its scene's brightness plus the exposure it was given (both in
/// stops). When every image states its exposure, the scene's brightness is the measured one less it,
/// and the two are smoothed apart: the scene's by a straight line fitted to the window around each image
/// (so a steady ramp of light, dusk, is followed without lag), the exposure by the window's mean (so a
/// step of a third of a stop becomes a ramp across the window). Without exposures, the measured
/// brightness is smoothed as the scene's.
enum FlickerCurve {
    /// Each image's change in stops: the smooth curve at it less its measured brightness.
    ///
    /// - Parameters:
    ///   - measured: Each image's brightness in stops (``FlickerMeter``).
    ///   - exposures: Each image's stated exposure in stops, or `nil` when not every image states one.
    ///   - window: The images around each that the curve follows (odd).
    static func changes(measured: [Double], exposures: [Double]?, window: Int) -> [Double] {
        let stated = exposures ?? [Double](repeating: 0, count: measured.count)
        let scene = zip(measured, stated).map { $0 - $1 }
        let smoothScene = fitted(scene, window: window)
        let smoothExposure = averaged(stated, window: window)
        return measured.indices.map { smoothScene[$0] + smoothExposure[$0] - measured[$0] }
    }

    /// Each value replaced by a straight line fitted (least squares) to the values within `window / 2`
    /// of it, evaluated there; near the ends the window is cut short.
    static func fitted(_ values: [Double], window: Int) -> [Double] {
        let half = window / 2
        return values.indices.map { index in
            let range = max(0, index - half)...min(values.count - 1, index + half)
            let count = Double(range.count)
            guard range.count > 1 else { return values[index] }
            let meanX = range.reduce(0.0) { $0 + Double($1) } / count
            let meanY = range.reduce(0.0) { $0 + values[$1] } / count
            let covariance = range.reduce(0.0) { $0 + (Double($1) - meanX) * (values[$1] - meanY) }
            let variance = range.reduce(0.0) { $0 + (Double($1) - meanX) * (Double($1) - meanX) }
            return meanY + (variance > 0 ? covariance / variance : 0) * (Double(index) - meanX)
        }
    }

    /// Each value replaced by the mean of the values within `window / 2` of it (cut short near the ends).
    static func averaged(_ values: [Double], window: Int) -> [Double] {
        let half = window / 2
        return values.indices.map { index in
            let range = max(0, index - half)...min(values.count - 1, index + half)
            return range.reduce(0.0) { $0 + values[$1] } / Double(range.count)
        }
    }
}
