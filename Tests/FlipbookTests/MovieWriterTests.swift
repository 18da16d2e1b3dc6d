import FlipbookTestSupport
import Foundation
import ISOBMFF
import Testing

@testable import Flipbook

@Suite struct MovieWriterTests {
    /// A frame whose colours change with `index`: a gradient plus a moving bar.
    static func syntheticFrame(_ index: Int, width: Int, height: Int, format: PixelFormat = .rgba) throws -> Frame {
        var pixels = [UInt8](repeating: 255, count: width * height * format.bytesPerPixel)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * format.bytesPerPixel
                let bar = abs(x - (index * 7) % width) < 6
                pixels[offset] = UInt8((x * 255) / width)
                pixels[offset + 1] = bar ? 250 : UInt8((y * 255) / height)
                pixels[offset + 2] = UInt8((index * 11) % 256)
            }
        }
        return try Frame(width: width, height: height, format: format, pixels: pixels)
    }

    @Test func framesInMemoryBecomeAMovieWithExactTimes() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("memory.mp4")
        let writer = try MovieWriter(
            url: url, settings: VideoSettings(width: 160, height: 90, frameRate: FrameRate(24), crf: 20))
        for index in 0..<24 {
            try await writer.append(Self.syntheticFrame(index, width: 160, height: 90))
        }
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing at the destination before finish")
        let movie = try await writer.finish()
        #expect(movie.frames == 24)
        #expect(movie.duration == MediaTime(value: 1, timescale: 1))
        #expect(movie.bytes == UInt64(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int))

        let frames = try Judge.frames(of: url.path)
        #expect(frames.map(\.pts) == (0..<24).map { Int64($0) * 500 })
        #expect(frames.allSatisfy { $0.duration == 500 })
        #expect(try Judge.formatDuration(of: url.path) == "1.000000")
        #expect(try Judge.decodeErrors(of: url.path) == "")
        #expect(dir.entries() == ["memory.mp4"])
    }

    @Test func aFrameOfAnotherSizeIsFittedAndAnInconsistentBufferIsRefused() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("sizes.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 64, height: 64, preset: .ultrafast))
        try await writer.append(Self.syntheticFrame(0, width: 64, height: 64))
        try await writer.append(Self.syntheticFrame(1, width: 66, height: 40))
        #expect {
            _ = try Frame(width: 66, height: 64, format: .rgba, pixels: [UInt8](repeating: 0, count: 66 * 63 * 4))
        } throws: { error in
            let error = error as? FlipbookError
            return error?.code == .invalidFrame && error?.description.contains("66x64") == true
        }
        try await writer.append(Self.syntheticFrame(2, width: 64, height: 64, format: .bgra))
        let movie = try await writer.finish()
        #expect(movie.frames == 3)
        let stream = try Judge.stream(of: url.path)
        #expect(stream.frameCount == 3)
        #expect(stream.width == 64 && stream.height == 64)
    }

    @Test func imageFilesAreAppendedAndAnUnreadableOneNamesItsIndexAndPath() async throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let images = try SampleImages.write(count: 2, width: 64, height: 48, into: frames)
        let text = dir.path("notes.png")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: text))
        let url = dir.url.appendingPathComponent("files.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 64, height: 48, preset: .ultrafast))
        try await writer.append(imageAt: URL(fileURLWithPath: images[0]))
        do {
            try await writer.append(imageAt: URL(fileURLWithPath: text))
            Issue.record("a text file must not decode")
        } catch let error as FlipbookError {
            #expect(error.frameIndex == 1)
            #expect(error.path == text)
        }
        try await writer.append(imageAt: URL(fileURLWithPath: images[1]))
        #expect(try await writer.finish().frames == 2)
        #expect(try Judge.stream(of: url.path).frameCount == 2)
    }

    @Test func appendAfterFinishAndFinishTwiceThrowInvalidState() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("once.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 32, height: 32, preset: .ultrafast))
        try await writer.append(Self.syntheticFrame(0, width: 32, height: 32, format: .rgb))
        _ = try await writer.finish()
        let bytes = try Data(contentsOf: url)
        for attempt in 0..<2 {
            do {
                if attempt == 0 {
                    try await writer.append(Self.syntheticFrame(1, width: 32, height: 32))
                } else {
                    _ = try await writer.finish()
                }
                Issue.record("a finished writer must throw")
            } catch let error as FlipbookError {
                #expect(error.code == .invalidState)
            }
        }
        await writer.cancel()
        #expect(try Data(contentsOf: url) == bytes, "cancel after finish leaves the movie alone")
    }

    @Test func finishWithoutFramesThrowsAndCancelLeavesNothingBehind() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("empty.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 32, height: 32))
        await #expect(throws: FlipbookError.self) { _ = try await writer.finish() }
        #expect(dir.entries().count == 1, "the hidden media file exists while writing")
        await writer.cancel()
        #expect(dir.entries().isEmpty)
        await #expect(throws: FlipbookError.self) {
            try await writer.append(Self.syntheticFrame(0, width: 32, height: 32))
        }
    }

    @Test func anExistingFileIsRefusedAtCreationUnlessOverwriting() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("taken.mp4")
        try Data("precious".utf8).write(to: url)
        do {
            _ = try MovieWriter(url: url, settings: VideoSettings(width: 32, height: 32))
            Issue.record("creation must fail")
        } catch let error as FlipbookError {
            #expect(error.code == .outputExists)
            #expect(error.path == url.path)
        }
        #expect(try Data(contentsOf: url) == Data("precious".utf8))
        #expect(dir.entries() == ["taken.mp4"])

        let writer = try MovieWriter(
            url: url, settings: VideoSettings(width: 32, height: 32, preset: .ultrafast), overwrite: true)
        try await writer.append(Self.syntheticFrame(0, width: 32, height: 32))
        #expect(try Data(contentsOf: url) == Data("precious".utf8), "untouched until finish")
        _ = try await writer.finish()
        #expect(try Judge.stream(of: url.path).frameCount == 1)
    }

    @Test(arguments: [(31, 32), (32, 0), (20000, 32)])
    func settingsOutOfRangeAreRefused(width: Int, height: Int) throws {
        let dir = try TemporaryDirectory()
        #expect(throws: FlipbookError.self) {
            _ = try MovieWriter(
                url: dir.url.appendingPathComponent("x.mp4"), settings: VideoSettings(width: width, height: height))
        }
        #expect(dir.entries().isEmpty)
    }

    @Test func anEncoderFailureFailsTheWriterRemovesItsFilesAndIsThrownAgain() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("broken.mp4")
        let writer = try MovieWriter(
            destination: MovieDestination(url, overwrite: false), settings: VideoSettings(width: 16, height: 16),
            imageLimits: ImageLimits()
        ) { _, _ in FailingEncoder(failAt: 2) }
        try await writer.append(Self.syntheticFrame(0, width: 16, height: 16))
        try await writer.append(Self.syntheticFrame(1, width: 16, height: 16))
        // Frame 2 is accepted and encoded while the caller prepares frame 3: its failure is thrown by
        // the next call, and by every call after that.
        try await writer.append(Self.syntheticFrame(2, width: 16, height: 16))
        for index in 3..<5 {
            do {
                try await writer.append(Self.syntheticFrame(index, width: 16, height: 16))
                Issue.record("the encoder's failure must surface")
            } catch let error as FlipbookError {
                #expect(error.code == .encoderFailed)
                #expect(error.message == "fake failure at picture 2")
            }
        }
        await #expect(throws: FlipbookError.self) { _ = try await writer.finish() }
        #expect(dir.entries().isEmpty)
    }
}

/// An encoder that emits one dummy packet per picture and fails on a chosen picture.
final class FailingEncoder: VideoEncoder {
    let failAt: Int
    var count = 0
    let sampleEntry: any SampleEntry = VideoSampleEntry.avc(
        width: 64, height: 48,
        decoderConfiguration: AVCDecoderConfiguration(
            sequenceParameterSets: [[0x67, 0x64, 0x00, 0x1F]], pictureParameterSets: [[0x68, 0xEE]]))
    let codecName = "h264"
    let pictureFormat = PictureFormat.yuv420

    init(failAt: Int) { self.failAt = failAt }

    func encode(_ picture: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket] {
        defer { count += 1 }
        if count == failAt { throw FlipbookError(.encoderFailed, "fake failure at picture \(count)") }
        return [
            EncodedPacket(
                data: [0, 0, 0, 1, 0x65], presentationTime: presentationTime, decodeTime: presentationTime,
                isKeyframe: true)
        ]
    }

    func flush() throws -> [EncodedPacket] { [] }
}

extension MovieWriterTests {
    /// On ext4 and XFS the header is inserted in front of the media without copying it; elsewhere
    /// the media is copied after it. Either way the movie is the same, moov first.
    @Test func theHeaderGoesInFrontOfTheMediaWithWholeBlocksWhereTheFileSystemAllows() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("blocks.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 64, height: 64, preset: .ultrafast))
        for index in 0..<30 { try await writer.append(Self.syntheticFrame(index, width: 64, height: 64)) }
        let movie = try await writer.finish()
        let bytes = [UInt8](try Data(contentsOf: url))
        let boxes = try BoxReader.parse(bytes)
        #expect(boxes.map(\.type).filter { $0 != "free" } == ["ftyp", "moov", "mdat"])
        if let free = boxes.first("free") {
            let mdat = try #require(boxes.first("mdat"))
            #expect(mdat.offset == free.end)
            #expect(mdat.payloadRange.lowerBound % 512 == 0, "the media starts on a block boundary")
        }
        #expect(movie.bytes == UInt64(bytes.count))
        #expect(try SampleTableReader(bytes: bytes).validate() == [])
        #expect(try Judge.stream(of: url.path).frameCount == 30)
        #expect(dir.entries() == ["blocks.mp4"])
    }
}
