import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// JPEGs of another size that fill the movie's picture once fitted (cover, stretch, contain without
/// bands) are decoded to their Y'CbCr planes (at a smaller scale where that suffices) and fitted as
/// planes. The result must be the picture the RGB path makes (decode to RGB, fit, convert) within the
/// rounding of the two orders of work, follow crops that start between two chroma samples, and turn
/// by EXIF orientation like the RGB path.
@Suite struct JPEGFittedPlanesTests {
    typealias Content = JPEGPlanesTests.Content
    typealias Subsampling = JPEGPlanesTests.Subsampling

    /// Per-plane PSNR in dB of two equally sized planes.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        ScaledJPEGDecodingTests.psnr(a, b)
    }

    /// The JPEG as the movie's picture through its planes: decoded for `hint`, fitted, converted.
    static func planarPicture(_ jpeg: Data, _ hint: DecodeSizeHint) throws -> (YUVPicture, YCbCrPlanes) {
        let image = try ImageDecoder.decodeImage(jpeg, limits: ImageLimits(), sizeHint: hint, planes: .fitting(hint))
        guard case .planes(let planes) = image else {
            throw JudgeError(description: "a Y'CbCr JPEG filling the picture was decoded to RGB")
        }
        let converter = JPEGToYUVConverter(matrix: ColourMatrix(.bt709, .limited))
        guard planes.width != hint.width || planes.height != hint.height else {
            var picture = YUVPicture(width: planes.width, height: planes.height)
            converter.convert(planes, into: &picture)
            return (picture, planes)
        }
        return (planes.fitted(to: hint, converter: converter), planes)
    }

    /// The same JPEG through RGB: decoded for `hint` (the same scale), fitted in RGB, converted.
    static func rgbPicture(_ jpeg: Data, _ hint: DecodeSizeHint) throws -> YUVPicture {
        try fittedPicture(try ImageDecoder.decode(jpeg, limits: ImageLimits(), sizeHint: hint), hint)
    }

    /// `frame` fitted in RGB by the conformer and converted to BT.709 limited.
    static func fittedPicture(_ frame: Frame, _ hint: DecodeSizeHint) throws -> YUVPicture {
        let conformed = try FrameConformer(width: hint.width, height: hint.height, fit: hint.fit, background: .black)
            .conform(frame)
        var picture = YUVPicture(width: hint.width, height: hint.height)
        RGBToYUVConverter(matrix: ColourMatrix(.bt709, .limited)).convert(conformed, into: &picture)
        return picture
    }

    /// Every plane of the planar picture at least `decibels` from the RGB path's.
    static func expectClose(
        _ planar: YUVPicture, _ rgb: YUVPicture, decibels: Double, _ what: String
    ) {
        for (plane, a, b) in [("Y", planar.luma, rgb.luma), ("Cb", planar.cb, rgb.cb), ("Cr", planar.cr, rgb.cr)] {
            let value = psnr(a, b)
            #expect(value >= decibels, "\(what) \(plane): \(value) dB from the RGB path")
        }
    }

    @Test func aChromaWindowStartingBetweenSamplesWeighsBothHalves() {
        // Two outputs from positions 0.5..<2.5 of four: each the mean of the two samples it half covers.
        let taps = ResamplingTaps(from: 4, window: 0.5..<2.5, to: 2)
        #expect(taps.taps(0).first == 0 && Array(taps.taps(0).weights) == [8192, 8192])
        #expect(taps.taps(1).first == 1 && Array(taps.taps(1).weights) == [8192, 8192])
        // A whole-number window is the plain resampling of that range, moved.
        let whole = ResamplingTaps(from: 4, window: 0..<4, to: 3)
        let plain = ResamplingTaps(from: 4, to: 3)
        for position in 0..<3 {
            #expect(whole.taps(position).first == plain.taps(position).first)
            #expect(Array(whole.taps(position).weights) == Array(plain.taps(position).weights))
        }
        // Enlarging: the Catmull-Rom centre follows the window's start.
        let enlarged = ResamplingTaps(from: 8, window: 2..<4, to: 4)
        for position in 0..<4 {
            let (first, weights) = enlarged.taps(position)
            let centre = zip(first..., weights).reduce(0.0) { $0 + Double($1.0) * Double($1.1) } / 16384
            #expect(abs(centre - (2 + (Double(position) + 0.5) / 2 - 0.5)) < 0.01, "centre of \(position)")
        }
    }

    /// (JPEG width, height, movie width, height, fit): a half-size decode cropped by an odd number of
    /// columns; rows cropped; stretched; contained without bands; enlarged.
    static let placements: [(Int, Int, Int, Int, FitPolicy)] = [
        (640, 480, 240, 120, .cover), (480, 640, 160, 120, .cover), (400, 300, 200, 160, .stretch),
        (640, 480, 160, 120, .contain), (200, 150, 320, 240, .cover),
    ]

    /// The source pixels (before JPEG compression) fitted at full size and converted: the picture
    /// both paths approximate.
    static func referencePicture(_ pixels: [UInt8], width: Int, height: Int, _ hint: DecodeSizeHint) throws
        -> YUVPicture
    {
        try fittedPicture(try Frame(width: width, height: height, format: .rgb, pixels: pixels), hint)
    }

    /// Per plane, how close the planar and the RGB paths come to the source fitted at full size.
    static func closeness(
        _ content: Content, _ subsampling: Subsampling, _ placement: (Int, Int, Int, Int, FitPolicy)
    ) throws -> [(plane: String, viaPlanes: Double, viaRGB: Double)] {
        let (width, height, movieWidth, movieHeight, fit) = placement
        let pixels = JPEGPlanesTests.pixels(content, width: width, height: height)
        let jpeg = try TestJPEG.encode(pixels, width: width, height: height, kind: subsampling.kind, quality: 95)
        let hint = DecodeSizeHint(width: movieWidth, height: movieHeight, fit: fit)
        let (planar, planes) = try Self.planarPicture(jpeg, hint)
        let scale = hint.smallestScale(
            storedWidth: width, storedHeight: height, swapsSides: false, among: TurboJPEGDecoder.scales)
        #expect(planes.width == scale.scaled(width) && planes.height == scale.scaled(height))
        let rgb = try Self.rgbPicture(jpeg, hint)
        let reference = try Self.referencePicture(pixels, width: width, height: height, hint)
        return [
            ("Y", psnr(planar.luma, reference.luma), psnr(rgb.luma, reference.luma)),
            ("Cb", psnr(planar.cb, reference.cb), psnr(rgb.cb, reference.cb)),
            ("Cr", psnr(planar.cr, reference.cr), psnr(rgb.cr, reference.cr)),
        ]
    }

    /// Each plane through the planes at least as close to the source as through RGB, or close in
    /// absolute terms: chroma 42 dB (an RMS error under 2 codes), luma 47 dB. Where the two differ:
    /// scaled while decoding, the stored chroma planes come out at half the resolution of the chroma
    /// that libjpeg's scaled RGB decode makes from the same DCT blocks, so the finest chroma (noise of
    /// ±48 codes at every pixel, `grain`) is smoothed once more. Hard edges between saturated colours
    /// 4 or 8 pixels apart (`saturated`) lose some luma: BT.709 luma from BT.601 Y'CbCr takes a little
    /// of Cb and Cr at each pixel, interpolated from that coarser chroma; their luma is held to 35 dB.
    /// Photos have neither: their movies are within 0.15 dB of the RGB path's (see the README).
    @Test(arguments: Subsampling.allCases, Content.allCases)
    func fittedPlanesAreAsCloseToTheSourceAsTheRGBPath(subsampling: Subsampling, content: Content) throws {
        for placement in Self.placements {
            for (plane, viaPlanes, viaRGB) in try Self.closeness(content, subsampling, placement) {
                let floor = plane != "Y" ? 42 : content == .saturated ? 35 : 47.0
                #expect(
                    viaPlanes >= min(viaRGB - 0.5, floor),
                    "\(content) \(subsampling) \(placement) \(plane): \(viaPlanes) dB through planes, \(viaRGB) through RGB"
                )
            }
        }
    }

    @Test func aChromaPlaneOffByOneSampleWouldFail() throws {
        // The saturated tiles cropped by an odd number of columns: chroma must follow the crop to the
        // half sample. The same chroma resampled one sample to the side is far from the RGB path.
        let (width, height) = (640, 480)
        let jpeg = try TestJPEG.encode(
            JPEGPlanesTests.pixels(.saturated, width: width, height: height), width: width, height: height,
            kind: .rgb420, quality: 95)
        let hint = DecodeSizeHint(width: 240, height: 186, fit: .cover)
        let rgb = try Self.rgbPicture(jpeg, hint)
        let (fitted, planes) = try Self.planarPicture(jpeg, hint)
        let source = FitPlacement(
            sourceWidth: planes.width, sourceHeight: planes.height, width: 240, height: 186, fit: .cover
        ).source
        #expect(source.x % 2 == 1, "the test needs a crop between chroma samples: \(source)")
        var converted = YUVPicture(width: planes.width, height: planes.height)
        JPEGToYUVConverter(matrix: ColourMatrix(.bt709, .limited)).convert(planes, into: &converted)
        let chroma = (width: planes.width / 2, height: planes.height / 2)
        let shifted = PixelKernels.resample(
            converted.cb, region: PixelRect(x: 0, y: 0, width: chroma.width, height: chroma.height),
            bytesPerRow: chroma.width, layout: .gray,
            columns: ResamplingTaps(
                from: chroma.width,
                window: Double(source.x) / 2 + 1..<Double(source.x + source.width) / 2 + 1, to: 120),
            rows: ResamplingTaps(
                from: chroma.height, window: Double(source.y) / 2..<Double(source.y + source.height) / 2, to: 93))
        let right = Self.psnr(fitted.cb, rgb.cb)
        let off = Self.psnr(shifted, rgb.cb)
        #expect(right >= off + 6, "Cb \(right) dB as fitted, \(off) dB one chroma sample off")
    }

    @Test(arguments: [5, 6, 7, 8])
    func turnedPhotosFitAsTheRGBPathTurnsThem(orientation: UInt16) throws {
        // Stored 480x640 on its side; upright 640x480, covered into 240x120 (half-size decode).
        let stored = try TestJPEG.encode(
            JPEGPlanesTests.pixels(.gradient, width: 480, height: 640), width: 480, height: 640, kind: .rgb420,
            quality: 95)
        let jpeg = TestJPEG.withOrientation(stored, orientation)
        let hint = DecodeSizeHint(width: 240, height: 120, fit: .cover)
        let (planar, planes) = try Self.planarPicture(jpeg, hint)
        #expect(planes.width == 320 && planes.height == 240)
        Self.expectClose(planar, try Self.rgbPicture(jpeg, hint), decibels: 42, "orientation \(orientation)")
    }

    @Test func picturesWithBandsOrOddSidesAreDecodedToRGB() throws {
        let jpeg = try TestJPEG.encode(
            JPEGPlanesTests.pixels(.gradient, width: 640, height: 480), width: 640, height: 480, kind: .rgb420)
        // Contained into a wider picture: bands of background on both sides.
        let banded = DecodeSizeHint(width: 320, height: 120, fit: .contain)
        let image = try ImageDecoder.decodeImage(
            jpeg, limits: ImageLimits(), sizeHint: banded, planes: .fitting(banded))
        guard case .frame = image else {
            Issue.record("a JPEG placed on bands came as planes")
            return
        }
        // 634x474 at half size is 317x237: odd sides stay on the RGB path.
        let odd = try TestJPEG.encode(
            JPEGPlanesTests.pixels(.gradient, width: 634, height: 474), width: 634, height: 474, kind: .rgb420)
        let cover = DecodeSizeHint(width: 240, height: 120, fit: .cover)
        guard
            case .frame = try ImageDecoder.decodeImage(
                odd, limits: ImageLimits(), sizeHint: cover, planes: .fitting(cover))
        else {
            Issue.record("a JPEG with odd sides at its decoding scale came as planes")
            return
        }
    }
}
