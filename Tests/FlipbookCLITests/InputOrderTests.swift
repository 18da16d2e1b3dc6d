import FlipbookTestSupport
import Foundation
import Testing

/// Inputs are put in natural order by path unless --keep-order.
@Suite struct InputOrderTests {
    /// Grey levels that rise with the frame number, so order can be read back from brightness.
    static let levels = (1...12).map { 16 + $0 * 16 }

    @Test func unpaddedNamesFromAShellGlobComeOutInNaturalOrder() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let paths = try SampleImages.writeGreyLevels(Self.levels, into: frames)
        let globOrder = paths.sorted()  // f1, f10, f11, f12, f2, …: what a shell glob gives
        let movie = dir.path("out.mp4")

        let result = try ExternalTool.run(ExternalTool.flipbookPath, globOrder + ["-o", movie, "--crf", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        let means = try Judge.lumaMeans(of: movie)
        #expect(means.count == 12)
        #expect(zip(means, means.dropFirst()).allSatisfy { $0 < $1 }, "frame brightness should rise: \(means)")
    }

    @Test func folderInputIsInNaturalOrder() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.writeGreyLevels(Self.levels, into: frames)
        let movie = dir.path("out.mp4")

        let result = try ExternalTool.run(ExternalTool.flipbookPath, [frames, "-o", movie, "--crf", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Judge.stream(of: movie).frameCount == 12, "every image in the folder is a frame")
        let means = try Judge.lumaMeans(of: movie)
        #expect(means.count == 12)
        #expect(zip(means, means.dropFirst()).allSatisfy { $0 < $1 }, "frame brightness should rise: \(means)")
    }

    @Test func keepOrderKeepsTheOrderGiven() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let paths = try SampleImages.writeGreyLevels(Self.levels, into: frames)
        let reversed = Array(paths.reversed())
        let movie = dir.path("out.mp4")

        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, reversed + ["-o", movie, "--crf", "10", "--keep-order"])
        #expect(result.status == 0, "\(result.stderr)")
        let means = try Judge.lumaMeans(of: movie)
        #expect(means.count == 12)
        #expect(zip(means, means.dropFirst()).allSatisfy { $0 > $1 }, "frame brightness should fall: \(means)")
    }
}
