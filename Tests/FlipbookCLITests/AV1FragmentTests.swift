import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

/// Fragmented AV1: every fragment starts with a key frame a player can start at (the fragments and
/// `kill -9` as for every codec are in ``CodecGuaranteeTests``).
@Suite struct AV1FragmentTests {
    @Test func everyFragmentStartsWithAKeyFrame() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 60, width: 128, height: 96, into: frames)
        let movie = dir.path("frag.mp4")
        try AV1Tests.encode([frames], to: movie, ["--fragmented", "--fragment-duration", "0.5"])

        let decoded = try Judge.frames(of: movie)
        #expect(decoded.map(\.pts) == (0..<60).map { Int64($0) * 400 })
        #expect(try Judge.formatDuration(of: movie) == "2.000000")
        #expect(try Judge.decodeErrors(of: movie) == "")

        // MediaInfo's trun sample counts split ffprobe's packets (in decode order) into fragments.
        let fields = try BoxReaders.mediaInfoFields(of: movie)
        let counts = fields.filter { $0.box == "trun" && $0.key == "sample_count" }.compactMap(\.number)
        #expect(counts.count >= 4, "0.5 s fragments of a 2 s movie: \(counts)")
        #expect(counts.reduce(0, +) == 60, "\(counts)")
        let packets = try Judge.packets(of: movie)
        #expect(packets.count == 60)
        var start = 0
        for (index, count) in counts.enumerated() where start < packets.count {
            #expect(packets[start].isKeyframe, "fragment \(index) starts with a key frame (packet \(start))")
            start += Int(count)
        }
        // A key frame, not a forward key frame: the AV1 frame header says KEY_FRAME (frame_type 0)
        // at the start of each fragment, and a decoder started there decodes cleanly.
        let second = dir.path("from-second-fragment.mp4")
        let seconds = String(format: "%.6f", Double(counts[0]) / 30)
        let cut = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-ss", seconds, "-i", movie, "-c", "copy", "-f", "mp4", second])
        #expect(cut.status == 0, "\(cut.stderr)")
        #expect(try Judge.decodeErrors(of: second) == "")
        #expect(try Judge.packets(of: second).first?.isKeyframe == true)

        let reader = try FragmentedMovieReader(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: movie))))
        #expect(reader.validate() == [])
        #expect(reader.fragments.allSatisfy { $0.samples.first?.isSync == true })
    }
}
