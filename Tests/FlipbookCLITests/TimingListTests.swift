import FlipbookTestSupport
import Foundation
import Testing

/// `--timing FILE`: a duration for each image, judged per frame by ffprobe in integer ticks of the
/// stream's time base (every presentation time, each frame shown until the next, the last until the
/// stream's end: every start and length exact), from ffmpeg's concat list, CSV and JSON alike
/// (the same movie byte for byte), mixed with `--duration`; bad lists named and nothing written.
@Suite struct TimingListTests {
    /// Four PNGs of different colours, `a.png` … `d.png`, in a folder `shots` of `dir`.
    static func images(in dir: TemporaryDirectory) throws -> String {
        let folder = try dir.folder("shots")
        for (name, colour) in [("a", "red"), ("b", "green"), ("c", "blue"), ("d", "white")] {
            let made = try ExternalTool.run(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "color=c=\(colour):s=64x48", "-frames:v", "1",
                    "\(folder)/\(name).png",
                ])
            #expect(made.status == 0, "\(made.stderr)")
        }
        return folder
    }

    /// The four lists, one of each form, naming the images as the list's folder sees them.
    static let lists: [(String, String)] = [
        (
            "edit.ffconcat",
            """
            ffconcat version 1.0
            # the cut
            file 'shots/a.png'
            duration 2.5
            file shots/b.png
            duration 0.04
            file 'shots/c.png'
            duration 1001/24000
            file 'shots/d.png'

            """
        ),
        ("edit.csv", "file,duration\nshots/a.png,2.5\nshots/b.png,0.04\n\"shots/c.png\",1001/24000\nshots/d.png,\n"),
        (
            "edit.json",
            """
            [{"file": "shots/a.png", "duration": 2.5}, {"file": "shots/b.png", "duration": "0.04"},
             {"file": "shots/c.png", "duration": "1001/24000"}, {"file": "shots/d.png"}]
            """
        ),
    ]

    /// Each frame's start and how long it is shown, in ticks of the stream's time base, from ffprobe:
    /// the presentation times in order, each frame lasting until the next one's, the last until the
    /// stream's end (`duration_ts`); and the ticks a second.
    static func shownTimes(of movie: String) throws -> (starts: [Int64], lengths: [Int64], ticks: Int64) {
        let base = try Judge.stream(of: movie).timeBase
        let ticks = try #require(Int64(base.split(separator: "/").last ?? ""), "\(base)")
        let starts = try Judge.frames(of: movie).map(\.pts).sorted()
        let probed = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration_ts", "-of", "csv=p=0", movie])
        let end = try #require(Int64(probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(probed.stdout)")
        let lengths = zip(starts, starts.dropFirst() + [end]).map { $1 - $0 }
        return (starts, lengths, ticks)
    }

    @Test func eachImageLastsItsDurationToTheTickInEveryForm() throws {
        let dir = try TemporaryDirectory()
        _ = try Self.images(in: dir)
        var movies: [Data] = []
        for (name, text) in Self.lists {
            let list = dir.path(name)
            try text.write(toFile: list, atomically: true, encoding: .utf8)
            let movie = dir.path("\(name).mp4")
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath, ["--timing", list, "--duration", "1", "-o", movie, "-q"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let (starts, shown, ticks) = try Self.shownTimes(of: movie)
            // Starts 0, 2.5, 2.54, 2.54 + 1001/24000 s; lengths 2.5, 0.04, 1001/24000 and the default 1 s.
            let seconds: [(Int64, Int64)] = [(0, 1), (5, 2), (254, 100), (254 * 240 + 1001, 24000)]
            let lengths: [(Int64, Int64)] = [(5, 2), (4, 100), (1001, 24000), (1, 1)]
            #expect(starts.count == 4, "\(name)")
            for index in starts.indices where index < 4 {
                let (top, bottom) = seconds[index]
                let (length, per) = lengths[index]
                #expect(top * ticks % bottom == 0 && length * ticks % per == 0, "\(ticks) ticks hold every time")
                #expect(starts[index] == top * ticks / bottom, "\(name) frame \(index): starts at \(starts[index])")
                #expect(shown[index] == length * ticks / per, "\(name) frame \(index): lasts \(shown[index])")
            }
            movies.append(try Data(contentsOf: URL(fileURLWithPath: movie)))
        }
        #expect(movies.count == 3 && movies.allSatisfy { $0 == movies[0] }, "every form gives the same movie")
    }

    @Test func aBadListIsNamedAndNothingIsWritten() throws {
        let dir = try TemporaryDirectory()
        let folder = try Self.images(in: dir)
        for (name, text, words) in [
            ("zero.csv", "shots/a.png,0\n", "image 1 of the timing list has duration '0'"),
            ("words.ffconcat", "file 'shots/a.png'\nduration soon\n", "duration 'soon'"),
            ("twice.ffconcat", "file 'shots/a.png'\nduration 1\nduration 2\n", "line 3 of the timing list"),
            ("empty.csv", "file,duration\n", "names no images"),
            ("missing.csv", "shots/nothere.png,1\n", "nothere.png"),
            ("broken.json", "[{\"duration\": 1}]", "has no \"file\""),
        ] {
            let list = dir.path(name)
            try text.write(toFile: list, atomically: true, encoding: .utf8)
            let movie = dir.path("out.mp4")
            let result = try ExternalTool.run(ExternalTool.flipbookPath, ["--timing", list, "-o", movie])
            #expect(result.status == 1, "\(name): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(words), "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie), "\(name)")
        }
        let list = dir.path("ok.csv")
        try "shots/a.png,1\n".write(toFile: list, atomically: true, encoding: .utf8)
        for (options, words) in [
            ([folder], "--timing names the images"), (["--repeat-frames"], "leave out --repeat-frames"),
        ] {
            let movie = dir.path("out.mp4")
            let result = try ExternalTool.run(ExternalTool.flipbookPath, ["--timing", list, "-o", movie] + options)
            #expect(result.status == 2 && result.stderr.contains(words), "\(options): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie))
        }
    }

    /// Four JPEGs stamped by ExifTool as a camera stamps them (DateTimeOriginal and SubSecTimeOriginal):
    /// taken at 10:00:00.00, 10:00:10.50, 10:00:20.50 and 10:00:40.50.
    static func photos(in dir: TemporaryDirectory, times: [(String, String)]) throws -> String {
        let folder = try dir.folder("card")
        for (index, (time, fraction)) in times.enumerated() {
            let path = "\(folder)/IMG_\(1000 + index).jpg"
            let made = try ExternalTool.run(
                "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1", path])
            #expect(made.status == 0, "\(made.stderr)")
            let stamped = try ExternalTool.run(
                "exiftool",
                [
                    "-q", "-overwrite_original", "-DateTimeOriginal=2026:12:07 \(time)",
                    "-SubSecTimeOriginal=\(fraction)", path,
                ])
            #expect(stamped.status == 0, "\(stamped.stderr)")
        }
        return folder
    }

    @Test func photosAreTimedByWhenTheyWereTakenSpedUp() throws {
        let dir = try TemporaryDirectory()
        let card = try Self.photos(
            in: dir, times: [("10:00:00", "00"), ("10:00:10", "50"), ("10:00:20", "50"), ("10:00:40", "50")])
        let movie = dir.path("timelapse.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [card, "--timing", "exif", "--speedup", "10", "-o", movie, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let (starts, shown, ticks) = try Self.shownTimes(of: movie)
        // Intervals 10.5, 10 and 20 s (the last photo the interval before it) at ten times: 1.05, 1, 2, 2 s.
        let begins: [(Int64, Int64)] = [(0, 1), (105, 100), (205, 100), (405, 100)]
        let lengths: [(Int64, Int64)] = [(105, 100), (1, 1), (2, 1), (2, 1)]
        #expect(starts.count == 4)
        for index in starts.indices where index < 4 {
            #expect(starts[index] == begins[index].0 * ticks / begins[index].1, "frame \(index): \(starts[index])")
            #expect(shown[index] == lengths[index].0 * ticks / lengths[index].1, "frame \(index): \(shown[index])")
        }
        // A photo out of order, and one without a capture time, are named; nothing is written.
        let shuffled = try TemporaryDirectory()
        let late = try Self.photos(in: shuffled, times: [("10:00:10", "00"), ("10:00:05", "00")])
        let refused = shuffled.path("refused.mp4")
        let outOfOrder = try ExternalTool.run(ExternalTool.flipbookPath, [late, "--timing", "exif", "-o", refused])
        #expect(outOfOrder.status == 1 && outOfOrder.stderr.contains("IMG_1001.jpg"), "\(outOfOrder.stderr)")
        #expect(outOfOrder.stderr.contains("no later than the one before it"), "\(outOfOrder.stderr)")
        let bare = try ExternalTool.run(
            "exiftool", ["-q", "-overwrite_original", "-all=", "\(late)/IMG_1000.jpg"])
        #expect(bare.status == 0)
        let missing = try ExternalTool.run(ExternalTool.flipbookPath, [late, "--timing", "exif", "-o", refused])
        #expect(
            missing.status == 1 && missing.stderr.contains("IMG_1000.jpg")
                && missing.stderr.contains("no EXIF capture time"))
        #expect(!FileManager.default.fileExists(atPath: refused))
    }
}
