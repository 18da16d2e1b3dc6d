import FlipbookTestSupport
import Foundation
import Testing

/// Movies of days, made in moments from a few tiny images that last hours each: every frame at its
/// exact time in every container, and past 2^32 ticks the 64-bit (version 1) `mvhd`, `tkhd`,
/// `mdhd`, `elst` and `tfdt` that hold the times, progressive (the index inserted in front of the
/// media, or the media copied behind it) and fragmented. ffprobe judges the times, MediaInfo the boxes.
@Suite struct LongDurationTests {
    /// How a movie is written: its name, the tool's options, and whether the file system can insert
    /// the index in front of the media (without, the fault library refuses `fallocate`'s insert-range).
    struct Way: CustomTestStringConvertible, Sendable {
        var name: String
        var options: [String] = []
        var insertRange = true

        var testDescription: String {
            ([name] + options + (insertRange ? [] : ["(no insert-range)"])).joined(separator: " ")
        }
        var isMatroska: Bool { name.hasSuffix(".mkv") || name.hasSuffix(".webm") }
        var isFragmented: Bool { options.contains("--fragmented") }
    }

    /// Writes `images` tiny pictures into `folder`, named by `numbers` (`f0000001.png` …) when given.
    static func images(in dir: TemporaryDirectory, count: Int, numbers: [Int]? = nil) throws -> String {
        let folder = try dir.folder("frames")
        let made = try SampleImages.write(count: count, width: 16, height: 16, into: try dir.folder("made"))
        for (index, image) in made.enumerated() {
            let name = String(format: "f%07d.png", numbers?[index] ?? index + 1)
            try FileManager.default.copyItem(atPath: image, toPath: "\(folder)/\(name)")
        }
        return folder
    }

    /// Makes `way`'s movie from `inputs` with `options`; returns its path.
    static func make(_ inputs: [String], _ options: [String], way: Way, in dir: TemporaryDirectory) throws -> String {
        let folder = URL(fileURLWithPath: try dir.folder("out")).resolvingSymlinksInPath().path
        let movie = "\(folder)/\(way.name)"
        let arguments = inputs + ["-o", movie, "-q", "--overwrite"] + options + way.options
        let result =
            way.insertRange
            ? try ExternalTool.run(ExternalTool.flipbookPath, arguments)
            : try FaultShim.run(
                ExternalTool.flipbookPath, arguments, fault: Fault("fallocate", n: 0, in: folder),
                environment: ["FAULT_NO_INSERT_RANGE": "1"]
            ).result
        try #require(result.status == 0, "\(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "no hidden file left")
        return movie
    }

    /// Every box of `type` in file order, as MediaInfo reads it: each field's leading number by name.
    static func boxes(_ type: String, of movie: String) throws -> [[String: Int64]] {
        boxes(type, in: try BoxReaders.mediaInfoFields(of: movie))
    }

    /// Every box of `type` among MediaInfo's `fields`, in file order.
    static func boxes(_ type: String, in fields: [MediaInfoField]) -> [[String: Int64]] {
        var found: [[String: Int64]] = []
        for field in fields where field.box == type {
            if field.key == "Name" {
                found.append([:])
            } else if let number = field.number, !found.isEmpty {
                found[found.count - 1][field.key] = number
            }
        }
        return found
    }

    /// Judges `movie`'s times: each frame presented at `times` (ticks of ffprobe's time base, which
    /// must be `ticks` a second), no composition offset dropped, the whole lasting `end` ticks; and,
    /// for ISO-BMFF, that the header boxes hold `end` in the width it needs.
    static func judge(
        _ movie: String, way: Way, ticks: Int64, times: [Int64], end: Int64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        // One ffprobe run: its debug log (where ffmpeg says "CTTS invalid" when it drops every
        // composition offset), the time base, every packet's pts and the movie's duration.
        let probe = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "debug", "-select_streams", "v:0", "-show_entries",
                "stream=time_base:packet=pts:format=duration", "-of", "json", movie,
            ])
        #expect(!probe.stderr.contains("CTTS invalid"), "ffmpeg keeps every offset", sourceLocation: sourceLocation)
        let probed = try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any] ?? [:]
        let scale = way.isMatroska ? 10_000 : ticks
        let stream = (probed["streams"] as? [[String: Any]])?.first
        #expect(stream?["time_base"] as? String == "1/\(scale)", sourceLocation: sourceLocation)
        let pts = (probed["packets"] as? [[String: Any]] ?? []).compactMap { ($0["pts"] as? NSNumber)?.int64Value }
        // Matroska's 100 µs ticks hold a 29.97 fps time to the nearest tick.
        #expect(
            pts.sorted() == times.map { ($0 * scale + ticks / 2) / ticks }, "every frame at its time",
            sourceLocation: sourceLocation)
        let duration = (probed["format"] as? [String: Any])?["duration"] as? String
        #expect(duration == String(format: "%.6f", Double(end) / Double(ticks)), sourceLocation: sourceLocation)
        #expect(try Judge.decodeErrors(of: movie) == "", sourceLocation: sourceLocation)
        if way.isMatroska {
            let identified = try MatroskaJudge.identify(movie)
            #expect(identified.errors.isEmpty && identified.warnings.isEmpty, sourceLocation: sourceLocation)
            #expect(identified.duration == end * 1_000_000_000 / ticks, sourceLocation: sourceLocation)
            #expect(try MatroskaJudge.elementProblems(of: movie).problems == [], sourceLocation: sourceLocation)
            return
        }
        let fields = try BoxReaders.mediaInfoFields(of: movie)
        func width(_ value: Int64) -> Int64 { value > Int64(UInt32.max) ? 1 : 0 }
        let movieHeader = try #require(boxes("mvhd", in: fields).first)
        #expect(movieHeader["Time scale"] == ticks, sourceLocation: sourceLocation)
        for (type, header) in [("mvhd", movieHeader), ("tkhd", boxes("tkhd", in: fields).first ?? [:])] {
            #expect(
                header["Version"] == width(end) && header["Duration"] == end, "\(type)", sourceLocation: sourceLocation)
        }
        let media = boxes("mdhd", in: fields).first ?? [:]
        let edits = boxes("elst", in: fields)
        if way.isFragmented {
            // The media is in the fragments; mehd and the edit list give the movie's length.
            #expect(media["Duration"] == 0, sourceLocation: sourceLocation)
            #expect(boxes("mehd", in: fields).first?["fragment_duration"] == end, sourceLocation: sourceLocation)
            let decodeTimes = boxes("tfdt", in: fields)
            #expect(
                !decodeTimes.isEmpty && decodeTimes.allSatisfy { $0["Version"] == 1 }, sourceLocation: sourceLocation)
            #expect(
                Set(decodeTimes.compactMap { $0["baseMediaDecodeTime"] }).isSubset(of: Set(times)),
                "each fragment starts with a frame decoded at its time", sourceLocation: sourceLocation)
        } else {
            // The media also holds the reordering delay that the edit list skips.
            let length = end + (edits.last?["Media time"] ?? 0)
            #expect(media["Version"] == width(length) && media["Duration"] == length, sourceLocation: sourceLocation)
        }
        for edit in edits {
            #expect(edit["Version"] == width(end) && edit["Track duration"] == end, sourceLocation: sourceLocation)
        }
    }

    /// The way a user met it: images held over a gap of 3.7 hours in their numbers at 29.97 fps were
    /// reordered across the gap, so an offset passed the 2^28 ticks ffmpeg keeps: it dropped them
    /// all, showed the frames in decode order and the first two before zero (and a fragmented movie's
    /// offsets were clamped to 32 bits).
    @Test(arguments: [Way(name: "gap.mp4"), Way(name: "gap.mp4", options: ["--fragmented"])])
    func imagesHeldOverAGapOfHoursKeepTheirNumbersTimes(way: Way) throws {
        let dir = try TemporaryDirectory()
        let numbers = Array(1...6) + Array(400_007...400_012)
        let frames = try Self.images(in: dir, count: 12, numbers: numbers)
        let movie = try Self.make(
            [frames + "/f%07d.png"], ["--fps", "29.97", "--gaps", "hold"], way: way, in: dir)
        try Self.judge(
            movie, way: way, ticks: 30000, times: numbers.map { Int64($0 - 1) * 1001 }, end: 400_012 * 1001)
        #expect(try Judge.frames(of: movie).count == 12)
    }

    /// A 29.97 fps movie of 46 hours (5005001001 ticks of 30000): six images, a million numbers apart.
    @Test(arguments: [
        Way(name: "ntsc.mp4"), Way(name: "ntsc.mov", options: ["--fragmented"], insertRange: false),
        Way(name: "ntsc.mkv"),
    ])
    func aMovieAt2997FpsPast2To32TicksIsExact(way: Way) throws {
        let dir = try TemporaryDirectory()
        let numbers = (0...5).map { $0 * 1_000_000 + 1 }
        let frames = try Self.images(in: dir, count: 6, numbers: numbers)
        let movie = try Self.make([frames + "/f%07d.png"], ["--fps", "29.97", "--gaps", "hold"], way: way, in: dir)
        try Self.judge(
            movie, way: way, ticks: 30000, times: numbers.map { Int64($0 - 1) * 1001 }, end: 5_000_001 * 1001)
    }

    /// 270 images of 1000 s with B-frames (75 hours at 16000 ticks a second): the edit list that
    /// hides the reordering delay is 64-bit too.
    @Test(arguments: [
        Way(name: "show.mp4"), Way(name: "show.mp4", options: ["--fragmented", "--fragment-duration", "3600"]),
    ])
    func reorderedFramesOf75HoursHaveA64BitEditList(way: Way) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.images(in: dir, count: 270)
        let movie = try Self.make([frames], ["--duration", "1000"], way: way, in: dir)
        let frame: Int64 = 16_000_000
        try Self.judge(movie, way: way, ticks: 16000, times: (0..<270).map { $0 * frame }, end: 270 * frame)
        let packets = try Judge.packets(of: movie)
        #expect(packets.contains { $0.pts != $0.dts }, "frames are reordered")
        let edit = try #require(try Self.boxes("elst", of: movie).first)
        #expect(edit["Media time"].map { $0 > 0 && $0 % frame == 0 } == true, "the delay is whole frames: \(edit)")
    }

    /// Sixty hour-long images (60 hours, 864000000 ticks of 4000, which 32 bits hold; progressive
    /// MP4 is `LongSlideshowTests`') and six images of a million seconds (69 days, 6 * 10^9 ticks of
    /// 1000, which they do not), in every container.
    @Test(
        arguments: zip(
            [3600, 3600, 3600] + Array(repeating: 1_000_000, count: 6),
            [
                Way(name: "long.mp4", options: ["--fragmented"]), Way(name: "long.mkv"),
                Way(name: "long.webm", options: ["--preset", "veryfast", "--fragmented"]),
                Way(name: "long.mp4"), Way(name: "long.mp4", insertRange: false),
                Way(name: "long.mp4", options: ["--fragmented"]),
                Way(name: "long.mov", options: ["--fragmented"], insertRange: false), Way(name: "long.mkv"),
                Way(name: "long.webm", options: ["--preset", "veryfast", "--fragmented"]),
            ]))
    func imagesOfHoursAndDaysKeepTheirTimes(seconds: Int, way: Way) throws {
        let dir = try TemporaryDirectory()
        let count = seconds == 3600 ? 60 : 6
        let frames = try Self.images(in: dir, count: count)
        let movie = try Self.make([frames], ["--duration", String(seconds)], way: way, in: dir)
        let ticks: Int64 = seconds == 3600 ? 4000 : 1000
        let frame = Int64(seconds) * ticks
        try Self.judge(
            movie, way: way, ticks: ticks, times: (0..<Int64(count)).map { $0 * frame }, end: Int64(count) * frame)
        if way.isMatroska {
            #expect(try Judge.frames(of: movie).allSatisfy { $0.duration == Int64(seconds) * 10_000 })
        }
    }

    /// Two segments of 35 days each (3 * 10^9 ticks, 32 bits) join into 69 days (64 bits).
    @Test func segmentsOfDaysJoinIntoAMoviePast2To32Ticks() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.images(in: dir, count: 6)
        let parts = try (1...2).map { k in
            try Self.make(
                [frames], ["--duration", "1000000", "--segment", "\(k)/2"], way: Way(name: "part-\(k).mp4"), in: dir)
        }
        #expect(try Self.boxes("mvhd", of: parts[0]).first?["Version"] == 0, "the first segment fits 32 bits")
        let joined = dir.path("out/joined.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + parts + ["-o", joined, "-q"])
        try #require(result.status == 0, "\(result.stderr)")
        try Self.judge(
            joined, way: Way(name: "joined.mp4"), ticks: 1000, times: (0..<6).map { $0 * 1_000_000_000 },
            end: 6_000_000_000)
    }
}
