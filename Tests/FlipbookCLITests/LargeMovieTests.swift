import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

/// A real movie past 4 GiB, made by the tool from raw frames on standard input and judged by
/// MediaInfo (`co64`, a 64-bit `mdat` size) and ffprobe/ffmpeg (frames, times, the last packet's
/// bytes at the end of the file, the last frame's pixels). Run by `make test-large` only: it writes
/// about 4.4 GiB and takes a minute or two.
@Suite struct LargeMovieTests {
    static let requested = ProcessInfo.processInfo.environment["FLIPBOOK_LARGE_TESTS"] == "1"
    static let folder = FileManager.default.temporaryDirectory.path
    /// The movie and, where the file system cannot insert the index in front of the media, a
    /// second copy of the media.
    static let neededBytes: Int64 = 9_500_000_000
    static var freeBytes: Int64 {
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: folder)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value ?? 0
    }

    static let width = 1920
    static let height = 1080
    /// Losslessly coded RGB noise takes about 4.06 MB a frame at 1080p: 1150 frames are 4.34 GiB.
    static let frames = 1150
    /// The last frame: flat colour, so its decoded pixels can be compared with the source.
    static let lastColour: [UInt8] = [200, 40, 40]

    static var enoughDisk: Bool { freeBytes >= neededBytes }
    static var diskReason: Comment {
        Comment(
            rawValue: "needs \(neededBytes / 1_000_000_000) GB free in \(folder) for the media and the movie, "
                + "has \(freeBytes / 1_000_000_000) GB")
    }

    @Test(
        .enabled(if: requested, "writes a 4.4 GiB movie: run with make test-large (FLIPBOOK_LARGE_TESTS=1)"),
        .enabled(if: enoughDisk, diskReason))
    func aMoviePast4GiBHas64BitOffsetsAndEveryFrameAtItsTime() throws {
        let dir = try TemporaryDirectory()
        let frameBytes = Self.width * Self.height * 3
        let last = dir.path("last.rgb")
        let row = (0..<Self.width).flatMap { _ in Self.lastColour }
        try Data((0..<Self.height).flatMap { _ in row }).write(to: URL(fileURLWithPath: last))
        let movie = dir.path("large.mp4")
        // Noise from the kernel, then the flat frame, as raw RGB on the tool's standard input.
        let script = """
            set -o pipefail
            { head -c "$1" /dev/urandom; cat "$2"; } | "$3" - --raw-size 1920x1080 --raw-format rgb \
                --crf 0 --preset ultrafast -o "$4" --json -q
            """
        let made = try ExternalTool.run(
            "bash",
            ["-c", script, "bash", "\(frameBytes * (Self.frames - 1))", last, ExternalTool.flipbookPath, movie])
        #expect(made.status == 0, "\(made.stderr)")
        let fileSize = try #require(
            (try FileManager.default.attributesOfItem(atPath: movie)[.size] as? NSNumber)?.int64Value)
        print("large movie: \(fileSize) bytes, \(made.stdout)")
        #expect(fileSize > 1 << 32, "the movie passes 4 GiB: \(fileSize) bytes")
        #expect(dir.entries() == ["large.mp4", "last.rgb"], "no hidden files left")

        // MediaInfo: 64-bit chunk offsets, and an mdat whose 32-bit size is 1 with the real size in
        // the 64-bit largesize field, running to the end of the file.
        let fields = try BoxReaders.mediaInfoFields(of: movie)
        let names = fields.filter { $0.key == "Name" }.map(\.value)
        #expect(names.contains("co64") && !names.contains("stco"), "\(names)")
        #expect(fields.first { $0.box == "co64" && $0.key == "Number of entries" }?.number ?? 0 > 0)
        let mdatName = try #require(fields.first { $0.key == "Name" && $0.value == "mdat" })
        let mdatStart = mdatName.offset - 4
        #expect(fields.first { $0.offset == mdatStart && $0.key == "Size" }?.number == 1, "mdat size is 1: 64-bit")
        let largeSize = try #require(fields.first { $0.box == "mdat" && $0.key == "Size (Extended)" }?.number)
        #expect(Int64(mdatStart) + largeSize == fileSize, "mdat at \(mdatStart), largesize \(largeSize)")

        // ffprobe: every packet, the last one ending at the file's last byte; the file's size.
        let counted = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
                "stream=nb_frames,nb_read_packets,duration:format=size", "-of", "default=nw=1", movie,
            ])
        #expect(counted.stderr.isEmpty, "\(counted.stderr)")
        #expect(counted.stdout.contains("nb_frames=\(Self.frames)\n"), "\(counted.stdout)")
        #expect(counted.stdout.contains("nb_read_packets=\(Self.frames)\n"), "\(counted.stdout)")
        #expect(counted.stdout.contains("duration=38.333333\n"), "1150 frames at 30 fps: \(counted.stdout)")
        #expect(counted.stdout.contains("size=\(fileSize)\n"), "\(counted.stdout)")
        let packets = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,pos,size", "-of",
                "compact=p=0", movie,
            ])
        // "pts=0|size=4055587|pos=16384": one packet a line, fields by name.
        let rows = packets.stdout.split(separator: "\n").map { line in
            Dictionary(
                line.split(separator: "|").compactMap { field -> (String, Int64)? in
                    let parts = field.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, let value = Int64(parts[1]) else { return nil }
                    return (String(parts[0]), value)
                }, uniquingKeysWith: { first, _ in first })
        }
        #expect(rows.count == Self.frames && rows.allSatisfy { $0.count == 3 }, "\(packets.stderr)")
        #expect(
            rows.map { $0["pts"] } == (0..<Int64(Self.frames)).map { $0 * 400 }, "frame i at 400 i ticks of 1/12000 s")
        let lastPacket = try #require(rows.max { ($0["pos"] ?? -1) < ($1["pos"] ?? -1) })
        #expect(lastPacket["pts"] == Int64(Self.frames - 1) * 400, "\(lastPacket)")
        #expect((lastPacket["pos"] ?? 0) > 1 << 32, "the last packet is past 4 GiB: \(lastPacket)")
        #expect(
            (lastPacket["pos"] ?? 0) + (lastPacket["size"] ?? 0) == fileSize,
            "the last packet ends the file: \(lastPacket)")

        // ffmpeg: the last second decodes cleanly, and its last frame is the flat colour.
        let decoded = try ExternalTool.runForData(
            "ffmpeg",
            [
                "-v", "error", "-xerror", "-sseof", "-1", "-i", movie, "-vf",
                "scale=in_color_matrix=auto:in_range=auto:flags=accurate_rnd+full_chroma_int",
                "-pix_fmt", "rgb24", "-f", "rawvideo", "-",
            ])
        #expect(decoded.count >= frameBytes && decoded.count % frameBytes == 0, "\(decoded.count) bytes decoded")
        let lastFrame = [UInt8](decoded.suffix(frameBytes))
        var worst = 0
        for pixel in stride(from: 0, to: lastFrame.count, by: 3 * 997) {
            for channel in 0..<3 {
                worst = max(worst, abs(Int(lastFrame[pixel + channel]) - Int(Self.lastColour[channel])))
            }
        }
        #expect(worst <= 2, "the frame past 4 GiB decodes to its source colour, worst error \(worst)")

        // Flipbook's own reader, as an extra: the tables agree and point at the file's last byte.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: movie))
        let header = try [UInt8](handle.read(upToCount: 1 << 20) ?? Data())
        try handle.close()
        let table = try SampleTableReader(bytes: header, fileSize: Int(fileSize))
        #expect(table.validate().isEmpty, "\(table.validate())")
        #expect(table.chunkOffsets.usesLargeOffsets)
        #expect(table.samples.count == Self.frames)
        let lastSample = try #require(table.samples.last)
        #expect(Int64(lastSample.offset) + Int64(lastSample.size) == fileSize)
    }
}
