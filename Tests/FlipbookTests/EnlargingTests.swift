import Foundation
import Testing

@testable import Flipbook

/// Enlarging uses Catmull-Rom: judged against the picture a smooth function really has between the
/// samples, and against what bilinear interpolation would give.
@Suite struct EnlargingTests {
    /// Where output position `position` of `outputCount` falls in source positions, centres aligned.
    static func centre(_ position: Int, from sourceCount: Int, to outputCount: Int) -> Double {
        (Double(position) + 0.5) * Double(sourceCount) / Double(outputCount) - 0.5
    }

    @Test func aLinearRampStaysExactlyLinear() {
        let ramp = (0..<20).map { UInt8(10 * $0 + 5) }
        let out = ImageScaler.scale(ramp, width: 20, height: 1, channels: 1, toWidth: 60, height: 1)
        for position in 0..<60 {
            let x = Self.centre(position, from: 20, to: 60)
            // Inside, where all four taps are real samples: the line itself.
            guard x >= 1 && x <= 18 else { continue }
            #expect(abs(Double(out[position]) - (10 * x + 5)) <= 0.5 + 1e-9, "position \(position) at \(x)")
        }
        #expect(out.first == 5 && out.last == 195, "the outer pixels keep their values")
    }

    /// A smooth picture sampled at whole source positions, enlarged 4x: the result is compared with
    /// the function at the new pixels' centres, away from the borders.
    @Test func aSmoothPictureEnlargedIsCloserToTheTruthThanBilinear() {
        func truth(_ x: Double, _ y: Double) -> Double { 128 + 100 * sin(x / 2.5) * cos(y / 3.5) }
        let (width, height, scale) = (48, 36, 4)
        var source: [UInt8] = []
        for y in 0..<height { for x in 0..<width { source.append(UInt8(truth(Double(x), Double(y)).rounded())) } }
        let (newWidth, newHeight) = (width * scale, height * scale)
        let enlarged = ImageScaler.scale(
            source, width: width, height: height, channels: 1, toWidth: newWidth, height: newHeight)
        var (catmullRomError, bilinearError, samples) = (0.0, 0.0, 0)
        for row in 0..<newHeight {
            for column in 0..<newWidth {
                let (x, y) = (
                    Self.centre(column, from: width, to: newWidth), Self.centre(row, from: height, to: newHeight)
                )
                guard x >= 2 && x <= Double(width - 3) && y >= 2 && y <= Double(height - 3) else { continue }
                let expected = truth(x, y)
                catmullRomError += pow(Double(enlarged[row * newWidth + column]) - expected, 2)
                let (left, top) = (Int(x), Int(y))
                let (fx, fy) = (x - Double(left), y - Double(top))
                func at(_ dx: Int, _ dy: Int) -> Double { Double(source[(top + dy) * width + left + dx]) }
                let bilinear =
                    (at(0, 0) * (1 - fx) + at(1, 0) * fx) * (1 - fy) + (at(0, 1) * (1 - fx) + at(1, 1) * fx) * fy
                bilinearError += pow(bilinear - expected, 2)
                samples += 1
            }
        }
        let psnr = { (squares: Double) in 10 * log10(255 * 255 / (squares / Double(samples))) }
        #expect(
            psnr(catmullRomError) > psnr(bilinearError) + 3,
            "Catmull-Rom \(psnr(catmullRomError)) dB, bilinear \(psnr(bilinearError)) dB")
        #expect(psnr(catmullRomError) > 50, "Catmull-Rom \(psnr(catmullRomError)) dB")
    }

    @Test func aHardEdgeOvershootsOnlyWithinTheCodeRange() {
        // Black then white, enlarged: values stay in 0...255, both sides keep their colour away from
        // the edge, and the step rises monotonically apart from the clamped overshoot.
        let edge: [UInt8] = [0, 0, 0, 0, 255, 255, 255, 255]
        let out = ImageScaler.scale(edge, width: 8, height: 1, channels: 1, toWidth: 40, height: 1)
        #expect(Array(out.prefix(12)).allSatisfy { $0 == 0 }, "\(out)")
        #expect(Array(out.suffix(12)).allSatisfy { $0 == 255 }, "\(out)")
        #expect(zip(out, out.dropFirst()).allSatisfy { $0 <= $1 }, "\(out)")
    }
}
