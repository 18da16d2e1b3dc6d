import FlipbookTestSupport
import Foundation
import Testing

/// `--rotate`: the video track's display matrix as phones write it, judged by ffprobe (the display
/// matrix side data and its rotation), ffmpeg (which turns the pictures when it decodes, as players
/// do), MediaInfo and ExifTool; the encoded pictures are the same as without it.
@Suite struct RotationTests {
    /// The rotation ffprobe reports in the video stream's display matrix side data; `nil` without one.
    static func sideDataRotation(of movie: String) throws -> Int? {
        let result = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data", "-of", "json", movie])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let stream = (object?["streams"] as? [[String: Any]])?.first
        let sideData = stream?["side_data_list"] as? [[String: Any]] ?? []
        return sideData.first { ($0["side_data_type"] as? String)?.hasPrefix("Display") == true }?["rotation"] as? Int
    }

    /// The size of the first picture ffmpeg decodes, turned as its display matrix says (ffmpeg's autorotate).
    static func shownSize(of movie: String) throws -> String {
        let result = try ExternalTool.run(
            "ffmpeg", ["-v", "info", "-i", movie, "-frames:v", "1", "-vf", "showinfo", "-f", "null", "-"])
        let line = try #require(
            result.stderr.split(separator: "\n").first { $0.contains("Parsed_showinfo") && $0.contains(" s:") })
        let field = try #require(line.split(separator: " ").first { $0.hasPrefix("s:") })
        return String(field.dropFirst(2))
    }

    /// Every packet's size and MD5, as ffmpeg copies the stream out of the container.
    static func packetHashes(of movie: String) throws -> [Substring] {
        let result = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-i", movie, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }
    }

    /// ffprobe's display-matrix rotation is counterclockwise: a phone's upright video (a quarter turn
    /// clockwise when shown) reads -90.
    @Test(arguments: [("mp4", 90, -90), ("mov", 90, -90), ("mp4", 180, 180), ("mp4", 270, 90), ("mov", 270, 90)])
    func rotateWritesTheDisplayMatrixAndKeepsThePictures(container: String, degrees: Int, probed: Int) throws {
        let dir = try TemporaryDirectory()
        let upright = try MetadataTests.makeMovie(in: dir, "upright.\(container)", ["--threads", "1"])
        let turned = try MetadataTests.makeMovie(
            in: dir, "turned.\(container)", ["--threads", "1", "--rotate", "\(degrees)"])

        #expect(try Self.sideDataRotation(of: upright) == nil)
        let rotation = try #require(try Self.sideDataRotation(of: turned))
        #expect(rotation == probed || (abs(probed) == 180 && abs(rotation) == 180), "ffprobe rotation \(rotation)")
        let stream = try Judge.stream(of: turned)
        #expect(stream.width == 64 && stream.height == 48, "the track keeps the pictures' size")
        #expect(try Self.shownSize(of: upright) == "64x48")
        #expect(try Self.shownSize(of: turned) == (degrees == 180 ? "64x48" : "48x64"))
        #expect(try Self.packetHashes(of: turned) == Self.packetHashes(of: upright), "the same encoded pictures")

        let exif = try MetadataTests.exifTool(turned)
        #expect(exif["Composite:Rotation"] == "\(degrees)", "\(exif)")
        let mediaInfo = try ExternalTool.run("mediainfo", ["--Inform=Video;%Rotation%", turned]).stdout
        #expect(Double(mediaInfo.trimmingCharacters(in: .whitespacesAndNewlines)) == Double(degrees), "\(mediaInfo)")
    }

    @Test func fragmentedAndJoinedMoviesKeepTheRotation() throws {
        let dir = try TemporaryDirectory()
        let fragmented = try MetadataTests.makeMovie(in: dir, "fragmented.mp4", ["--fragmented", "--rotate", "90"])
        #expect(try Self.sideDataRotation(of: fragmented) == -90)
        let parts = try (1...2).map {
            try MetadataTests.makeMovie(in: dir, "part-\($0).mp4", ["--segment", "\($0)/2", "--rotate", "270"])
        }
        let joined = dir.path("joined.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + parts + ["-o", joined, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.sideDataRotation(of: joined) == 90)
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(summary?["rotation"] as? Int == 270)

        // A segment turned otherwise does not join.
        let other = try MetadataTests.makeMovie(in: dir, "other-2.mp4", ["--segment", "2/2"])
        let refused = try ExternalTool.run(
            ExternalTool.flipbookPath, ["join", parts[0], other, "-o", dir.path("no.mp4")])
        #expect(refused.status != 0 && refused.stderr.contains("rotate=270"), "\(refused.stderr)")
    }

    @Test func probeAndJSONReportTheRotation() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 64, height: 48, into: frames)
        let movie = dir.path("turned.mp4")
        let made = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--json", "--rotate", "90"])
        let summary = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any]
        #expect(summary?["rotation"] as? Int == 90 && summary?["width"] as? Int == 64)
        let probed = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie, "--json"])
        let info = try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any]
        #expect(info?["rotation"] as? Int == 90)
        #expect(try Self.sideDataRotation(of: movie) == -90, "ffprobe agrees: a quarter turn clockwise")
        let text = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie]).stdout
        #expect(text.contains("rotation    90° clockwise"), "\(text)")
    }

    @Test(arguments: ["45", "-90", "360", "ninety"])
    func anotherAngleIsOneLineExitTwoAndNothingWritten(degrees: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 32, height: 32, into: frames)
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", dir.path("bad.mp4"), "--rotate", degrees])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "flipbook: --rotate \(degrees) is not a rotation; use 0, 90, 180 or 270 (degrees clockwise).\n")
        #expect(dir.entries() == ["frames"])
    }
}
