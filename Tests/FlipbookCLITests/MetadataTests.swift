import FlipbookTestSupport
import Foundation
import Testing

/// `--title`, `--artist`, `--comment`, `--creation-time`, `--location` and `--metadata`, each read
/// back by readers that are not Flipbook's own: ffprobe (format and stream tags), MediaInfo (its
/// General track) and ExifTool (every group: the MP4's ItemList and UserData, the MOV's UserData and
/// Keys, the header boxes' dates).
@Suite struct MetadataTests {
    static let described = [
        "--title", "Harbour at dusk — été", "--artist", "A. Painter", "--comment", "Shot from the pier",
        "--creation-time", "2024-05-01T14:00:00+02:00", "--location", "+48.8584+002.2945+035/",
    ]

    /// Runs the tool on ten 64x48 test images and returns the movie's path.
    static func makeMovie(in dir: TemporaryDirectory, _ name: String, _ options: [String]) throws -> String {
        let frames = dir.path("frames")
        if !FileManager.default.fileExists(atPath: frames) {
            try SampleImages.write(count: 10, width: 64, height: 48, into: try dir.folder("frames"))
        }
        let movie = dir.path(name)
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "-q", "--preset", "ultrafast"] + options)
        guard result.status == 0 else { throw JudgeError(description: "flipbook failed: \(result.stderr)") }
        return movie
    }

    /// ffprobe's format tags, or the first stream's with `stream`.
    static func ffprobeTags(of movie: String, stream: Bool = false) throws -> [String: String] {
        let entries = stream ? "stream_tags" : "format_tags"
        let selection = stream ? ["-select_streams", "v:0"] : []
        let result = try ExternalTool.run(
            "ffprobe", ["-v", "error"] + selection + ["-show_entries", entries, "-of", "json", movie])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let holder = stream ? (object?["streams"] as? [[String: Any]])?.first : object?["format"] as? [String: Any]
        return holder?["tags"] as? [String: String] ?? [:]
    }

    /// ExifTool's tags as `Group:Name`, values as numbers where it has them (`-n`).
    static func exifTool(_ movie: String) throws -> [String: String] {
        let result = try ExternalTool.run("exiftool", ["-j", "-G1", "-n", movie])
        let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        return (list?.first ?? [:]).mapValues { "\($0)" }
    }

    /// MediaInfo's General track, its `extra` fields merged in.
    static func mediaInfoGeneral(_ movie: String) throws -> [String: String] {
        let result = try ExternalTool.run("mediainfo", ["--Output=JSON", movie])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let tracks = (object?["media"] as? [String: Any])?["track"] as? [[String: Any]] ?? []
        var general = tracks.first { $0["@type"] as? String == "General" } ?? [:]
        if let extra = general.removeValue(forKey: "extra") as? [String: Any] { general.merge(extra) { old, _ in old } }
        return general.compactMapValues { $0 as? String }
    }

    @Test(arguments: ["mp4", "mov"])
    func eachItemReadsBackInFFprobeMediaInfoAndExifTool(container: String) throws {
        let dir = try TemporaryDirectory()
        let movie = try Self.makeMovie(in: dir, "described.\(container)", Self.described)

        let tags = try Self.ffprobeTags(of: movie)
        #expect(tags["title"] == "Harbour at dusk — été", "\(tags)")
        #expect(tags["artist"] == "A. Painter")
        #expect(tags["comment"] == "Shot from the pier")
        #expect(tags["date"] == "2024-05-01T12:00:00Z")
        #expect(tags["location"] == "+48.8584+002.2945+035.000/")
        #expect(tags["creation_time"] == "2024-05-01T12:00:00.000000Z")
        #expect(try Self.ffprobeTags(of: movie, stream: true)["creation_time"] == "2024-05-01T12:00:00.000000Z")

        let general = try Self.mediaInfoGeneral(movie)
        #expect(general["Title"] == "Harbour at dusk — été", "\(general)")
        #expect(general["Performer"] == "A. Painter")
        #expect(general["Comment"] == "Shot from the pier")
        #expect(general["Recorded_Date"] == "2024-05-01 12:00:00 UTC")
        #expect(general["Encoded_Date"] == "2024-05-01 12:00:00 UTC")
        #expect(general["xyz"] == "+48.8584+002.2945+035.000/")

        let exif = try Self.exifTool(movie)
        let group = container == "mp4" ? "ItemList" : "UserData"
        #expect(exif["\(group):Title"] == "Harbour at dusk — été", "\(exif)")
        #expect(exif["\(group):Artist"] == "A. Painter")
        #expect(exif["\(group):Comment"] == "Shot from the pier")
        #expect(exif["\(group):ContentCreateDate"] == "2024:05:01 12:00:00Z")
        #expect(exif["UserData:GPSCoordinates"] == "48.8584 2.2945 35")
        for date in ["QuickTime:CreateDate", "Track1:TrackCreateDate", "Track1:MediaCreateDate"] {
            #expect(exif[date] == "2024:05:01 12:00:00", "\(date)")
        }
        if container == "mov" {
            // Apple's keys, as QuickTime Player and Photos read them.
            #expect(exif["Keys:Title"] == "Harbour at dusk — été")
            #expect(exif["Keys:Artist"] == "A. Painter")
            #expect(exif["Keys:Comment"] == "Shot from the pier")
            #expect(exif["Keys:CreationDate"] == "2024:05:01 12:00:00Z")
            #expect(exif["Keys:GPSCoordinates"] == "48.8584 2.2945 35")
        }
    }

    /// ffmpeg's names with atoms of their own, and a name of the user's own (a freeform item in an
    /// MP4, an `mdta` key in a MOV).
    @Test(arguments: ["mp4", "mov"])
    func otherTagsHaveTheirOwnAtomsOrTheirOwnNames(container: String) throws {
        let dir = try TemporaryDirectory()
        let values = [
            "album": "Timelapses", "genre": "Documentary", "copyright": "© 2024 A. Painter",
            "description": "The harbour", "composer": "B. Writer", "shot_by": "Camera 2",
        ]
        let options = values.sorted { $0.key < $1.key }.flatMap { ["--metadata", "\($0.key)=\($0.value)"] }
        let movie = try Self.makeMovie(in: dir, "tagged.\(container)", options)
        let tags = try Self.ffprobeTags(of: movie)
        let exif = try Self.exifTool(movie)
        let general = try Self.mediaInfoGeneral(movie)
        for (name, value) in values {
            // ffprobe reads a MOV's description only as Apple's key.
            let probed = container == "mov" && name == "description" ? "com.apple.quicktime.description" : name
            #expect(tags[probed] == value, "ffprobe \(name): \(tags)")
            let groups = container == "mp4" ? ["ItemList", "iTunes"] : ["Keys"]
            #expect(
                exif.contains { key, read in groups.contains { key.hasPrefix($0 + ":") } && read == value },
                "ExifTool \(name): \(exif)")
            #expect(general.values.contains(value), "MediaInfo \(name): \(general)")
        }
        #expect(exif[container == "mp4" ? "ItemList:Album" : "Keys:Album"] == "Timelapses")
        #expect(general["Album"] == "Timelapses" && general["Genre"] == "Documentary")
    }

    @Test func withoutTheOptionsTheTimesStayZeroAndTheBytesTheSame() throws {
        let dir = try TemporaryDirectory()
        let first = try Self.makeMovie(in: dir, "a.mp4", ["--threads", "1"])
        let second = try Self.makeMovie(in: dir, "b.mp4", ["--threads", "1"])
        #expect(FileManager.default.contents(atPath: first) == FileManager.default.contents(atPath: second))
        let tags = try Self.ffprobeTags(of: first)
        #expect(tags["creation_time"] == nil && tags["title"] == nil, "\(tags)")
        #expect(try Self.exifTool(first)["QuickTime:CreateDate"] == "0000:00:00 00:00:00")

        let now = try Self.makeMovie(in: dir, "now.mp4", ["--creation-time", "now"])
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let created = try #require(try Self.ffprobeTags(of: now)["creation_time"].flatMap(formatter.date(from:)))
        #expect(abs(created.timeIntervalSinceNow) < 60, "\(created)")
    }

    @Test(arguments: [["--fragmented", "--fragment-duration", "0.1"], ["--follow", "--follow-timeout", "0.5"]])
    func fragmentedAndFollowedMoviesCarryTheMetadata(options: [String]) throws {
        let dir = try TemporaryDirectory()
        let movie = try Self.makeMovie(in: dir, "fragmented.mp4", options + Self.described)
        let tags = try Self.ffprobeTags(of: movie)
        #expect(tags["title"] == "Harbour at dusk — été", "\(tags)")
        #expect(tags["location"] == "+48.8584+002.2945+035.000/")
        #expect(tags["creation_time"] == "2024-05-01T12:00:00.000000Z")
        #expect(try Self.exifTool(movie)["ItemList:Artist"] == "A. Painter")
        #expect(try Judge.stream(of: movie).frameCount == 10)
    }

    @Test func aJoinKeepsTheFirstSegmentsMetadata() throws {
        let dir = try TemporaryDirectory()
        let first = try Self.makeMovie(in: dir, "part-1.mp4", ["--segment", "1/2"] + Self.described)
        let second = try Self.makeMovie(in: dir, "part-2.mp4", ["--segment", "2/2", "--title", "Other"])
        let joined = dir.path("joined.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["join", second, first, "-o", joined, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try Self.ffprobeTags(of: joined)
        #expect(tags["title"] == "Harbour at dusk — été", "\(tags)")
        #expect(tags["comment"] == "Shot from the pier")
        #expect(tags["creation_time"] == "2024-05-01T12:00:00.000000Z")
        #expect(try Self.exifTool(joined)["UserData:GPSCoordinates"] == "48.8584 2.2945 35")
        #expect(try Judge.stream(of: joined).frameCount == 10)
    }

    /// `probe` and `--json` say what the judges read.
    @Test func probeAndJSONReportTheMetadata() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 64, height: 48, into: frames)
        let movie = dir.path("m.mov")
        let made = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--json", "--metadata", "album=Al"] + Self.described)
        #expect(made.status == 0, "\(made.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let probed = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie, "--json"])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any])
        let tags = try Self.ffprobeTags(of: movie)
        for reported in [summary["metadata"], info["metadata"]] {
            let metadata = try #require(reported as? [String: String])
            for name in ["title", "artist", "comment", "date", "location", "album"] {
                #expect(metadata[name] == tags[name], "\(name): \(metadata) vs \(tags)")
            }
            #expect(metadata["creation_time"] == "2024-05-01T12:00:00Z")
        }
        let text = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", movie]).stdout
        #expect(text.contains("title:") && text.contains("Harbour at dusk — été"), "\(text)")
    }

    @Test(arguments: [
        ["--creation-time", "2024-13-45T00:00:00Z"], ["--creation-time", "2024-02-30"],
        ["--creation-time", "yesterday"],
        ["--creation-time", "2024-05-01T12:00:00"], ["--creation-time", "1800-01-01"],
        ["--location", "48.8584,2.2945"], ["--location", "+95.0000+002.0000/"], ["--location", "+48.8584+2.2945/"],
        ["--metadata", "album"], ["--metadata", "title=Twice"], ["--metadata", "=x"],
    ])
    func aBadValueIsOneLineExitTwoAndNothingWritten(options: [String]) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 2, width: 32, height: 32, into: frames)
        let movie = dir.path("bad.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie] + options)
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("flipbook: \(options[0])"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
        #expect(dir.entries() == ["frames"])
    }
}
