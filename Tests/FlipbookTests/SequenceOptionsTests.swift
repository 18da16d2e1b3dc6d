import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// A sequence's options in one value: settings with or without a size, and options that belong to
/// listed or to followed images only.
@Suite struct SequenceOptionsTests {
    /// Three 30x20 PNGs (odd-free, so the movie takes their size as it is) in a fresh folder.
    static func images(in dir: TemporaryDirectory) throws -> [URL] {
        let folder = try dir.folder("frames")
        return try (1...3).map { index in
            let url = URL(fileURLWithPath: "\(folder)/f\(index).png")
            try TestPNG.encode(
                width: 30, height: 20, colourType: 2, bitDepth: 8, samples: Array(repeating: 40 * index, count: 1800)
            ).write(to: url)
            return url
        }
    }

    @Test func settingsWithoutASizeTakeTheFirstImagesAndASizeGivenIsKept() async throws {
        let dir = try TemporaryDirectory()
        let images = try Self.images(in: dir)
        let unsized = dir.path("unsized.mp4")
        var options = SequenceOptions(settings: VideoSettings(preset: .ultrafast))
        #expect(options.settings.size == nil)
        let first = try await MovieWriter.makeMovie(
            fromImagesAt: images, to: URL(fileURLWithPath: unsized), options: options)
        #expect((first.width, first.height) == (30, 20))
        let stream = try Judge.stream(of: unsized)
        #expect((stream.width, stream.height, stream.frameCount) == (30, 20, 3))

        let sized = dir.path("sized.mp4")
        options.settings.size = FrameSize(width: 64, height: 48)
        let second = try await MovieWriter.makeMovie(
            fromImagesAt: images, to: URL(fileURLWithPath: sized), options: options)
        #expect((second.width, second.height) == (64, 48))
        #expect(try Judge.stream(of: sized).width == 64)
    }

    @Test func aWriterRefusesSettingsWithoutASize() throws {
        let dir = try TemporaryDirectory()
        #expect {
            try MovieWriter(url: URL(fileURLWithPath: dir.path("x.mp4")), settings: VideoSettings())
        } throws: { error in
            guard let error = error as? FlipbookError else { return false }
            return error.code == .invalidSettings && error.message.contains("no size")
        }
        #expect(dir.entries().isEmpty)
    }

    @Test func theSizeSetsWidthAndHeightAndNilTakesThemAway() {
        var settings = VideoSettings(width: 1280, height: 720)
        #expect(settings.size == FrameSize(width: 1280, height: 720))
        settings.size = nil
        #expect(settings.width == 0 && settings.height == 0 && settings.size == nil)
        settings.size = FrameSize(width: 640, height: 360)
        #expect(settings.width == 640 && settings.height == 360)
    }

    @Test(arguments: ["segment", "skip", "soundtrack"])
    func aFollowedSequenceRefusesOptionsForListedImages(option: String) async throws {
        let dir = try TemporaryDirectory()
        _ = try Self.images(in: dir)
        var options = SequenceOptions()
        switch option {
        case "segment": options.segment = try Segment(parsing: "1/2", environment: [:])
        case "skip": options.skipInvalidImages = true
        default: options.soundtrack = Soundtrack(url: URL(fileURLWithPath: dir.path("song.wav")))
        }
        await #expect {
            try await MovieWriter.makeMovie(
                following: URL(fileURLWithPath: dir.path("frames")), to: URL(fileURLWithPath: dir.path("f.mp4")),
                options: options)
        } throws: { error in
            guard let error = error as? FlipbookError else { return false }
            return error.code == .invalidSettings && error.message.contains("for listed images")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("f.mp4")))
    }
}
