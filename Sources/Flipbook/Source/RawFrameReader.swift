import Foundation

/// Reads raw frames of one size and pixel format from a file or pipe (such as standard input), one
/// whole frame at a time, so memory stays at one frame however long the stream is.
///
/// ```swift
/// var reader = RawFrameReader(reading: .standardInput, width: 640, height: 360, format: .rgba)
/// while let frame = try reader.next() { try await writer.append(frame) }
/// ```
public struct RawFrameReader {
    /// Where the bytes come from.
    public let fileHandle: FileHandle
    /// Width of every frame in pixels.
    public let width: Int
    /// Height of every frame in pixels.
    public let height: Int
    /// The layout of every pixel; rows are tightly packed.
    public let format: PixelFormat
    /// Frames read so far.
    public private(set) var framesRead = 0

    /// Bytes in one frame.
    public var frameBytes: Int { width * height * format.bytesPerPixel }

    /// Creates a reader of `width` x `height` frames in `format` from `fileHandle`.
    public init(reading fileHandle: FileHandle, width: Int, height: Int, format: PixelFormat) {
        precondition(width > 0 && height > 0, "raw frames of \(width)x\(height)")
        self.fileHandle = fileHandle
        self.width = width
        self.height = height
        self.format = format
    }

    /// Reads the next frame; `nil` when the stream ends cleanly between frames.
    ///
    /// - Throws: ``FlipbookError`` `.invalidFrame` naming the frame index when the stream ends inside
    ///   a frame, and `.unreadableInput` when reading fails.
    public mutating func next() throws -> Frame? {
        var pixels = [UInt8]()
        pixels.reserveCapacity(frameBytes)
        while pixels.count < frameBytes {
            let chunk: Data?
            do {
                chunk = try fileHandle.read(upToCount: frameBytes - pixels.count)
            } catch {
                throw FlipbookError.rawFramesNotReadable(frame: framesRead, cause: error)
            }
            guard let chunk, !chunk.isEmpty else { break }
            pixels.append(contentsOf: chunk)
        }
        if pixels.isEmpty { return nil }
        guard pixels.count == frameBytes else {
            throw FlipbookError.rawFrameCutShort(
                frame: framesRead, got: pixels.count, of: frameBytes, width: width, height: height, format: format)
        }
        framesRead += 1
        return try Frame(width: width, height: height, format: format, pixels: pixels)
    }
}

extension MovieWriter {
    /// Makes a movie from raw frames read until the stream ends, in one call.
    ///
    /// - Parameters:
    ///   - reader: The source of frames.
    ///   - url: The movie's destination.
    ///   - settings: The movie's settings; frames of another size are fitted by `settings.fit`.
    ///   - overwrite: Whether an existing file at `url` may be replaced.
    ///   - metadata: The title, artist, creation date and other tags written into the movie; none by default.
    /// - Returns: What was written.
    /// - Throws: ``FlipbookError`` naming the frame at fault (`.invalidFrame` for a short last frame,
    ///   `.invalidState` for a stream without frames); nothing is left at `url` then.
    public static func makeMovie(
        fromRawFrames reader: RawFrameReader, to url: URL, settings: VideoSettings, overwrite: Bool = false,
        metadata: MovieMetadata = MovieMetadata()
    ) async throws -> MovieSummary {
        var reader = reader
        let writer = try MovieWriter(url: url, settings: settings, overwrite: overwrite, metadata: metadata)
        do {
            while let frame = try reader.next() {
                try await writer.append(frame)
            }
            return try await writer.finish()
        } catch {
            await writer.cancel()
            throw error
        }
    }
}
