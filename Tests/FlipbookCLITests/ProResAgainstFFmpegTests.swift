import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

/// Each ProRes profile against ffmpeg's own prores_ks on the same frames: the same profile, depth, tag and
/// size within 2%, and HQ as close to the sources. A long suite (`Tests/long-suites.txt`); the rest of
/// ProRes is in ``ProResTests``.
@Suite struct ProResAgainstFFmpegTests {
    @Test(arguments: ProResTests.profiles.map(\.name))
    func eachProfileIsWhatFFmpegWritesForIt(profile: String) throws {
        let expected = ProResTests.profiles.first { $0.name == profile }!
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 12, width: 640, height: 360, into: frames, padded: true)
        let movie = dir.path("out.mov")
        let result = try ProResTests.run([
            frames, "-o", movie, "--codec", "prores", "--profile", profile, "--json", "-q",
        ])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(summary["codec"] as? String == "prores")

        let reference = dir.path("ffmpeg.mov")
        let fourFour = expected.number >= 4
        try ProResTests.reference(
            "\(frames)/frame%03d.png", profile: expected.number,
            pixelFormat: fourFour ? "yuv444p10le" : "yuv422p10le", to: reference)
        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == "prores")
        #expect(stream.profile == expected.probed)
        #expect(stream.profile == (try Judge.stream(of: reference)).profile, "the profile ffmpeg's prores_ks writes")
        #expect(stream.pixelFormat == (try Judge.stream(of: reference)).pixelFormat)
        #expect(stream.pixelFormat.hasPrefix(fourFour ? "yuv444p1" : "yuv422p10"), "\(stream.pixelFormat)")
        #expect(try ProResTests.probe(movie, "stream=codec_tag_string") == expected.tag)
        #expect(
            try ProResTests.probe(movie, "stream=bits_per_raw_sample")
                == (try ProResTests.probe(reference, "stream=bits_per_raw_sample")))
        #expect(
            try ProResTests.probe(movie, "stream=bits_per_raw_sample") == (fourFour ? "12" : "10"),
            "FFmpeg 5.1 decodes 4444 at 12 bits")
        #expect(
            [stream.colorSpace, stream.colorPrimaries, stream.colorTransfer, stream.colorRange]
                == ["bt709", "bt709", "bt709", "tv"])
        #expect(stream.frameCount == 12)
        let packets = try Judge.packets(of: movie)
        #expect(packets.count == 12 && packets.allSatisfy(\.isKeyframe), "every ProRes frame is a keyframe")
        #expect(packets.allSatisfy { $0.pts == $0.dts }, "no reordering")
        let decoded = try Judge.frames(of: movie)
        #expect(decoded.map(\.pts) == (0..<12).map { Int64($0) * 400 })
        #expect(decoded.allSatisfy { $0.duration == 400 })
        #expect(try Judge.decodeErrors(of: movie) == "")

        let info = try ExternalTool.run(
            "mediainfo", ["--Inform=Video;%Format%|%Format_Profile%|%CodecID%|%ScanType%|%ChromaSubsampling%", movie])
        #expect(
            info.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "ProRes|\(expected.mediaInfo)|\(expected.tag)|Progressive|\(fourFour ? "4:4:4" : "4:2:2")")

        // The same pictures give the same frame sizes as ffmpeg's, within 2% (the files' headers differ:
        // Flipbook pads its header to the file system's blocks).
        let ours = try ProResTests.mediaBytes(of: movie)
        let theirs = try ProResTests.mediaBytes(of: reference)
        #expect(abs(Double(ours) / Double(theirs) - 1) <= 0.02, "\(ours) bytes of frames against ffmpeg's \(theirs)")
    }

    /// HQ from PNGs: as close to the sources as ffmpeg's own prores_ks on the same frames, judged as 4:2:2
    /// 10-bit (the movie's own format) against the sources converted by ffmpeg.
    @Test func hqKeepsThePicturesAsWellAsFFmpegDoes() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 10, width: 640, height: 360, into: frames, padded: true)
        let movie = dir.path("hq.mov")
        let result = try ProResTests.run([frames, "-o", movie, "--codec", "prores", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = dir.path("ffmpeg.mov")
        try ProResTests.reference("\(frames)/frame%03d.png", profile: 3, pixelFormat: "yuv422p10le", to: reference)
        let ours = try Judge.psnr(of: movie, againstImages: "\(frames)/frame%03d.png")
        let theirs = try Judge.psnr(of: reference, againstImages: "\(frames)/frame%03d.png")
        #expect(ours >= 45, "PSNR \(ours) dB")
        #expect(ours >= theirs - 0.1, "PSNR \(ours) dB against ffmpeg's \(theirs) dB")
    }
}
