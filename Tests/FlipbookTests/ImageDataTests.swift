import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// Images from memory (`append(imageData:)`, `makeMovie(fromImageData:)`) and from a stream
/// (`ImageStream`) give the movie the same files give, byte for byte, judged by ffprobe; errors name
/// the frame index.
@Suite struct ImageDataTests {
    /// PNGs and EXIF-turned JPEGs (with a thumbnail inside APP1), written to `folder`: their paths.
    static func images(in folder: String) throws -> [String] {
        var files = try SampleImages.write(count: 3, width: 96, height: 64, into: folder)
        let jpegs = try SampleImages.write(count: 2, width: 96, height: 64, into: folder, prefix: "j", format: "jpg")
        let thumbnail = try SampleImages.write(
            count: 1, width: 16, height: 16, into: folder, prefix: "t", format: "jpg")
        let thumbnailBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: thumbnail[0])))
        for jpeg in jpegs {
            let turned = TestJPEG.withOrientation(
                try Data(contentsOf: URL(fileURLWithPath: jpeg)), 3, thumbnail: thumbnailBytes)
            try turned.write(to: URL(fileURLWithPath: jpeg))
            files.append(jpeg)
        }
        try FileManager.default.removeItem(atPath: thumbnail[0])
        return files
    }

    /// A phone's multi-picture JPEG: `first` with an APP2 MPF index naming itself and `second`,
    /// which follows its end-of-image marker.
    static func multiPicture(_ first: Data, _ second: Data) -> Data {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value >> 16) + u16(value & 0xFFFF) }
        let segmentLength = 66
        let firstLength = first.count + segmentLength
        let base = 2 + 4 + 4  // SOI, the APP2 marker and length, "MPF\0": offsets count from the byte order mark
        var index: [UInt8] = Array("MM".utf8) + [0, 0x2A] + u32(8) + u16(1)
        index += u16(0xB002) + u16(7) + u32(32) + u32(26) + u32(0)
        index += u32(0x2003_0000) + u32(firstLength) + u32(0) + u16(0) + u16(0)
        index += u32(0) + u32(second.count) + u32(firstLength - base) + u16(0) + u16(0)
        let payload = Array("MPF\u{0}".utf8) + index
        var bytes = [UInt8](first)
        bytes.insert(contentsOf: [0xFF, 0xE2] + u16(payload.count + 2) + payload, at: 2)
        precondition(bytes.count == firstLength)
        return Data(bytes) + second
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func appendImageDataGivesTheMovieAppendImageAtGives() async throws {
        let dir = try TemporaryDirectory()
        let files = try Self.images(in: try dir.folder("images"))
        let settings = VideoSettings(width: 96, height: 64, frameRate: FrameRate(30), crf: 18)
        let times: [(MediaTime?, MediaTime?)] = [
            (nil, nil), (nil, MediaTime(value: 1, timescale: 2)), (nil, nil), (MediaTime(value: 1, timescale: 1), nil),
            (nil, MediaTime(value: 1, timescale: 3)),
        ]
        var movies: [String] = []
        for fromMemory in [false, true] {
            let movie = dir.path(fromMemory ? "memory.mp4" : "files.mp4")
            let writer = try MovieWriter(url: URL(fileURLWithPath: movie), settings: settings)
            for (file, (time, duration)) in zip(files, times) {
                if fromMemory {
                    try await writer.append(imageData: try Self.bytes(file), at: time, duration: duration)
                } else {
                    try await writer.append(imageAt: URL(fileURLWithPath: file), at: time, duration: duration)
                }
            }
            _ = try await writer.finish()
            movies.append(movie)
        }
        #expect(try Self.bytes(movies[0]) == Self.bytes(movies[1]), "the same bytes give the same movie")
        let frames = try Judge.frames(of: movies[1])
        #expect(frames.map(\.ptsTime) == ["0.000000", "0.033333", "0.533333", "1.000000", "1.033333"])
        #expect(try Judge.formatDuration(of: movies[1]) == "1.366667")
    }

    @Test func aDamagedImageInMemoryNamesItsFrameWithTheFileErrorsCodeAndLeavesTheWriterUsable() async throws {
        let dir = try TemporaryDirectory()
        let files = try Self.images(in: try dir.folder("images"))
        let png = try Self.bytes(files[0])
        let settings = VideoSettings(width: 96, height: 64, frameRate: FrameRate(30))
        let url = dir.url.appendingPathComponent("movie.mp4")
        let writer = try MovieWriter(url: url, settings: settings)
        let fileWriter = try MovieWriter(url: dir.url.appendingPathComponent("files.mp4"), settings: settings)
        try await writer.append(imageData: png)
        for (index, data) in [Data("GIF89a, not one of ours".utf8), png.prefix(png.count / 2)].enumerated() {
            let file = dir.path("images/damaged\(index)")
            try data.write(to: URL(fileURLWithPath: file))
            var fileCode: FlipbookError.Code?
            do { try await fileWriter.append(imageAt: URL(fileURLWithPath: file)) } catch let error as FlipbookError {
                fileCode = error.code
            }
            #expect(fileCode != nil, "the file is refused")
            await #expect {
                try await writer.append(imageData: data)
            } throws: { error in
                let error = error as? FlipbookError
                return error?.code == fileCode && error?.frameIndex == 1 && error?.path == nil
                    && error?.description.hasPrefix("frame 1: ") == true
            }
        }
        try await writer.append(imageData: try Self.bytes(files[3]))
        let movie = try await writer.finish()
        await fileWriter.cancel()
        #expect(movie.frames == 2)
        #expect(try Judge.stream(of: url.path).frameCount == 2)
        #expect(try Judge.decodeErrors(of: url.path) == "")

        // The same limits as for files: a PNG over 80 pixels wide is refused by both, with one code.
        let limited = try MovieWriter(
            url: dir.url.appendingPathComponent("limited.mp4"), settings: settings,
            imageLimits: ImageLimits(maxDimension: 80))
        var codes: [FlipbookError.Code?] = []
        for fromMemory in [false, true] {
            do {
                if fromMemory {
                    try await limited.append(imageData: png)
                } else {
                    try await limited.append(imageAt: URL(fileURLWithPath: files[0]))
                }
                codes.append(nil)
            } catch let error as FlipbookError {
                codes.append(error.code)
            }
        }
        await limited.cancel()
        #expect(codes[0] != nil && codes[0] == codes[1], "\(codes)")
    }

    /// An async sequence of the files' bytes gives the movie the files give, with and without an
    /// image that cannot be decoded (skipped the same way).
    @Test(arguments: [false, true])
    func makeMovieFromASequenceOfBytesGivesTheFilesMovie(withDamagedImage: Bool) async throws {
        let dir = try TemporaryDirectory()
        var files = try Self.images(in: try dir.folder("images"))
        if withDamagedImage {
            let damaged = dir.path("images/damaged.png")
            try Self.bytes(files[0]).prefix(300).write(to: URL(fileURLWithPath: damaged))
            files.insert(damaged, at: 2)
        }
        var options = SequenceOptions(settings: VideoSettings(frameRate: FrameRate(30), crf: 18))
        options.skipInvalidImages = withDamagedImage
        // Numbered files give the movie a timecode; bytes in memory have no numbers.
        options.settings.timecode = .none
        let fromFiles = dir.url.appendingPathComponent("files.mp4")
        let fromMemory = dir.url.appendingPathComponent("memory.mp4")
        let filesMovie = try await MovieWriter.makeMovie(
            fromImagesAt: files.map { URL(fileURLWithPath: $0) }, to: fromFiles, options: options)
        let contents = try files.map(Self.bytes)
        let stream = AsyncStream<Data> { continuation in
            for data in contents { continuation.yield(data) }
            continuation.finish()
        }
        let memoryMovie = try await MovieWriter.makeMovie(fromImageData: stream, to: fromMemory, options: options)
        #expect(try Self.bytes(fromFiles.path) == Self.bytes(fromMemory.path), "the same movie byte for byte")
        #expect(
            memoryMovie.frames == filesMovie.frames && memoryMovie.skippedImages.count == (withDamagedImage ? 1 : 0))
        if withDamagedImage {
            #expect(memoryMovie.skippedImages.first?.frameIndex == 2)
            #expect(memoryMovie.skippedImages.first?.description.contains("cut short") == true)
        }
        let times = try Judge.frames(of: fromMemory.path).map(\.ptsTime)
        #expect(times.count == 5)
        #expect(try Judge.formatDuration(of: fromMemory.path) == (withDamagedImage ? "0.200000" : "0.166667"))
    }

    @Test func anEmptySequenceAndAFailingSequenceLeaveNothing() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("movie.mp4")
        await #expect {
            _ = try await MovieWriter.makeMovie(
                fromImageData: AsyncStream<Data> { $0.finish() }, to: url, options: SequenceOptions())
        } throws: { ($0 as? FlipbookError)?.code == .invalidSettings }
        let png = try Self.bytes(try SampleImages.write(count: 1, width: 32, height: 32, into: dir.url.path)[0])
        struct Broken: Error {}
        let failing = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(png)
            continuation.yield(png)
            continuation.finish(throwing: Broken())
        }
        await #expect(throws: Broken.self) {
            _ = try await MovieWriter.makeMovie(fromImageData: failing, to: url, options: SequenceOptions())
        }
        #expect(dir.entries() == ["frame1.png"], "nothing at the destination, no temporary file")
    }

    /// An image stream read from a file hands out exactly each file's bytes, in order; TIFF and bytes
    /// between images are refused naming the frame and the byte offset.
    @Test func anImageStreamCutsTheFilesWhereTheyEnd() async throws {
        let dir = try TemporaryDirectory()
        let files = try Self.images(in: try dir.folder("images"))
        var contents = try files.map(Self.bytes)
        contents.insert(Self.multiPicture(contents[3], contents[4]), at: 1)
        let joined = dir.path("joined")
        try contents.reduce(Data(), +).write(to: URL(fileURLWithPath: joined))
        var read: [Data] = []
        for try await image in ImageStream(reading: try FileHandle(forReadingFrom: URL(fileURLWithPath: joined))) {
            read.append(image)
        }
        #expect(
            read == contents, "each image as its file holds it: \(read.map(\.count)) against \(contents.map(\.count))")

        let garbage = dir.path("garbage")
        try (contents[0] + Data([0, 1, 2, 3]) + contents[1]).write(to: URL(fileURLWithPath: garbage))
        await #expect {
            for try await _ in ImageStream(reading: try FileHandle(forReadingFrom: URL(fileURLWithPath: garbage))) {}
        } throws: { error in
            let error = error as? FlipbookError
            return error?.code == .unsupportedImage && error?.frameIndex == 1
                && error?.message.contains("byte \(contents[0].count)") == true
        }
    }

    /// Every way of cutting an image's bytes into reads gives the same end: a walk resumed after
    /// each read finds the image's length, and a walk over any strict prefix at the end of the
    /// stream says it is cut short.
    @Test func aWalkResumedAfterEveryReadFindsTheSameEnd() throws {
        let dir = try TemporaryDirectory()
        let files = try Self.images(in: try dir.folder("images"))
        let next = try Self.bytes(files[0])
        for file in files {
            let image = try Self.bytes(file)
            let stream = [UInt8](image + next)
            for step in [1, 7, 64, 1000] {
                var length = 0
                var progress: ImageStreamSplitting.Progress?
                var end: Int?
                while end == nil && length < stream.count {
                    length = min(stream.count, length + step)
                    let bytes = Array(stream.prefix(length))
                    bytes.withUnsafeBytes { buffer in
                        if progress == nil,
                            case .image(let start) = ImageStreamSplitting.start(of: buffer, atEnd: false)
                        {
                            progress = start
                        }
                        if let current = progress {
                            switch ImageStreamSplitting.advance(current, in: buffer, atEnd: false) {
                            case .image(let found): end = found
                            case .needsMore(let resume, _): progress = resume
                            case .malformed(let at, let reason):
                                Issue.record("\(file) malformed at \(at): \(reason)")
                            }
                        }
                    }
                }
                #expect(end == image.count, "\(file) in reads of \(step): \(String(describing: end)) of \(image.count)")
            }
            for cut in [1, 9, image.count / 3, image.count - 1] {
                let reason = Array(image.prefix(cut)).withUnsafeBytes(ImageStreamSplitting.cutShort)
                #expect(reason != nil, "\(file) cut at \(cut) is cut short")
            }
            #expect(Array(image).withUnsafeBytes(ImageStreamSplitting.cutShort) == nil)
        }
    }
}
