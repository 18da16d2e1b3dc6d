import FlipbookTestSupport
import Foundation
import Testing

/// Segments encoded in parallel processes and joined losslessly equal a one-machine encode.
@Suite struct SegmentTests {
    /// Encodes `frames` as `count` segments in parallel processes; returns the segment paths.
    static func encodeSegments(
        _ frames: String, count: Int, in dir: TemporaryDirectory
    ) throws -> [String] {
        let paths = (1...count).map { dir.path("part-\($0).mp4") }
        let results = ResultBox(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { slot in
            let k = slot + 1
            results.set(
                slot,
                Result {
                    try ExternalTool.run(
                        ExternalTool.flipbookPath,
                        [frames, "-o", paths[slot], "--segment", "\(k)/\(count)", "--crf", "18", "-q"])
                })
        }
        for (index, result) in results.values.enumerated() {
            let outcome = try #require(try result?.get())
            #expect(outcome.status == 0, "segment \(index + 1): \(outcome.stderr)")
        }
        return paths
    }

    @Test func fourSegmentsJoinedEqualASingleEncodeInFramesTimesAndQuality() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 90, width: 160, height: 96, into: frames, padded: true)
        let parts = try Self.encodeSegments(frames, count: 4, in: dir)
        let single = dir.path("single.mp4")
        let joined = dir.path("joined.mp4")
        #expect(
            try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", single, "--crf", "18", "-q"]).status == 0)

        let join = try ExternalTool.run(
            ExternalTool.flipbookPath, ["join"] + parts.reversed() + ["-o", joined, "--json"])
        #expect(join.status == 0, "\(join.stderr)")
        #expect(join.stdout.contains("\"frames\":90"))

        let singleFrames = try Judge.frames(of: single)
        let joinedFrames = try Judge.frames(of: joined)
        #expect(joinedFrames.count == 90)
        #expect(joinedFrames.map(\.pts) == singleFrames.map(\.pts))
        #expect(joinedFrames.map(\.duration) == singleFrames.map(\.duration))
        #expect(try Judge.formatDuration(of: joined) == "3.000000")
        #expect(try Judge.formatDuration(of: joined) == Judge.formatDuration(of: single))
        #expect(try Judge.decodeErrors(of: joined) == "")
        #expect(joinedFrames.filter(\.keyFrame).count >= 4, "every segment starts with a keyframe")

        let pattern = "\(frames)/frame%03d.png"
        let singlePSNR = try Judge.psnr(of: single, againstImages: pattern)
        let joinedPSNR = try Judge.psnr(of: joined, againstImages: pattern)
        #expect(abs(joinedPSNR - singlePSNR) <= 0.5, "PSNR joined \(joinedPSNR) vs single \(singlePSNR)")
        #expect(joinedPSNR >= 40)
    }

    /// The hash of every video packet's bytes, in decode order, as ffprobe reads them.
    static func packetHashes(of movie: String) throws -> [String] {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_packets", "-show_data_hash", "sha256",
                "-show_entries", "packet=data_hash", "-of", "csv=p=0", movie,
            ])
        guard result.status == 0, result.stderr.isEmpty else {
            throw JudgeError(description: "ffprobe could not hash the packets of \(movie): \(result.stderr)")
        }
        return result.stdout.split(separator: "\n").map { String($0) }
    }

    /// Join copies, it does not re-encode: every packet of the joined movie is byte for byte the
    /// segments' packets in order, for a B-frame (medium preset) sequence in three segments.
    @Test func joiningCopiesEveryPacketOfBFrameSegmentsByteForByte() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 128, height: 96, into: frames, padded: true)
        let parts = try Self.encodeSegments(frames, count: 3, in: dir)
        let joined = dir.path("joined.mp4")
        let join = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + parts + ["-o", joined, "-q"])
        #expect(join.status == 0, "\(join.stderr)")

        let segmentHashes = try parts.map { try Self.packetHashes(of: $0) }
        let joinedHashes = try Self.packetHashes(of: joined)
        #expect(segmentHashes.map(\.count).reduce(0, +) == 60, "\(segmentHashes.map(\.count))")
        #expect(joinedHashes.allSatisfy { $0.hasPrefix("SHA256:") }, "\(joinedHashes.prefix(3))")
        #expect(joinedHashes == Array(segmentHashes.joined()), "the joined packets are the segments' packets")
        let packets = try Judge.packets(of: joined)
        #expect(packets.contains { $0.pts != $0.dts }, "the segments have B-frames (reordered packets)")
        #expect(try Judge.stream(of: joined).frameCount == 60)
        #expect(try Judge.decodeErrors(of: joined) == "")
    }

    @Test func joinRefusesAMissingADuplicatedAndAMismatchedSegment() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 12, width: 64, height: 64, into: frames)
        let parts = try Self.encodeSegments(frames, count: 3, in: dir)
        let output = dir.path("joined.mp4")

        func refusal(_ segments: [String]) throws -> String {
            let result = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + segments + ["-o", output])
            #expect(result.status == 1)
            #expect(!FileManager.default.fileExists(atPath: output))
            #expect(result.stderr.split(separator: "\n").count == 1)
            return result.stderr
        }
        #expect(try refusal([parts[0], parts[2]]).contains("segment 2/3 is missing"))
        let twice = try refusal([parts[0], parts[1], parts[1], parts[2]])
        #expect(twice.contains("segment 2/3 is given twice"))

        let other = dir.path("other-2.mp4")
        let encode = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", other, "--segment", "2/3", "--crf", "30", "-q"])
        #expect(encode.status == 0)
        let mismatch = try refusal([parts[0], other, parts[2]])
        #expect(mismatch.contains("different settings"))
        #expect(mismatch.contains(other))

        let plain = dir.path("plain.mp4")
        #expect(try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", plain, "-q"]).status == 0)
        #expect(try refusal([plain]).contains("not a Flipbook segment"))
        #expect(dir.entries().filter { $0.hasPrefix(".") }.isEmpty, "no temporary files left")
    }

    @Test func autoTakesTheIndexFromTheScheduler() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 8, width: 64, height: 64, into: frames)
        for (name, value, expectedFrames) in [("JOB_COMPLETION_INDEX", "1", 4), ("SLURM_ARRAY_TASK_ID", "1", 4)] {
            let movie = dir.path("\(name).mp4")
            var environment = ProcessInfo.processInfo.environment
            environment[name] = value
            let result = try ExternalTool.run(
                ExternalTool.flipbookPath, [frames, "-o", movie, "--segment", "auto/2", "--json"],
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"frames\":\(expectedFrames)"))
            let first = try #require(try Judge.frames(of: movie).first)
            // JOB_COMPLETION_INDEX 1 is the second segment; SLURM_ARRAY_TASK_ID 1 is the first.
            #expect(first.ptsTime == (name == "JOB_COMPLETION_INDEX" ? "0.133333" : "0.000000"))
        }
    }
}

/// Collects results from concurrent work, each slot written once.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<ToolResult, Error>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ slot: Int, _ result: Result<ToolResult, Error>) {
        lock.lock()
        slots[slot] = result
        lock.unlock()
    }

    var values: [Result<ToolResult, Error>?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
