import FlipbookTestSupport
import Foundation
import Testing

/// `.webm` and `.mkv` outputs, judged by ffprobe and ffmpeg (codec, every frame's time, duration,
/// sound placed to the sample) and by mkvtoolnix (`mkvmerge -J`, `mkvinfo -v` read every element
/// without a problem).
@Suite struct MatroskaOutputTests {
    /// Half a tick of the files' 100 µs time scale, and a little for the decimal printing.
    static let halfTick = 0.000_050_1

    func encode(_ arguments: [String]) throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-q"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    static func formatName(of file: String) throws -> String {
        try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "format=format_name", "-of", "default=nw=1:nk=1", file]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func checkElements(of file: String, codecIDs: [String]) throws {
        let identified = try MatroskaJudge.identify(file)
        #expect(identified.recognized && identified.containerType == "Matroska", "\(identified)")
        #expect(identified.errors.isEmpty && identified.warnings.isEmpty, "\(identified)")
        #expect(identified.codecIDs == codecIDs)
        let elements = try MatroskaJudge.elementProblems(of: file)
        #expect(elements.problems.isEmpty, "\(elements.problems)")
        #expect(elements.clusters >= 1)
    }

    @Test(arguments: [
        ("webm", "av1", "V_AV1"), ("mkv", "h264", "V_MPEG4/ISO/AVC"), ("mkv", "hevc", "V_MPEGH/ISO/HEVC"),
        ("mkv", "av1", "V_AV1"), ("mkv", "prores", "V_PRORES"),
    ])
    func everyFrameIsOnItsTickAndEveryElementReads(ext: String, codec: String, codecID: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 45, width: 160, height: 128, into: frames, padded: true)
        let movie = dir.path("out.\(ext)")
        try encode([frames, "-o", movie, "--codec", codec])
        #expect(try Self.formatName(of: movie) == "matroska,webm")
        let stream = try Judge.stream(of: movie)
        #expect(stream.codecName == codec && stream.frameCount == 45)
        #expect(stream.width == 160 && stream.height == 128)
        #expect(stream.colorSpace == "bt709" && stream.colorPrimaries == "bt709" && stream.colorTransfer == "bt709")
        let times = try Judge.frames(of: movie).map { Double($0.ptsTime) ?? -1 }
        #expect(times.count == 45)
        for (index, time) in times.enumerated() {
            #expect(abs(time - Double(index) / 30) <= Self.halfTick, "frame \(index) at \(time) s")
        }
        #expect(try Judge.formatDuration(of: movie) == "1.500000")
        #expect(try Judge.decodeErrors(of: movie) == "")
        #expect(try Judge.psnr(of: movie, againstImages: "\(frames)/frame%03d.png", byIndex: true) > 30)
        try Self.checkElements(of: movie, codecIDs: [codecID])
        #expect(try MatroskaJudge.identify(movie).duration == 1_500_000_000)
    }

    /// 29.97 fps over 20 s: no frame drifts from i × 1001/30000 s by more than half a tick, and the
    /// duration is the exact 20.02 s.
    @Test func ntscTimesDoNotDriftOverALongMovie() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 600, width: 64, height: 48, into: frames)
        let movie = dir.path("long.mkv")
        try encode([frames, "-o", movie, "--fps", "29.97", "--preset", "ultrafast"])
        let times = try Judge.frames(of: movie).map { Double($0.ptsTime) ?? -1 }
        #expect(times.count == 600)
        let worst = times.enumerated().map { abs($0.element - Double($0.offset) * 1001 / 30000) }.max() ?? 1
        #expect(worst <= Self.halfTick, "a frame lies \(worst * 1e6) µs from its time")
        #expect(try Judge.formatDuration(of: movie) == "20.020000")
        try Self.checkElements(of: movie, codecIDs: ["V_MPEG4/ISO/AVC"])
    }

    /// H.264 with B-frames: blocks in decode order, each frame presented at its own time.
    @Test func reorderedFramesKeepTheirTimes() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 40, width: 64, height: 48, into: frames)
        let movie = dir.path("b.mkv")
        try encode([frames, "-o", movie, "--bframes", "3", "--fps", "24"])
        let packets = try Judge.packets(of: movie)
        #expect(packets.count == 40)
        #expect(packets.map(\.pts) != packets.map(\.pts).sorted(), "the packets are in decode order")
        let times = try Judge.frames(of: movie).map { Double($0.ptsTime) ?? -1 }
        for (index, time) in times.enumerated() {
            #expect(abs(time - Double(index) / 24) <= Self.halfTick, "frame \(index) at \(time) s")
        }
        // The exact 40/24 s, which ffmpeg truncates to the microsecond.
        let duration = try #require(Double(try Judge.formatDuration(of: movie)))
        #expect(abs(duration - 40.0 / 24) < 1e-6, "\(duration) s")
    }

    /// The white frame at 1 s and a click at that sample stay together in a WebM (Opus, encoded from
    /// WAV, or decoded from AAC and MP3 and encoded) and in a Matroska file (AAC), as in MP4.
    @Test(arguments: [("webm", "wav"), ("webm", "m4a"), ("webm", "mp3"), ("mkv", "wav")])
    func aClickComesOutWithItsWhiteFrame(ext: String, source: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let shades = try SampleImages.writeGreyLevels([0, 255], width: 64, height: 64, into: dir.path(""), prefix: "s")
        for index in 0..<60 {
            try FileManager.default.copyItem(
                atPath: shades[index == 30 ? 1 : 0], toPath: "\(frames)/f\(String(format: "%03d", index)).png")
        }
        let click = dir.path("click.\(source)")
        let codec = ["wav": "pcm_s16le", "m4a": "aac", "mp3": "libmp3lame"][source]!
        try AudioJudge.makeSound(
            click, source: "aevalsrc=if(eq(n\\,48000)\\,0.9\\,0):s=48000:d=3", ["-c:a", codec])
        let movie = dir.path("sync.\(ext)")
        try encode([frames, "-o", movie, "--audio", click] + (ext == "webm" ? ["--codec", "av1"] : []))
        let lumas = try Judge.lumaMeans(of: movie)
        let white = try #require(lumas.firstIndex { $0 > 128 })
        let videoTime = try #require(Double(try Judge.frames(of: movie)[white].ptsTime))
        #expect(abs(videoTime - 1) <= Self.halfTick, "the white frame is at \(videoTime) s")
        // The decoded samples start at the stream's start time: before zero by the encoder's delay
        // (CodecDelay), which ffmpeg keeps for AAC in Matroska and drops for Opus.
        let sound = try AudioJudge.stream(of: movie)
        #expect(sound.codecName == (ext == "webm" ? "opus" : "aac"))
        let samples = try AudioJudge.decodedSamples(of: movie)
        let peak = try #require(samples.indices.max { abs(samples[$0]) < abs(samples[$1]) })
        let start = ext == "webm" ? 0 : sound.startTime
        let audioTime = start + Double(peak) / 48000
        let offset = (audioTime - videoTime) * 1000
        print(
            "sync in .\(ext) from .\(source): click at \(audioTime) s, white frame at \(videoTime) s, offset \(offset) ms"
        )
        #expect(abs(offset) < 1, "the click is \(offset) ms from its white frame")
        // Decoded, the sound lasts exactly as long as the pictures (DiscardPadding trims the end),
        // after the encoder's delay where ffmpeg keeps it, within half a tick.
        let beforeZero = Double(samples.count - 96000)
        #expect(abs(beforeZero + start * 48000) <= 2.5, "\(samples.count) samples decoded from \(start) s")
        try Self.checkElements(
            of: movie, codecIDs: ext == "webm" ? ["V_AV1", "A_OPUS"] : ["V_MPEG4/ISO/AVC", "A_AAC"])
    }

    /// Copied sound that starts before the movie or repeats has no edit list to place it in a Matroska
    /// file: it is decoded and encoded, and its click lands where the options put it, to the sample.
    @Test(
        arguments: ["opus", "m4a"],
        [("webm", ["--audio-offset", "-0.25"], [0.25]), ("mkv", ["--loop-audio"], [0.5, 1.25])])
    func copiedSoundThatIsEditedIsPlacedToTheSample(
        source: String, output: (ext: String, options: [String], clicks: [Double])
    ) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 64, height: 64, into: frames)
        let sound = dir.path("short.\(source)")
        try AudioJudge.makeSound(
            sound, source: "aevalsrc=if(eq(n\\,24000)\\,0.9\\,0):s=48000:d=0.75",
            ["-c:a", source == "opus" ? "libopus" : "aac"])
        let movie = dir.path("edited.\(output.ext)")
        try encode([frames, "-o", movie, "--audio", sound, "--codec", "av1"] + output.options)
        let samples = try AudioJudge.decodedSamples(of: movie)
        // ffmpeg keeps AAC's encoder delay in a Matroska file, before the stream's start time.
        let start = output.ext == "mkv" ? try AudioJudge.stream(of: movie).startTime : 0
        var clicks: [Double] = []
        var index = 1
        while index < samples.count - 1 {
            let level = abs(samples[index])
            if level > 0.3, level >= abs(samples[index - 1]), level >= abs(samples[index + 1]) {
                clicks.append(start + Double(index) / 48000)
                index += 2400
            }
            index += 1
        }
        #expect(clicks.count == output.clicks.count, "clicks at \(clicks)")
        for (found, expected) in zip(clicks, output.clicks) {
            #expect(abs(found - expected) < 0.001, "a click at \(found) s, expected \(expected) s")
        }
    }

    /// An Opus bit rate Opus does not take is one line naming the file and the range.
    @Test func anOpusBitRateOutOfRangeNamesTheRange() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 64, height: 64, into: frames)
        let sound = dir.path("mono.wav")
        try AudioJudge.makeSound(sound, source: "sine=d=1", ["-c:a", "pcm_s16le"])
        let movie = dir.path("out.webm")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", sound, "--audio-bitrate", "320k"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("\(sound): cannot be encoded to Opus at 320k: Opus takes 6k to 256k for 1 channel"))
        #expect(!FileManager.default.fileExists(atPath: movie))
    }

    /// A FLAC soundtrack goes into a Matroska file frame for frame, lossless to the bit: ffmpeg decodes
    /// the source's samples exactly, to the end of the frame that holds the pictures' end.
    @Test func flacIsCopiedIntoMatroskaLosslessly() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 45, width: 64, height: 64, into: frames)
        let flac = dir.path("master.flac")
        try AudioJudge.makeSound(
            flac, source: "aevalsrc=0.3*sin(2*PI*440*t)|0.2*sin(2*PI*660*t):s=48000:d=3",
            ["-c:a", "flac", "-sample_fmt", "s16"])
        let movie = dir.path("lossless.mkv")
        try encode([frames, "-o", movie, "--audio", flac])
        #expect(try AudioJudge.stream(of: movie).codecName == "flac")
        func samples(_ file: String) throws -> [Int16] {
            let data = try ExternalTool.runForData(
                "ffmpeg", ["-v", "error", "-threads", "1", "-i", file, "-map", "0:a", "-f", "s16le", "-"])
            return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        }
        let copied = try samples(movie)
        let source = try samples(flac)
        // 1.5 s of stereo, and at most the rest of the last 4608-sample frame.
        #expect(copied.count >= 2 * 72000 && copied.count <= 2 * (72000 + 4608), "\(copied.count / 2) samples")
        #expect(copied == Array(source.prefix(copied.count)), "the source's samples, bit for bit")
        try Self.checkElements(of: movie, codecIDs: ["V_MPEG4/ISO/AVC", "A_FLAC"])
    }

    /// An Opus file's packets go into a WebM as they are.
    @Test func opusIsCopiedPacketForPacket() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 64, height: 64, into: frames)
        let opus = dir.path("tone.opus")
        try AudioJudge.makeSound(opus, source: "sine=f=440:d=1.5", ["-c:a", "libopus", "-b:a", "64k"])
        let movie = dir.path("tone.webm")
        try encode([frames, "-o", movie, "--audio", opus, "--codec", "av1"])
        let source = try AudioJudge.packetHashes(of: opus)
        let copied = try AudioJudge.packetHashes(of: movie)
        #expect(!copied.isEmpty && Array(source.prefix(copied.count)) == copied)
        #expect(try AudioJudge.stream(of: movie).codecName == "opus")
    }

    /// `--follow` and `--json` work for a WebM as for an MP4: the images written while the tool
    /// waits are all in the movie, and the summary is the movie's.
    @Test func aFollowedSequenceBecomesAWebM() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.folder("source")
        try SampleImages.write(count: 20, width: 64, height: 64, into: source, padded: true)
        let frames = try dir.folder("frames")
        let movie = dir.path("followed.webm")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.flipbookPath)
        process.arguments = [
            "\(frames)/frame%03d.png", "--follow", "--follow-until", "20", "--follow-timeout", "30", "-o", movie,
            "--json", "--quiet", "--preset", "ultrafast",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        for index in 1...20 {
            let name = String(format: "frame%03d.png", index)
            try FileManager.default.copyItem(atPath: "\(source)/\(name)", toPath: "\(frames)/.\(name)")
            try FileManager.default.moveItem(atPath: "\(frames)/.\(name)", toPath: "\(frames)/\(name)")
            usleep(20_000)
        }
        let summary = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let object = try JSONSerialization.jsonObject(with: summary) as? [String: Any]
        #expect(object?["frames"] as? Int == 20 && object?["codec"] as? String == "vp9", "\(object ?? [:])")
        #expect(try Judge.stream(of: movie).frameCount == 20)
        #expect(try Self.formatName(of: movie) == "matroska,webm")
    }

    @Test func tagsGoInInfoAndTags() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 10, width: 64, height: 64, into: frames)
        let movie = dir.path("tagged.mkv")
        try encode([
            frames, "-o", movie, "--title", "Harbour at dusk", "--artist", "A. Painter", "--comment", "third take",
            "--creation-time", "2024-05-06T07:08:09Z",
        ])
        let result = try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "json", movie])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let tags = (object?["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        let upper = Dictionary(uniqueKeysWithValues: tags.map { ($0.key.uppercased(), $0.value) })
        #expect(upper["TITLE"] == "Harbour at dusk")
        #expect(upper["ARTIST"] == "A. Painter")
        #expect(upper["COMMENT"] == "third take")
        #expect(upper["CREATION_TIME"]?.hasPrefix("2024-05-06T07:08:09") == true, "\(tags)")
        try Self.checkElements(of: movie, codecIDs: ["V_MPEG4/ISO/AVC"])
    }

    /// A fragmented WebM killed mid-way keeps every cluster it finished: ffprobe decodes them all,
    /// each frame at its time.
    @Test func aKilledFragmentedWebMKeepsEveryFinishedCluster() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 300, width: 320, height: 240, into: frames)
        let name = "live.webm"
        let process = try InterruptTests.start(
            [
                frames, "-o", dir.path(name), "--codec", "av1", "--fragmented", "--fragment-duration", "0.5",
                "--preset",
                "slow",
            ])
        let clusterID = Data([0x1F, 0x43, 0xB6, 0x75])
        func clusters(in data: Data) -> Int {
            var count = 0
            var range = data.startIndex..<data.endIndex
            while let found = data.range(of: clusterID, in: range) {
                count += 1
                range = found.upperBound..<data.endIndex
            }
            return count
        }
        var before = 0
        try InterruptTests.waitUntil {
            guard let path = InterruptTests.temporaryFile(in: dir, for: name),
                let data = FileManager.default.contents(atPath: path)
            else { return !process.isRunning }
            before = clusters(in: data)
            return before >= 3 || !process.isRunning
        }
        #expect(process.isRunning, "the encode must still be running when it is killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try #require(InterruptTests.temporaryFile(in: dir, for: name))
        #expect(!FileManager.default.fileExists(atPath: dir.path(name)))
        let survivors = try Judge.frames(of: partial)
        // Every finished cluster holds half a second or more: 15 frames at least in each.
        #expect(survivors.count >= 15 * before, "\(survivors.count) frames in \(before) clusters")
        for (index, frame) in survivors.enumerated() {
            let time = Double(frame.ptsTime) ?? -1
            #expect(abs(time - Double(index) / 30) <= Self.halfTick, "frame \(index) at \(time) s")
        }
        #expect(try Judge.decodeErrors(of: partial) == "")
        let identified = try MatroskaJudge.identify(partial)
        #expect(identified.recognized && identified.errors.isEmpty)
    }

    @Test(arguments: [
        (
            ["--codec", "h264"], "webm",
            "--codec h264 does not go in .webm files; name the output .mp4, .m4v, .mov, .qt or .mkv."
        ),
        (
            ["--codec", "prores"], "webm",
            "--codec prores does not go in .webm files; name the output .mov, .qt or .mkv."
        ),
        (["--rotate", "90"], "mkv", "--rotate 90 is not written in .mkv files"),
        (["--rotate", "270"], "webm", "--rotate 270 is not written in .webm files"),
    ])
    func combinationsTheContainerCannotHoldAreUsageErrors(options: [String], ext: String, message: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 64, height: 64, into: frames)
        let movie = dir.path("out.\(ext)")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie] + options)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: movie))
    }

    /// A sound file that cannot be read for a WebM: one line naming the file, and an existing movie
    /// left as it was.
    @Test func aDamagedSoundtrackLeavesTheOldWebM() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 64, height: 64, into: frames)
        let sound = dir.path("tone.m4a")
        try AudioJudge.makeSound(sound, source: "sine=d=1", ["-c:a", "aac"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: sound))
        bytes.count = bytes.count / 2
        try bytes.write(to: URL(fileURLWithPath: sound))
        let movie = dir.path("out.webm")
        try Data("an older movie".utf8).write(to: URL(fileURLWithPath: movie))
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", sound, "--codec", "av1", "--overwrite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(sound), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try String(contentsOfFile: movie, encoding: .utf8) == "an older movie")
        #expect(dir.entries().filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// Sound at 44.1 and 96 kHz, resampled to Opus's 48 kHz, keeps its timing: a click at 1 s comes
    /// out on sample 48000.
    @Test(arguments: [44100, 96000])
    func resampledSoundStaysOnItsSample(rate: Int) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 45, width: 64, height: 64, into: frames)
        let click = dir.path("click.wav")
        try AudioJudge.makeSound(
            click, source: "aevalsrc=if(eq(n\\,\(rate))\\,0.9\\,0):s=\(rate):d=2", ["-c:a", "pcm_s16le"])
        let movie = dir.path("resampled.webm")
        try encode([frames, "-o", movie, "--audio", click, "--codec", "av1"])
        let samples = try AudioJudge.decodedSamples(of: movie)
        #expect(samples.count == 72000)
        let peak = samples.indices.max { abs(samples[$0]) < abs(samples[$1]) }
        #expect(peak == 48000, "the click on sample \(peak ?? -1)")
    }

    /// A WAV at 96 kHz is resampled to Opus's 48 kHz and lasts as long as the pictures.
    @Test func hiResSoundIsResampledForOpus() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 30, width: 64, height: 64, into: frames)
        let sound = dir.path("hires.flac")
        try AudioJudge.makeSound(sound, source: "sine=f=1000:d=2:sample_rate=96000", ["-c:a", "flac"])
        let movie = dir.path("hires.webm")
        try encode([frames, "-o", movie, "--audio", sound, "--codec", "av1"])
        let stream = try AudioJudge.stream(of: movie)
        #expect(stream.codecName == "opus" && stream.sampleRate == 48000)
        let samples = try AudioJudge.decodedSamples(of: movie)
        #expect(samples.count == 48000, "\(samples.count) samples for a second of pictures")
        // The tone survives the resampling: ffmpeg's sine is 1/8 loud.
        let peak = samples[4800..<43200].map { abs($0) }.max() ?? 0
        #expect(abs(peak - 0.125) < 0.01, "peak \(peak)")
    }
}
