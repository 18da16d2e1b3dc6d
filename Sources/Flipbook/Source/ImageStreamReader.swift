import Foundation

/// Reads whole image files sent back to back on a pipe or file (`cat *.png | flipbook - --stdin images`),
/// one image's bytes at a time, cutting the stream where each image's own structure ends
/// (``ImageStreamSplitting``).
///
/// Reads are single `read` calls of what the pipe holds, so an image is handed on as soon as its
/// last byte has come, and the buffer holds one image and at most one read beyond it.
///
/// Sendable because it is used by one task at a time: ``ImageStream``'s iterator calls ``next()``
/// once per image, each call after the last one returned.
final class ImageStreamReader: @unchecked Sendable {
    /// The most bytes one image on the stream may take; a longer one is refused.
    static let largestImage = 1 << 30
    /// The bytes asked of one read when a walk does not know how many it needs.
    private static let readSize = 1 << 16

    private let fileHandle: FileHandle
    /// What the input is, for messages.
    private let name: String
    private var buffer: [UInt8] = []
    /// Where the next image starts in ``buffer``.
    private var start = 0
    /// The offset in the stream of `buffer[0]`.
    private var consumed = 0
    /// Whether the stream has ended (a read gave nothing).
    private var ended = false
    /// Images handed on so far: the next image's frame index.
    private(set) var imagesRead = 0

    init(reading fileHandle: FileHandle) {
        self.fileHandle = fileHandle
        name = fileHandle.fileDescriptor == FileHandle.standardInput.fileDescriptor ? "standard input" : "the input"
    }

    /// The next image's bytes; `nil` when the stream ends between images. A last image cut short is
    /// handed on as it is, for the caller to refuse or skip like any damaged image.
    ///
    /// - Throws: ``FlipbookError`` naming the frame index and the byte offset: `.unsupportedImage`
    ///   for bytes that start no image Flipbook finds the end of (garbage between images, or a TIFF),
    ///   `.corruptImage` for an image whose structure is broken so its end cannot be found,
    ///   `.unreadableInput` when reading fails.
    func next() throws -> Data? {
        var progress: ImageStreamSplitting.Progress
        findStart: while true {
            if buffer.count == start && ended { return nil }
            switch withBytes({ ImageStreamSplitting.start(of: $0, atEnd: ended) }) {
            case .image(let found):
                progress = found
                break findStart
            case .needsMore: try fill(atLeast: ImageStreamSplitting.signatureBytes)
            case .cutShort: return take(buffer.count - start)
            case .tiff:
                throw FlipbookError.streamHoldsTIFF(at: consumed + start, of: name, image: imagesRead)
            case .notAnImage(let format):
                let what = format.map { "a \($0) file, which is not read here" } ?? "not the start of an image"
                throw FlipbookError.streamHoldsNoImage(at: consumed + start, of: name, what, image: imagesRead)
            }
        }
        while true {
            switch withBytes({ ImageStreamSplitting.advance(progress, in: $0, atEnd: ended) }) {
            case .image(let length): return take(length)
            case .needsMore(let next, let atLeast):
                if ended { return take(buffer.count - start) }
                guard atLeast <= Self.largestImage else {
                    throw FlipbookError.streamImageTooLarge(
                        progress.kind.rawValue, at: consumed + start, of: name, largest: Self.largestImage,
                        needs: atLeast, image: imagesRead)
                }
                progress = next
                try fill(atLeast: atLeast)
            case .malformed(let at, let reason):
                throw FlipbookError.streamImageMalformed(reason, at: consumed + start + at, of: name, image: imagesRead)
            }
        }
    }

    /// Runs `body` over the bytes from the next image's start.
    private func withBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    /// Hands on the next `length` bytes as one image.
    private func take(_ length: Int) -> Data {
        let image = Data(buffer[start..<start + length])
        start += length
        imagesRead += 1
        return image
    }

    /// Reads until at least `count` bytes from the next image's start are there, or the stream ends.
    private func fill(atLeast count: Int) throws {
        if start > 0 {
            buffer.removeFirst(start)
            consumed += start
            start = 0
        }
        while buffer.count < count && !ended {
            // A pipe hands over at most its buffer (64 KiB) a read; asking a little more serves files.
            let wanted = min(max(count - buffer.count, Self.readSize), 4 * Self.readSize)
            let got = try FrameOrigin(index: imagesRead).attributing {
                try POSIXFile.readAvailable(
                    fileHandle.fileDescriptor, upTo: wanted, appendingTo: &buffer, path: name)
            }
            ended = got == 0
        }
    }
}

/// Whole image files (PNG, JPEG, WebP, HEIC, AVIF) sent back to back on a pipe or file, such as
/// standard input, as an asynchronous sequence of each image's bytes in the order they come: what
/// `cat *.png | ffmpeg -f image2pipe -i -` reads.
///
/// Each image is recognised by its signature and its end found from its own structure (PNG's
/// chunks, JPEG's markers and scans, WebP's RIFF size, HEIF's top-level boxes), so nothing but whole
/// images may be on the stream. A TIFF is refused: it has no end of its own.
///
/// ```swift
/// let movie = try await MovieWriter.makeMovie(
///     fromImageData: ImageStream(reading: .standardInput), to: URL(filePath: "movie.mp4"),
///     options: SequenceOptions())
/// ```
///
/// Reading blocks a thread of its own, never one of Swift concurrency's; memory holds one image and
/// one read beyond it.
///
/// - Important: The sequence throws ``FlipbookError`` naming the frame index and the byte offset
///   for bytes between images that start no image (`.unsupportedImage`, also for a TIFF), for an
///   image whose structure is broken so its end cannot be found (`.corruptImage`), and for a failed
///   read (`.unreadableInput`). A last image cut short by the end of the stream is handed on as it
///   is; ``MovieWriter/makeMovie(fromImageData:to:options:)`` refuses it as `.corruptImage` (or
///   skips it).
public struct ImageStream: AsyncSequence, Sendable {
    /// One whole image file's bytes.
    public typealias Element = Data

    /// Where the bytes come from.
    public let fileHandle: FileHandle

    /// The formats a stream may hold, as a sentence lists them: `PNG, JPEG, WebP, HEIC or AVIF`
    /// (every format of ``ImageFormat/all`` but TIFF, which has no end of its own, and GIF).
    public static var formatList: String {
        spokenList(
            ImageFormat.all.filter(\.streams).flatMap { $0.name.components(separatedBy: ", ") }, joinedBy: "or")
    }

    /// Creates a sequence of the images read from `fileHandle`; reading starts with the first image asked for.
    public init(reading fileHandle: FileHandle) {
        self.fileHandle = fileHandle
    }

    /// An iterator that reads the images from the file handle's current position.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: ImageStreamReader(reading: fileHandle))
    }

    /// Reads the images one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: ImageStreamReader
        /// Reads are blocking calls, made here so they hold no thread Swift concurrency shares.
        private let queue = DispatchQueue(label: "flipbook.image-stream")

        /// The next image's bytes, or `nil` when the stream has ended.
        public mutating func next() async throws -> Data? {
            let (reader, queue) = (reader, queue)
            return try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(with: Result { try reader.next() }) }
            }
        }
    }
}
