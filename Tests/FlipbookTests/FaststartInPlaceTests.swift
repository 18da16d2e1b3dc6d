import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// "Cheap faststart": where the file system can insert blocks at the start of a file (ext4, XFS),
/// the header is inserted in front of the media already on disk and that file becomes the movie, so
/// no media byte is copied. Judged by the kernel: the movie is the very file (inode) the media was
/// written to while encoding.
@Suite struct FaststartInPlaceTests {
    /// Whether the temporary folder is on a file system that can insert ranges.
    static var insertsRanges: Bool {
        let result = try? ExternalTool.run("stat", ["-f", "-c", "%T", NSTemporaryDirectory()])
        return ["ext2/ext3", "xfs"].contains(result?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    }

    @Test(.enabled(if: insertsRanges, "the temporary folder is not on ext4 or XFS, which can insert ranges"))
    func theMovieIsTheFileTheMediaWasWrittenToNotACopy() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("inplace.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 64, height: 64, preset: .ultrafast))
        for index in 0..<90 { try await writer.append(MovieWriterTests.syntheticFrame(index, width: 64, height: 64)) }
        let hidden = try #require(dir.entries().first { $0.hasSuffix(".media.tmp") }, "\(dir.entries())")
        let mediaInode = try #require(
            try FileManager.default.attributesOfItem(atPath: dir.path(hidden))[.systemFileNumber] as? UInt64)
        _ = try await writer.finish()
        let movieInode = try #require(
            try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64)
        #expect(movieInode == mediaInode, "the media file became the movie")
        #expect(dir.entries() == ["inplace.mp4"])
        #expect(try Judge.stream(of: url.path).frameCount == 90)
    }
}
