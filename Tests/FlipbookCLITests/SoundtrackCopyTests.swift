import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

/// `--audio` with AAC (an `.m4a` from ffmpeg, and ADTS `.aac`): the packets copied byte for byte,
/// the encoder delay carried, the sound cut or left short to the pictures' length, interleaved with
/// the video in faststart and fragmented movies; judged by ffprobe and ffmpeg.
@Suite struct SoundtrackCopyTests {
    /// 60 frames at 30 fps: a movie of exactly 2 seconds.
    static func frames(in dir: TemporaryDirectory) throws -> String {
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 64, height: 48, into: frames)
        return frames
    }

    static func encode(_ arguments: [String]) throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["--quiet", "--preset", "ultrafast"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
    }

    /// Checks a two-second movie's sound: the codec, rate and channels of the source, starting at zero,
    /// ending at `end` seconds, its packets the source's first ones, and interleaved with the video.
    static func judge(_ movie: String, sourceHashes: [String], end: Double = 2, fragmented: Bool = false) throws {
        let sound = try AudioJudge.stream(of: movie)
        #expect(sound.codecName == "aac")
        #expect(sound.sampleRate == 44100)
        #expect(sound.channels == 1)
        if fragmented {
            // ffmpeg reads a fragmented track's edit as an offset: the priming packet starts before zero.
            #expect(abs(sound.startTime + 1024.0 / 44100) < 1e-4, "starts at \(sound.startTime)")
        } else {
            #expect(sound.startTime == 0)
        }
        #expect(abs(sound.end - end) < 1e-3, "the sound ends at \(sound.end) s, not \(end) s")
        // The movie lasts as long as its pictures (ffmpeg measures a fragmented one from the priming packet).
        #expect(try Judge.stream(of: movie).duration == "2.000000")
        if !fragmented { #expect(try Judge.formatDuration(of: movie) == "2.000000") }
        let hashes = try AudioJudge.packetHashes(of: movie)
        #expect(hashes.count >= Int(end * 44100 / 1024))
        #expect(hashes == Array(sourceHashes.prefix(hashes.count)), "every packet is the source's own bytes")
        #expect(try AudioJudge.streamSwitches(of: movie) >= 2, "video and sound chunks alternate")
        #expect(try Judge.decodeErrors(of: movie) == "")
        #expect(try Judge.frames(of: movie).count == 60)
    }

    @Test func anM4AIsCopiedAndCutToThePicturesLength() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let song = dir.path("song.m4a")
        try AudioJudge.makeSound(song, source: "sine=frequency=440:duration=3", ["-c:a", "aac"])
        let movie = dir.path("out.mp4")
        try Self.encode([frames, "-o", movie, "--audio", song])
        try Self.judge(movie, sourceHashes: try AudioJudge.packetHashes(of: song))
    }

    @Test func anADTSStreamIsCopiedWithItsHeadersLeftOut() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let song = dir.path("song.aac")
        try AudioJudge.makeSound(song, source: "sine=frequency=440:duration=3", ["-c:a", "aac"])
        let movie = dir.path("out.mp4")
        try Self.encode([frames, "-o", movie, "--audio", song])
        try Self.judge(movie, sourceHashes: try AudioJudge.adtsPacketHashes(of: song))
    }

    @Test func shorterSoundEndsWhereItEndsAndTheMovieLastsAsLongAsItsPictures() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let song = dir.path("short.m4a")
        try AudioJudge.makeSound(song, source: "sine=frequency=440:duration=1.25", ["-c:a", "aac"])
        let movie = dir.path("out.mp4")
        try Self.encode([frames, "-o", movie, "--audio", song])
        try Self.judge(movie, sourceHashes: try AudioJudge.packetHashes(of: song), end: 1.25)
    }

    @Test func aFragmentedMovieCarriesBothTracksInEveryFragment() throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let song = dir.path("song.m4a")
        try AudioJudge.makeSound(song, source: "sine=frequency=440:duration=3", ["-c:a", "aac"])
        let movie = dir.path("out.mp4")
        try Self.encode([frames, "-o", movie, "--audio", song, "--fragmented", "--fragment-duration", "0.5"])
        try Self.judge(movie, sourceHashes: try AudioJudge.packetHashes(of: song), fragmented: true)
        let moofs = try BoxReader.parse([UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))).filter {
            $0.type == "moof"
        }
        #expect(moofs.count >= 2)
        for moof in moofs {
            #expect(moof.children.filter { $0.type == "traf" }.count == 2, "each fragment has a run of each track")
        }
    }

    @Test func aKilledFragmentedMovieKeepsPictureAndSoundOfItsFinishedFragments() throws {
        let dir = try TemporaryDirectory()
        let long = try dir.folder("long")
        try SampleImages.write(count: 300, width: 320, height: 240, into: long)
        let song = dir.path("song.m4a")
        try AudioJudge.makeSound(song, source: "sine=frequency=440:duration=12", ["-c:a", "aac"])
        let live = dir.path("live.mp4")
        let process = try InterruptTests.start(
            [long, "-o", live, "--audio", song, "--fragmented", "--fragment-duration", "0.5", "--preset", "slow"])
        try InterruptTests.waitUntil {
            guard let path = InterruptTests.temporaryFile(in: dir, for: "live.mp4"),
                let data = FileManager.default.contents(atPath: path)
            else { return !process.isRunning }
            return try FragmentedMovieReader(bytes: [UInt8](data)).fragments.count >= 2 || !process.isRunning
        }
        #expect(process.isRunning, "the encode must still be running when it is killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let partial = try #require(InterruptTests.temporaryFile(in: dir, for: "live.mp4"))
        let frames = try Judge.frames(of: partial)
        #expect(!frames.isEmpty)
        let sound = try AudioJudge.packetHashes(of: partial)
        #expect(!sound.isEmpty, "the finished fragments keep their sound")
        #expect(sound == Array(try AudioJudge.packetHashes(of: song).prefix(sound.count)))
        #expect(try Judge.decodeErrors(of: partial) == "")
    }

    @Test(arguments: [
        ("notes.txt", "not a sound file"), ("cut.m4a", "cut short"), ("cut.aac", "cut short"),
    ])
    func unusableSoundIsOneLineNamingTheFileAndLeavesNothing(name: String, words: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try Self.frames(in: dir)
        let sound = dir.path(name)
        if name.hasSuffix(".txt") {
            try Data("la la la\n".utf8).write(to: URL(fileURLWithPath: sound))
        } else {
            let whole = dir.path("whole." + (name as NSString).pathExtension)
            try AudioJudge.makeSound(whole, source: "sine=frequency=440:duration=3", ["-c:a", "aac"])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            // ffmpeg writes moov after mdat: two thirds of the file keep neither moov nor the last frames.
            try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: sound))
        }
        let movie = dir.path("out.mp4")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--audio", sound])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(sound) && result.stderr.contains(words), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
        #expect(!dir.entries().contains { $0.hasPrefix(".out") }, "no temporary files: \(dir.entries())")
    }
}

/// Segments are made without sound; `flipbook join … --audio FILE` adds it once.
@Suite struct SoundtrackJoinTests {
    @Test(arguments: ["m4a", "wav"])
    func joinedSegmentsGetTheSoundtrackOnce(ext: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try SoundtrackCopyTests.frames(in: dir)
        let song = dir.path("song.\(ext)")
        try AudioJudge.makeSound(
            song, source: "sine=frequency=440:duration=3", ext == "wav" ? ["-c:a", "pcm_s16le"] : ["-c:a", "aac"])
        let parts = (1...3).map { dir.path("part-\($0).mp4") }
        for (index, part) in parts.enumerated() {
            try SoundtrackCopyTests.encode([frames, "-o", part, "--segment", "\(index + 1)/3"])
        }
        let joined = dir.path("joined.mp4")
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, ["join"] + parts.reversed() + ["-o", joined, "--audio", song, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        if ext == "m4a" {
            try SoundtrackCopyTests.judge(joined, sourceHashes: try AudioJudge.packetHashes(of: song))
        } else {
            let sound = try AudioJudge.stream(of: joined)
            #expect(sound.codecName == "aac" && sound.startTime == 0 && abs(sound.duration - 2) < 1e-6)
            #expect(try Judge.decodeErrors(of: joined) == "")
        }
        // The pictures are the segments': every frame at its time in the whole sequence.
        let joinedFrames = try Judge.frames(of: joined)
        #expect(joinedFrames.map(\.pts) == (0..<60).map { Int64($0) * 400 })
        #expect(try Judge.formatDuration(of: joined) == "2.000000")
    }
}
