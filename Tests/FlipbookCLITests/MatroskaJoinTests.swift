import FlipbookTestSupport
import Foundation
import Testing

/// Segments written as WebM or Matroska join losslessly into the container `-o` names: every frame
/// at the one-piece movie's time, every packet the segments' bytes.
@Suite struct MatroskaJoinTests {
    /// Encodes `frames` as `count` segments named `NAME-K.EXT`, one after another (the machine's
    /// cores are the encoder's).
    static func encodeSegments(
        _ frames: String, count: Int, ext: String, in dir: TemporaryDirectory, _ extra: [String], name: String = "part"
    ) throws -> [String] {
        try (1...count).map { k in
            let path = dir.path("\(name)-\(k).\(ext)")
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath, [frames, "-o", path, "--segment", "\(k)/\(count)", "-q"] + extra)
            #expect(result.status == 0, "segment \(k): \(result.stderr)")
            return path
        }
    }

    /// Every video frame's presentation time as ffprobe decodes it, in seconds (exact strings).
    static func presentationTimes(of movie: String) throws -> [String] {
        try Judge.frames(of: movie).map(\.ptsTime)
    }

    /// Joins `parts` into `output` and checks it against `single`, the same frames in one piece.
    static func expectLosslessJoin(_ parts: [String], into output: String, like single: String, frames: Int) throws {
        let join = try ExternalTool.run(
            ExternalTool.flipbookPath, ["join"] + parts.reversed() + ["-o", output, "--json"])
        #expect(join.status == 0, "\(join.stderr)")
        #expect(join.stdout.contains("\"frames\":\(frames)"), "\(join.stdout)")
        let joinedTimes = try presentationTimes(of: output)
        #expect(joinedTimes.count == frames)
        #expect(joinedTimes == (try presentationTimes(of: single)), "every frame at the one-piece movie's time")
        #expect(try Judge.formatDuration(of: output) == Judge.formatDuration(of: single))
        let segmentHashes = try parts.map { try SegmentTests.packetHashes(of: $0) }
        #expect(segmentHashes.map(\.count).reduce(0, +) == frames)
        #expect(try SegmentTests.packetHashes(of: output) == Array(segmentHashes.joined()), "the segments' packets")
        #expect(try Judge.decodeErrors(of: output) == "")
    }

    @Test(arguments: ["av1", "vp9"])
    func webMSegmentsJoinIntoAWebMAsOnePiece(codec: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 48, width: 160, height: 96, into: frames, padded: true)
        let parts = try Self.encodeSegments(frames, count: 3, ext: "webm", in: dir, ["--codec", codec])
        let single = dir.path("single.webm")
        #expect(
            try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", single, "-q", "--codec", codec]).status == 0)
        let joined = dir.path("joined.webm")
        try Self.expectLosslessJoin(parts, into: joined, like: single, frames: 48)
        #expect(try Judge.stream(of: joined).codecName == codec)
        let identified = try ExternalTool.run("mkvmerge", ["-J", joined])
        #expect(identified.stdout.contains("\"errors\": []"), "\(identified.stdout)")
    }

    @Test(arguments: ["mkv", "mp4"])
    func h264MatroskaSegmentsWithBFramesJoinAsOnePiece(into container: String) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 128, height: 96, into: frames, padded: true)
        let settings = ["--bframes", "3", "--fps", "29.97"]
        let parts = try Self.encodeSegments(frames, count: 3, ext: "mkv", in: dir, settings)
        let single = dir.path("single.\(container)")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", single, "-q"] + settings).status == 0)
        let joined = dir.path("joined.\(container)")
        try Self.expectLosslessJoin(parts, into: joined, like: single, frames: 60)
        let packets = try Judge.packets(of: joined)
        if container == "mp4" {
            #expect(packets.contains { $0.pts != $0.dts }, "the joined MP4 keeps the B-frames' reordering")
        }
    }

    /// Segments of two or three frames, too short for x264's full reordering in some of them: each
    /// is decoded as far behind as the longest, so decode times follow on and the join is one piece.
    @Test(arguments: [(5, 2), (7, 3)])
    func segmentsTooShortForTheirReorderingJoinAsOnePiece(frameCount: Int, segmentCount: Int) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: frameCount, width: 64, height: 48, into: frames, padded: true)
        let parts = try Self.encodeSegments(frames, count: segmentCount, ext: "mkv", in: dir, [])
        for container in ["mkv", "mp4"] {
            let single = dir.path("single.\(container)")
            #expect(try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", single, "-q"]).status == 0)
            try Self.expectLosslessJoin(
                parts, into: dir.path("joined.\(container)"), like: single, frames: frameCount)
        }
    }

    @Test func aJoinOfWebMSegmentsTakesASoundtrack() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 30, width: 96, height: 64, into: frames)
        let parts = try Self.encodeSegments(frames, count: 2, ext: "webm", in: dir, [])
        let sound = dir.path("tone.wav")
        try AudioJudge.makeSound(sound, source: "sine=frequency=440:sample_rate=48000:duration=3", ["-ac", "2"])
        let joined = dir.path("joined.webm")
        let join = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + parts + ["-o", joined, "--audio", sound])
        #expect(join.status == 0, "\(join.stderr)")
        let audio = try AudioJudge.stream(of: joined)
        #expect(audio.codecName == "opus")
        #expect(try Judge.formatDuration(of: joined) == "1.000000", "the sound is cut to the pictures' second")
        let segmentHashes = try parts.map { try SegmentTests.packetHashes(of: $0) }
        #expect(try SegmentTests.packetHashes(of: joined) == Array(segmentHashes.joined()))
        #expect(try Judge.decodeErrors(of: joined) == "")
    }

    @Test func brokenAndUnjoinableMatroskaSegmentsAreRefusedByName() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 12, width: 64, height: 64, into: frames)
        let parts = try Self.encodeSegments(frames, count: 3, ext: "mkv", in: dir, [])
        let output = dir.path("joined.mkv")

        func refusal(_ segments: [String], to destination: String? = nil, naming path: String) throws -> String {
            let target = destination ?? output
            let result = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + segments + ["-o", target])
            #expect(result.status == 1)
            #expect(!FileManager.default.fileExists(atPath: target), "nothing is written at the destination")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(result.stderr.contains(path), "\(result.stderr)")
            return result.stderr
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: parts[1]))
        let cut = dir.path("cut-2.mkv")
        try bytes.prefix(bytes.count - 200).write(to: URL(fileURLWithPath: cut))
        #expect(try refusal([parts[0], cut, parts[2]], naming: cut).contains("not finished"))
        let header = dir.path("header-2.mkv")
        try bytes.prefix(150).write(to: URL(fileURLWithPath: header))
        #expect(try refusal([parts[0], header, parts[2]], naming: header).contains("not a readable movie"))
        // The first cluster's size made invalid (a first byte of zero).
        var corrupted = bytes
        let clusterID = Data([0x1F, 0x43, 0xB6, 0x75])
        let cluster = try #require(corrupted.range(of: clusterID))
        corrupted[cluster.upperBound] = 0
        let broken = dir.path("broken-2.mkv")
        try corrupted.write(to: URL(fileURLWithPath: broken))
        let brokenRefusal = try refusal([parts[0], broken, parts[2]], naming: broken)
        #expect(brokenRefusal.contains("Cluster") && brokenRefusal.contains("size"), "\(brokenRefusal)")

        let plain = dir.path("plain.mkv")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", plain, "-q"]).status == 0)
        #expect(try refusal([plain], naming: plain).contains("not a Flipbook segment"))
        #expect(try refusal(parts, to: dir.path("joined.webm"), naming: "joined.webm").contains("h264"))

        let prores = try Self.encodeSegments(
            frames, count: 2, ext: "mkv", in: dir, ["--codec", "prores"], name: "prores")
        let refused = try refusal(prores, to: dir.path("prores.mov"), naming: prores[0])
        #expect(refused.contains("ProRes"), "\(refused)")
        #expect(dir.entries().filter { $0.hasPrefix(".") }.isEmpty, "no temporary files left")
    }
}
