import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// JPEGs of the movie's size are decoded to their Y'CbCr planes and converted to the movie's YUV
/// directly. Against the RGB path (TurboJPEG to RGB, the RGB converter) the result must agree within
/// rounding, be turned by EXIF orientation exactly as the planes are, and be exact for the identity.
///
/// Luma is compared with Flipbook's own RGB path: both see chroma interpolated bilinearly at each
/// pixel (TurboJPEG's default upsampling; the planar kernel's). Chroma is compared with the RGB path
/// fed TurboJPEG's RGB with chroma repeated over the pixels it covers (`TJFLAG_FASTUPSAMPLE`): its
/// 2x2 means are then the stored chroma samples, which the planar path uses. (The RGB path's own
/// chroma is the mean of interpolated chroma, a blur of the stored samples by up to a few codes on
/// noise; the movie-level test shows the planar path is closer to the JPEGs.)
@Suite struct JPEGPlanesTests {
    enum Content: String, CaseIterable, Sendable {
        /// Smooth ramps across the whole range.
        case gradient
        /// A ramp with strong per-pixel noise (±48 codes in each channel), like film grain.
        case grain
        /// 16x16 tiles of strong primaries, secondaries, white and black.
        case saturated
    }

    enum Subsampling: String, CaseIterable, Sendable {
        case s420, s422, s444
        var kind: TestJPEG.Kind {
            switch self {
            case .s420: .rgb420
            case .s422: .rgb422
            case .s444: .rgb
            }
        }
    }

    /// `width x height` RGB pixels of `content`.
    static func pixels(_ content: Content, width: Int, height: Int, seed: UInt32 = 1) -> [UInt8] {
        var state = seed &* 2_654_435_761 | 1
        func random() -> Int {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return Int(state % 97) - 48
        }
        // Saturated, yet far enough inside the RGB gamut that JPEG's ringing and interpolated chroma
        // at the tiles' edges stay inside it (outside it, see the test of clipped blocks).
        let tiles: [[UInt8]] = [
            [215, 40, 40], [40, 215, 40], [40, 40, 215], [215, 215, 40], [40, 215, 215], [215, 40, 215],
            [215, 215, 215], [40, 40, 40],
        ]
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let ramp = [x * 255 / (width - 1), y * 255 / (height - 1), (x + y) * 255 / (width + height - 2)]
                switch content {
                case .gradient: pixels += ramp.map { UInt8($0) }
                case .grain: pixels += ramp.map { UInt8(64 + $0 / 2 + random()) }
                case .saturated: pixels += tiles[(x / 16 + 3 * (y / 16)) % tiles.count]
                }
            }
        }
        return pixels
    }

    static let matrices: [(String, ColourMatrix)] = [
        ("BT.709 limited", ColourMatrix(.bt709, .limited)), ("BT.709 full", ColourMatrix(.bt709, .full)),
        ("BT.601 limited", ColourMatrix(.bt601, .limited)), ("BT.601 full", ColourMatrix(.bt601, .full)),
    ]

    /// The JPEG's planes (turned upright), as the decoder hands them to the preparer.
    static func planes(_ jpeg: Data, width: Int, height: Int) throws -> YCbCrPlanes {
        let image = try ImageDecoder.decodeImage(
            jpeg, limits: ImageLimits(), planes: .size(FrameSize(width: width, height: height)))
        guard case .planes(let planes) = image else {
            throw JudgeError(description: "a Y'CbCr JPEG of the movie's size was decoded to RGB")
        }
        return planes
    }

    /// The JPEG's planes converted straight to `matrix`.
    static func planarPicture(_ jpeg: Data, _ matrix: ColourMatrix, width: Int, height: Int) throws -> YUVPicture {
        var picture = YUVPicture(width: width, height: height)
        JPEGToYUVConverter(matrix: matrix).convert(try planes(jpeg, width: width, height: height), into: &picture)
        return picture
    }

    /// The RGB path: decode, turn upright, convert; its luma from Flipbook's own decode (chroma
    /// interpolated), its chroma from a decode with chroma repeated, not smoothed (see above).
    static func rgbPicture(_ jpeg: Data, _ matrix: ColourMatrix, orientation: Int = 1) throws -> YUVPicture {
        let converter = RGBToYUVConverter(matrix: matrix)
        func converted(_ frame: Frame) -> YUVPicture {
            var picture = YUVPicture(width: frame.width, height: frame.height)
            converter.convert(frame, into: &picture)
            return picture
        }
        let stored = TestJPEG.withOrientation(jpeg, 1)
        let interpolated = converted(try ImageDecoder.decode(stored, limits: ImageLimits()).oriented(orientation))
        let decoded = try TestJPEG.decodeRGBRepeatingChroma(jpeg)
        var picture = converted(
            try Frame(width: decoded.width, height: decoded.height, format: .rgb, pixels: decoded.pixels)
                .oriented(orientation))
        picture.withEightBitPlanes { $0.luma = interpolated.luma }
        return picture
    }

    /// The largest difference between two planes.
    static func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// Every plane of the planar picture within `bound` of the RGB path's.
    static func expectClose(_ planar: YUVPicture, _ rgb: YUVPicture, bound: Int, _ what: String) {
        for (plane, a, b) in [("Y", planar.luma, rgb.luma), ("Cb", planar.cb, rgb.cb), ("Cr", planar.cr, rgb.cr)] {
            let largest = largestDifference(a, b)
            #expect(largest <= bound, "\(what) \(plane): differs from the RGB path by up to \(largest)")
        }
    }

    // The bound is 2 codes: the RGB path rounds R, G and B to whole codes (each up to half a code,
    // which moves Y' by up to 0.5 and Cb, Cr by up to 0.5 in the output's units) and rounds again
    // when converting; the planar path rounds once, from exact sums. Most samples agree or differ by
    // 1. Content stays inside the RGB gamut: where decoded Y'CbCr falls outside it, TurboJPEG's RGB
    // clips and the planar path keeps the value (see the next test).
    @Test(arguments: Content.allCases, Subsampling.allCases)
    func planarPathMatchesTheRGBPathWithinTwoCodes(content: Content, subsampling: Subsampling) throws {
        // 68x36: chroma planes of 4:2:0 are 34x18, odd numbers of 8x8 blocks and of MCUs.
        for (width, height) in [(64, 48), (68, 36)] {
            let jpeg = try TestJPEG.encode(
                Self.pixels(content, width: width, height: height), width: width, height: height,
                kind: subsampling.kind, quality: 92)
            for (name, matrix) in Self.matrices {
                Self.expectClose(
                    try Self.planarPicture(jpeg, matrix, width: width, height: height),
                    try Self.rgbPicture(jpeg, matrix),
                    bound: 2, "\(content) \(subsampling) \(width)x\(height) \(name)")
            }
        }
    }

    @Test func outsideTheRGBGamutOnlyClippedBlocksDiffer() throws {
        // Full-range noise in 4:2:0 decodes to many Y'CbCr values no RGB pixel has: TurboJPEG clips
        // their RGB to 0 or 255, the planar path does not. Every 2x2 block with no clipped channel
        // agrees. (Pure primaries are such colours too: their JPEG's ringing leaves the gamut.)
        let (width, height) = (64, 48)
        var state: UInt32 = 7
        let noise = (0..<(width * height * 3)).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let jpeg = try TestJPEG.encode(noise, width: width, height: height, kind: .rgb420, quality: 92)
        // Either decode of the reference (chroma repeated, chroma interpolated) may clip.
        let repeated = try TestJPEG.decodeRGBRepeatingChroma(jpeg).pixels
        let interpolated = try ImageDecoder.decode(jpeg, limits: ImageLimits()).pixels
        let planar = try Self.planarPicture(jpeg, .bt709, width: width, height: height)
        let reference = try Self.rgbPicture(jpeg, .bt709)
        var unclipped = 0
        for blockY in 0..<(height / 2) {
            for blockX in 0..<(width / 2) {
                let pixels = [(0, 0), (1, 0), (0, 1), (1, 1)].map { (2 * blockY + $0.1) * width + 2 * blockX + $0.0 }
                let clipped = pixels.contains { pixel in
                    (0..<3).contains {
                        [0, 255].contains(repeated[pixel * 3 + $0]) || [0, 255].contains(interpolated[pixel * 3 + $0])
                    }
                }
                guard !clipped else { continue }
                unclipped += 1
                let chroma = blockY * width / 2 + blockX
                let differences =
                    pixels.map { abs(Int(planar.luma[$0]) - Int(reference.luma[$0])) } + [
                        abs(Int(planar.cb[chroma]) - Int(reference.cb[chroma])),
                        abs(Int(planar.cr[chroma]) - Int(reference.cr[chroma])),
                    ]
                #expect(differences.max()! <= 2, "block (\(blockX), \(blockY)) differs by \(differences)")
            }
        }
        #expect(unclipped >= width * height / 4 / 4, "only \(unclipped) unclipped blocks: the test judges too little")
    }

    /// `plane` (`width x height`) as EXIF `orientation` shows it, written out from the definition.
    static func turned(_ plane: [UInt8], width: Int, height: Int, orientation: Int) -> [UInt8] {
        let swaps = orientation >= 5
        let (outWidth, outHeight) = swaps ? (height, width) : (width, height)
        var out: [UInt8] = []
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                let (sx, sy): (Int, Int) =
                    switch orientation {
                    case 2: (width - 1 - x, y)
                    case 3: (width - 1 - x, height - 1 - y)
                    case 4: (x, height - 1 - y)
                    case 5: (y, x)
                    case 6: (y, height - 1 - x)
                    case 7: (width - 1 - y, height - 1 - x)
                    case 8: (width - 1 - y, x)
                    default: (x, y)
                    }
                out.append(plane[sy * width + sx])
            }
        }
        return out
    }

    @Test(arguments: 1...8, Subsampling.allCases)
    func everyOrientationIsTheConvertedPictureTurned(orientation: Int, subsampling: Subsampling) throws {
        let (width, height) = (64, 48)
        let stored = try TestJPEG.encode(
            Self.pixels(.grain, width: width, height: height), width: width, height: height, kind: subsampling.kind,
            quality: 92)
        let jpeg = TestJPEG.withOrientation(stored, UInt16(orientation))
        let (uprightWidth, uprightHeight) = orientation >= 5 ? (height, width) : (width, height)
        let upright = try Self.planarPicture(jpeg, .bt709, width: uprightWidth, height: uprightHeight)
        // Exactly the stored picture converted, then turned: a turn maps 2x2 blocks onto 2x2 blocks.
        let unturned = try Self.planarPicture(stored, .bt709, width: width, height: height)
        let expected = [
            Self.turned(unturned.luma, width: width, height: height, orientation: orientation),
            Self.turned(unturned.cb, width: width / 2, height: height / 2, orientation: orientation),
            Self.turned(unturned.cr, width: width / 2, height: height / 2, orientation: orientation),
        ]
        for (plane, seen, turned) in [
            ("Y", upright.luma, expected[0]), ("Cb", upright.cb, expected[1]), ("Cr", upright.cr, expected[2]),
        ] {
            let mismatches = zip(seen, turned).filter { $0 != $1 }.count
            #expect(
                seen.count == turned.count && mismatches == 0,
                "orientation \(orientation) \(subsampling) \(plane): \(mismatches) samples differ from the turned picture"
            )
        }
        // And the RGB path turning its RGB frame, then converting, within rounding.
        Self.expectClose(
            upright, try Self.rgbPicture(stored, .bt709, orientation: orientation), bound: 2,
            "orientation \(orientation) \(subsampling)")
    }

    @Test func fullRangeBT601IsTheStoredPlanesExactly() throws {
        let (width, height) = (68, 36)
        let jpeg = try TestJPEG.encode(
            Self.pixels(.grain, width: width, height: height), width: width, height: height, kind: .rgb420)
        let planes = try Self.planes(jpeg, width: width, height: height)
        let picture = try Self.planarPicture(jpeg, ColourMatrix(.bt601, .full), width: width, height: height)
        #expect(picture.luma == planes.luma)
        #expect(picture.cb == planes.cb)
        #expect(picture.cr == planes.cr)
        #expect(Set(planes.cb).count > 16, "the chroma planes are varied enough for a copy to mean something")
    }

    @Test func limitedRangeBT601ScalesEachPlaneByItself() throws {
        let (width, height) = (64, 48)
        let jpeg = try TestJPEG.encode(
            Self.pixels(.grain, width: width, height: height), width: width, height: height, kind: .rgb420)
        let planes = try Self.planes(jpeg, width: width, height: height)
        let picture = try Self.planarPicture(jpeg, .bt601, width: width, height: height)
        // Each output is its own input scaled into the limited range (within the rounding to a code),
        // whatever the other planes hold at that place.
        func within(_ output: [UInt8], _ input: [UInt8], _ scale: (Double) -> Double) -> Bool {
            zip(output, input).allSatisfy { abs(Double($0) - scale(Double($1))) <= 0.5 + 1e-3 }
        }
        #expect(within(picture.luma, planes.luma) { 16 + $0 * 219 / 255 })
        #expect(within(picture.cb, planes.cb) { 128 + ($0 - 128) * 224 / 255 })
        #expect(within(picture.cr, planes.cr) { 128 + ($0 - 128) * 224 / 255 })
    }

    @Test func onlyJPEGsOfTheMovieSizeComeAsPlanes() throws {
        let jpeg = try TestJPEG.encode(
            Self.pixels(.gradient, width: 64, height: 48), width: 64, height: 48, kind: .rgb420)
        let scaled = try ImageDecoder.decodeImage(
            jpeg, limits: ImageLimits(), planes: .size(FrameSize(width: 32, height: 24)))
        let sideways = try ImageDecoder.decodeImage(
            TestJPEG.withOrientation(jpeg, 6), limits: ImageLimits(), planes: .size(FrameSize(width: 64, height: 48)))
        let grey = try ImageDecoder.decodeImage(
            try TestJPEG.encode([UInt8](repeating: 90, count: 64 * 48), width: 64, height: 48, kind: .gray),
            limits: ImageLimits(), planes: .size(FrameSize(width: 64, height: 48)))
        for (what, image) in [("scaled", scaled), ("turned to another size", sideways), ("grey", grey)] {
            guard case .frame = image else {
                Issue.record("a JPEG \(what) was decoded to planes")
                continue
            }
        }
    }
}
