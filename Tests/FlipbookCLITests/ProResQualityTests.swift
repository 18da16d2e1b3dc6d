import FlipbookTestSupport
import Foundation
import Testing

/// Every ProRes profile keeps the pictures at least as well as ffmpeg's own prores_ks at the same size,
/// on two kinds of material (ffmpeg-written PNGs of its test pattern, and Flipbook's sample PNGs), with and
/// without alpha.
///
/// Both movies are converted with the same matrix (BT.709, limited range, as Flipbook tags them); the
/// reference for both is the sources converted to the movie's own format by libzimg (ffmpeg's `zscale`,
/// which computes in floating point): a judge that is neither Flipbook's converter nor ffmpeg's swscale,
/// whose fixed-point conversion has its own rounding (a Cr bias of about +0.2 of a 10-bit level) that its
/// own decoder then favours. Alpha is judged at the sources' 8 bits.
@Suite struct ProResQualityTests {
    /// `--profile`, prores_ks's number, the pixel format both movies have, whether the sources have alpha.
    static let cases: [(profile: String, number: Int, pixelFormat: String, alpha: Bool)] = [
        ("proxy", 0, "yuv422p10le", false), ("lt", 1, "yuv422p10le", false),
        ("standard", 2, "yuv422p10le", false), ("hq", 3, "yuv422p10le", false),
        ("4444", 4, "yuv444p10le", false), ("4444xq", 5, "yuv444p10le", false),
        ("4444", 4, "yuva444p10le", true), ("4444xq", 5, "yuva444p10le", true),
    ]

    /// Writes the two kinds of material: ffmpeg's testsrc2 and Flipbook's sample images, 12 frames each.
    static func material(in dir: TemporaryDirectory, alpha: Bool) throws -> [(folder: String, pattern: String)] {
        let testsrc = try dir.folder("testsrc2")
        let format = alpha ? "rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='128+127*sin(X/9)*cos(Y/7)'" : "rgb24"
        let made = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30,format=\(format)", "-frames:v", "12",
                "\(testsrc)/frame%03d.png",
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let samples = try dir.folder("samples")
        if alpha {
            _ = try ProResTests.softDiscs(count: 12, width: 320, height: 180, into: samples)
            return [(testsrc, "\(testsrc)/frame%03d.png"), (samples, "\(samples)/disc%02d.png")]
        }
        try SampleImages.write(count: 12, width: 320, height: 180, into: samples, padded: true)
        return [(testsrc, "\(testsrc)/frame%03d.png"), (samples, "\(samples)/frame%03d.png")]
    }

    /// The colour's PSNR in the movie's own 10-bit format without alpha (against zscale's conversion of the
    /// sources), and the alpha's at the sources' 8 bits (0 without alpha): 8-bit alpha stored at 16 bits and
    /// decoded at 12 is compared where it came from, not through a second rescaling to 10 bits.
    static func quality(of movie: String, against pattern: String, pixelFormat: String, alpha: Bool) throws
        -> (colour: Double, alpha: Double)
    {
        let format = pixelFormat.replacingOccurrences(of: "yuva", with: "yuv")
        let colour = try Judge.psnr(
            of: movie, againstImages: pattern, movieFilters: "format=\(format)",
            imageFilters: "zscale=m=709:r=limited:dither=none:filter=bilinear,format=\(format)")
        guard alpha else { return (colour, 0) }
        let alphaPSNR = try Judge.psnr(
            of: movie, againstImages: pattern, movieFilters: "format=yuva444p10le,alphaextract,format=gray",
            imageFilters: "format=rgba,alphaextract,format=gray")
        return (colour, alphaPSNR)
    }

    @Test(arguments: 0..<cases.count)
    func everyProfileIsAtLeastAsGoodAsProres_ksAtTheSameSize(index: Int) throws {
        let (profile, number, pixelFormat, alpha) = Self.cases[index]
        let dir = try TemporaryDirectory()
        for (folder, pattern) in try Self.material(in: dir, alpha: alpha) {
            let kind = URL(fileURLWithPath: folder).lastPathComponent
            let movie = dir.path("\(kind)-flipbook.mov")
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath,
                [folder, "-o", movie, "--codec", "prores", "--profile", profile, "--fps", "30", "-q"]
                    + (alpha ? ["--alpha"] : []))
            try #require(result.status == 0, "\(result.stderr)")
            // FFmpeg 5.1 decodes 4444 at 12 bits.
            #expect(try Judge.stream(of: movie).pixelFormat.hasPrefix(pixelFormat.dropLast(4)))
            let reference = dir.path("\(kind)-ffmpeg.mov")
            try ProResTests.reference(pattern, profile: number, pixelFormat: pixelFormat, to: reference)
            let ours = try ProResTests.mediaBytes(of: movie)
            let theirs = try ProResTests.mediaBytes(of: reference)
            #expect(abs(Double(ours) / Double(theirs) - 1) <= 0.02, "\(kind): \(ours) bytes against \(theirs)")
            let ourQuality = try Self.quality(of: movie, against: pattern, pixelFormat: pixelFormat, alpha: alpha)
            let theirQuality = try Self.quality(of: reference, against: pattern, pixelFormat: pixelFormat, alpha: alpha)
            let figures =
                "\(profile)\(alpha ? " alpha" : "") on \(kind): \(ourQuality) dB (colour, alpha) at \(ours) bytes, "
                + "prores_ks \(theirQuality) dB at \(theirs) bytes"
            print(figures)
            #expect(ourQuality.colour >= theirQuality.colour - 0.01, "\(figures)")
            #expect(ourQuality.alpha >= theirQuality.alpha - 0.01, "\(figures)")
        }
    }
}
