import FlipbookTestSupport
import Foundation
import Testing

/// HDR movies (`--colour pq`, `--colour hlg`) judged from outside: ffprobe reads the tags from the
/// container and from every frame's bitstream; the pixels of lossless FFV1 movies are compared with
/// zimg (ffmpeg's `zscale`) making the same conversion from the same sources, in 10-bit levels of the
/// coded R, G and B.
@Suite struct HDROutputTests {
    /// A sRGB PNG as Pillow writes it: testsrc2's colours, greys from black to white.
    static func picture(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("picture.png")
        let made = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=1", "-frames:v", "1", path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    /// The coded R, G, B of a movie's first frame as floats (0...1), decoded by zimg from its Y'CbCr.
    static func codedRGB(of movie: String) throws -> [Float] {
        try floats(
            "ffmpeg",
            [
                "-v", "error", "-i", movie, "-frames:v", "1", "-vf",
                "zscale=min=2020_ncl:rin=limited:m=gbr:r=full,format=gbrpf32le", "-f", "rawvideo", "-",
            ])
    }

    /// zimg's conversion of `source` (sRGB, or linear BT.709 for an EXR) to BT.2020 with `transfer`, white
    /// at `nits`, as coded R, G, B floats.
    static func zimgRGB(of source: String, transfer: String, nits: Int, linear: Bool = false) throws -> [Float] {
        let input = linear ? "format=gbrpf32le,zscale=tin=linear" : "zscale=tin=iec61966-2-1"
        return try floats(
            "ffmpeg",
            [
                "-v", "error", "-i", source, "-vf",
                "\(input):min=gbr:pin=709:rin=full:t=\(transfer):p=2020:npl=\(nits):m=gbr:r=full,format=gbrpf32le",
                "-f", "rawvideo", "-",
            ])
    }

    static func floats(_ tool: String, _ arguments: [String]) throws -> [Float] {
        let data = try ExternalTool.runForData(tool, arguments)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// Largest and mean difference in 10-bit levels.
    static func levels(_ a: [Float], _ b: [Float]) -> (largest: Double, mean: Double) {
        let differences = zip(a, b).map { Double(abs($0 - $1)) * 1023 }
        return (differences.max() ?? .infinity, differences.reduce(0, +) / Double(max(differences.count, 1)))
    }

    static func movie(
        _ source: String, in dir: TemporaryDirectory, _ name: String, _ options: [String]
    ) throws -> String {
        let movie = dir.path(name)
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [source, "-o", movie, "-q"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        return movie
    }

    /// An sRGB picture in a PQ or HLG movie is what zimg makes of it with white at 203 nits (BT.2408's
    /// reference white): within 4 levels of 10 at every sample (the colour conversion to BT.2020 is made
    /// at 8 bits first) and under one level on average; white itself is 58% of PQ and 75% of HLG.
    @Test(arguments: [("pq", "smpte2084", 0.5807), ("hlg", "arib-std-b67", 0.75)])
    func anSRGBPictureIsWhatZimgMakesOfIt(colour: String, transfer: String, white: Double) throws {
        let dir = try TemporaryDirectory()
        let source = try Self.picture(in: dir)
        let movie = try Self.movie(source, in: dir, "\(colour).mkv", ["--codec", "ffv1", "--colour", colour])
        let info = try Judge.stream(of: movie)
        #expect(info.pixelFormat == "yuv444p10le" && info.colorTransfer == transfer, "\(info)")
        #expect(info.colorPrimaries == "bt2020" && info.colorSpace == "bt2020nc", "\(info)")
        let ours = try Self.codedRGB(of: movie)
        let theirs = try Self.zimgRGB(of: source, transfer: transfer, nits: 203)
        #expect(ours.count == 160 * 90 * 3 && theirs.count == ours.count)
        let difference = Self.levels(ours, theirs)
        #expect(difference.largest <= 6 && difference.mean <= 1, "\(colour): \(difference)")
        #expect(abs(Double(ours.max() ?? 0) - white) < 0.004, "white is \(ours.max() ?? 0)")
    }

    /// A render's light above white is kept: an OpenEXR with highlights to 40 times white, in a PQ movie,
    /// is what zimg makes of ffmpeg's linear decode of it, within two levels; `--peak 100` shows white
    /// at 100 nits instead.
    @Test(.enabled(if: OpenEXRFiles.python != nil, "OpenEXR's Python binding is missing: run make test"))
    func aRenderKeepsItsLightAboveWhite() throws {
        let dir = try TemporaryDirectory()
        let render = dir.path("render.exr")
        try OpenEXRFiles.write(render, compression: "zip", storage: "scanline", width: 96, height: 64)
        for nits in [203, 100] {
            let options = ["--codec", "ffv1", "--colour", "pq"] + (nits == 203 ? [] : ["--peak", String(nits)])
            let movie = try Self.movie(render, in: dir, "render-\(nits).mkv", options)
            let ours = try Self.codedRGB(of: movie)
            let theirs = try Self.zimgRGB(of: render, transfer: "smpte2084", nits: nits, linear: true)
            #expect(ours.count == 96 * 64 * 3 && theirs.count == ours.count)
            let difference = Self.levels(ours, theirs)
            #expect(difference.largest <= 2 && difference.mean <= 0.6, "\(nits) nits: \(difference)")
            #expect((ours.max() ?? 0) > 0.85, "highlights above 1,000 nits are kept: \(ours.max() ?? 0)")
        }
    }

    /// Every codec that holds 10 bits says PQ or HLG in its bitstream (every frame, as ffprobe reads
    /// it) and in its container, in each container it goes in.
    @Test(arguments: [
        ("hevc", "mp4"), ("hevc", "mkv"), ("av1", "mp4"), ("av1", "webm"), ("vp9", "webm"), ("vp9", "mp4"),
        ("prores", "mov"), ("h264", "mp4"), ("ffv1", "mkv"),
    ])
    func everyTenBitCodecIsTaggedInItsStreamAndContainer(codec: String, container: String) throws {
        let dir = try TemporaryDirectory()
        let source = try Self.picture(in: dir)
        for (colour, transfer) in [("pq", "smpte2084"), ("hlg", "arib-std-b67")] {
            let movie = try Self.movie(
                source, in: dir, "\(codec)-\(colour).\(container)", ["--codec", codec, "--colour", colour])
            let info = try Judge.stream(of: movie)
            #expect(
                info.colorTransfer == transfer && info.colorPrimaries == "bt2020" && info.colorSpace == "bt2020nc",
                "\(codec) in .\(container): \(info)")
            #expect(info.pixelFormat.contains("10"), "\(info.pixelFormat)")
            let frames = try ExternalTool.run(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=color_transfer,color_primaries",
                    "-of", "csv=p=0", movie,
                ])
            #expect(frames.stdout.contains("\(transfer)"), "\(codec) frames: \(frames.stdout)")
        }
    }

    /// An HDR movie at 8 bits is a usage error naming the codecs that have 10, and nothing is written.
    @Test func anHDRMovieAtEightBitsIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let source = try Self.picture(in: dir)
        for options in [
            ["--colour", "pq", "--bit-depth", "8"], ["--colour", "hlg", "--codec", "gif"],
            ["--colour", "pq", "--peak", "20000"],
        ] {
            let movie = dir.path("out.\(options.contains("gif") ? "gif" : "mp4")")
            let result = try ExternalTool.run(ExternalTool.flipbookPath, [source, "-o", movie] + options)
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(
                result.stderr.contains("10 bits") || result.stderr.contains("--peak 20000"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }
}
