import FlipbookTestSupport
import Foundation
import Testing

/// Box-level promises, each judged on a movie from the tool by a reader that is not Flipbook's own:
/// MediaInfo (`--Details=1`, every box with its offset and fields), ExifTool (`-v3`, the box tree)
/// and ffmpeg/ffprobe (the H.264 headers and the packets).
@Suite struct BoxLevelJudgeTests {
    /// Runs the tool on `count` 64x64 test images and returns the movie's path.
    private func makeMovie(
        in dir: TemporaryDirectory, _ name: String, count: Int = 45, _ options: [String]
    ) throws -> String {
        let frames = dir.path("frames-\(count)")
        if !FileManager.default.fileExists(atPath: frames) {
            try SampleImages.write(count: count, width: 64, height: 64, into: try dir.folder("frames-\(count)"))
        }
        let movie = dir.path(name)
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "-q"] + options)
        guard result.status == 0 else { throw JudgeError(description: "flipbook failed: \(result.stderr)") }
        return movie
    }

    @Test func aFaststartMovieHasItsIndexBeforeItsMedia() throws {
        let dir = try TemporaryDirectory()
        let movie = try makeMovie(in: dir, "fast.mp4", ["--preset", "ultrafast"])

        let top = try BoxReaders.exifToolTopLevelBoxes(of: movie)
        #expect(top.first == "ftyp", "\(top)")
        #expect(top.filter { $0 == "moov" }.count == 1 && top.filter { $0 == "mdat" }.count == 1, "\(top)")
        #expect(try #require(top.firstIndex(of: "moov")) < (try #require(top.firstIndex(of: "mdat"))), "\(top)")

        let names = try BoxReaders.mediaInfoFields(of: movie).filter { $0.key == "Name" }
        let moov = try #require(names.first { $0.value == "moov" }).offset - 4
        let mdat = try #require(names.first { $0.value == "mdat" }).offset - 4
        #expect(moov == 32 && moov < mdat, "moov at \(moov), right after ftyp; mdat at \(mdat)")
    }

    /// mvhd and tkhd last exactly as long as the movie, and the edit list presents the media from
    /// its first presented frame (after the B-frame delay) for exactly that long.
    @Test(arguments: [
        ("B-frames (medium)", 45, ["--preset", "medium"], "1.5"),
        ("slideshow, 2 s an image", 3, ["--duration", "2"], "6"),
    ])
    func headerAndEditListDurationsAreExact(kind: String, images: Int, options: [String], seconds: String) throws {
        let dir = try TemporaryDirectory()
        let movie = try makeMovie(in: dir, "movie.mp4", count: images, options)
        let fields = try BoxReaders.mediaInfoFields(of: movie)
        func value(_ key: String, in box: String) throws -> Int64 {
            try #require(fields.first { $0.box == box && $0.key == key }?.number, "\(kind): \(box) \(key)")
        }
        let length = try #require(Double(seconds))
        let movieTimescale = try value("Time scale", in: "mvhd")
        let mediaTimescale = try value("Time scale", in: "mdhd")
        #expect(try value("Duration", in: "mvhd") == Int64(length * Double(movieTimescale)), "\(kind): mvhd")
        #expect(try value("Duration", in: "tkhd") == Int64(length * Double(movieTimescale)), "\(kind): tkhd")
        #expect(try value("Number of entries", in: "elst") == 1, "\(kind): one edit")
        let segment = try value("Track duration", in: "elst")
        let mediaTime = try value("Media time", in: "elst")
        #expect(segment == Int64(length * Double(movieTimescale)), "\(kind): the edit lasts the whole movie")

        // ffprobe without the edit list: the first presented frame is at the edit's media time.
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-ignore_editlist", "1", "-select_streams", "v:0", "-show_entries", "packet=pts",
                "-of", "csv=p=0", movie,
            ])
        let times = result.stdout.split(separator: "\n").compactMap { Int64($0) }
        #expect(times.count == images, "\(kind): \(result.stderr)")
        #expect(times.min() == mediaTime, "\(kind): media time \(mediaTime), earliest pts \(times.min() ?? -1)")
        if kind.hasPrefix("B-frames") { #expect(mediaTime > 0, "B-frames delay the first presented frame") }
        // The media lasts until the last frame's presentation ends: the edit's start plus its length.
        #expect(
            try value("Duration", in: "mdhd") * movieTimescale
                == (mediaTime * movieTimescale + segment * mediaTimescale),
            "\(kind): mdhd")
    }

    @Test(arguments: [("bt709", "limited", 1, 0), ("bt601", "full", 6, 1)])
    func theColrBoxAndTheH264HeadersSayTheSameColours(standard: String, range: String, code: Int, fullRange: Int)
        throws
    {
        let dir = try TemporaryDirectory()
        let movie = try makeMovie(
            in: dir, "\(standard).mp4", count: 3, ["--preset", "ultrafast", "--colour", standard, "--range", range])

        let colr = try BoxReaders.mediaInfoFields(of: movie).filter { $0.box == "colr" }
        func colrValue(_ key: String) -> String? { colr.first { $0.key == key }?.value }
        #expect(colrValue("Color parameter type") == "nclx")
        #expect(colr.first { $0.key == "Primaries index" }?.number == Int64(code), "\(colr.map(\.value))")
        #expect(colr.first { $0.key == "Transfer function index" }?.number == Int64(code))
        #expect(colr.first { $0.key == "Matrix index" }?.number == Int64(code))
        #expect(colrValue("full_range_flag") == (fullRange == 1 ? "Yes" : "No"))

        let headers = try BoxReaders.h264ColourFields(of: movie, scratch: dir.url.path)
        #expect(!headers.isEmpty, "the stream has a sequence parameter set with a VUI")
        for vui in headers {
            #expect(
                vui == [
                    "colour_primaries": code, "transfer_characteristics": code, "matrix_coefficients": code,
                    "video_full_range_flag": fullRange,
                ], "\(vui)")
        }
    }

    /// ftyp, moov, then moof+mdat pairs and mfra; each fragment's decode time follows on from the
    /// last, starts with a keyframe, and lasts between half and all of --fragment-duration; mfra
    /// points at every moof.
    @Test func aFragmentedMovieHasSelfContainedFragmentsStartingWithKeyframes() throws {
        let dir = try TemporaryDirectory()
        let movie = try makeMovie(in: dir, "frag.mp4", ["--fragmented", "--fragment-duration", "0.5"])

        let top = try BoxReaders.exifToolTopLevelBoxes(of: movie)
        let pairs = (top.count - 3) / 2
        #expect(pairs >= 2, "\(top)")
        #expect(
            top == ["ftyp", "moov"] + Array(repeating: ["moof", "mdat"], count: pairs).joined() + ["mfra"], "\(top)")

        let fields = try BoxReaders.mediaInfoFields(of: movie)
        let timescale = try #require(fields.first { $0.box == "mdhd" && $0.key == "Time scale" }?.number)
        let moofs = fields.filter { $0.key == "Name" && $0.value == "moof" }.map { Int64($0.offset - 4) }
        let decodeTimes = fields.filter { $0.box == "tfdt" && $0.key == "baseMediaDecodeTime" }.compactMap(\.number)
        let counts = fields.filter { $0.box == "trun" && $0.key == "sample_count" }.compactMap(\.number)
        #expect(moofs.count == pairs && decodeTimes.count == pairs && counts.count == pairs)
        #expect(counts.reduce(0, +) == 45, "\(counts)")

        // Sample durations and sync flags in trun order, split into fragments by sample_count.
        let durations = fields.filter { $0.box == "trun" && $0.key == "sample_duration" }.compactMap(\.number)
        let nonSync = fields.filter { $0.box == "trun" && $0.key == "sample_is_non_sync_sample" }.map(\.value)
        let offsets = fields.filter { $0.box == "trun" && $0.key == "sample_composition_time_offset" }
            .compactMap(\.number)
        #expect(durations.count == 45 && nonSync.count == 45 && offsets.count == 45)
        var first = 0
        var syncTimes: [Int64] = []
        for (index, count) in counts.enumerated() {
            syncTimes.append(decodeTimes[index] + offsets[first])
            let length = durations[first..<first + Int(count)].reduce(0, +)
            #expect(nonSync[first] == "No", "fragment \(index) starts with a sync sample")
            if index + 1 < counts.count {
                #expect(decodeTimes[index + 1] == decodeTimes[index] + length, "fragment \(index + 1)'s tfdt")
                #expect(2 * length >= timescale / 2 && length <= timescale / 2, "fragment \(index): \(length) ticks")
            }
            first += Int(count)
        }
        #expect(decodeTimes.first == 0)

        // mfra's tfra: one entry per fragment, at its moof and the presentation time of its first
        // (sync) sample, as ISO/IEC 14496-12 defines `time`.
        let entryTimes = fields.filter { $0.box == "tfra" && $0.key == "time" }.compactMap(\.number)
        let entryOffsets = fields.filter { $0.box == "tfra" && $0.key == "moof_offset" }.compactMap(\.number)
        #expect(entryOffsets == moofs, "tfra points at every moof")
        #expect(entryTimes == syncTimes)

        // ffprobe, in decode order: a keyframe exactly where each fragment starts.
        let packets = try Judge.packets(of: movie)
        #expect(packets.count == 45)
        var starts: Set<Int> = []
        var start = 0
        for count in counts {
            starts.insert(start)
            start += Int(count)
        }
        for (index, packet) in packets.enumerated() where starts.contains(index) {
            #expect(packet.isKeyframe, "packet \(index) starts a fragment")
        }
    }
}
