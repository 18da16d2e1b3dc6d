import Foundation

/// The work behind ``MovieWriter/makeMovie(fromImagesAt:to:settings:size:overwrite:imageDuration:repeatFrames:imageLimits:segment:progress:)``.
///
/// The first image is decoded to learn the movie's size; then a few images at a time are decoded,
/// fitted and converted on several threads ahead of the encoder, and appended in order. At most
/// ``lookahead`` pictures wait at once, so memory does not grow with the number of images.
struct ImageSequenceJob {
    /// The images to encode (a segment's slice, or all).
    let images: [URL]
    /// The index of `images[0]` in the whole sequence.
    let firstImage: Int
    /// Images in the whole sequence.
    let totalImages: Int
    let url: URL
    let overwrite: Bool
    let settings: VideoSettings
    /// The movie's size; `nil` means the first image's, odd sides rounded up.
    let size: FrameSize?
    /// Encoded frames per image.
    let copies: Int
    let imageLimits: ImageLimits
    let segment: Segment?
    let progress: (@Sendable (SequenceProgress) -> Void)?

    /// Pictures decoded and prepared ahead of the encoder: one per core and one more.
    var lookahead: Int { ProcessInfo.processInfo.activeProcessorCount + 1 }

    func run() async throws -> MovieSummary {
        let started = Date()
        let first = try decode(0)
        let (writer, roundedFrom) = try await makeWriter(firstFrame: first)
        do {
            try await withThrowingTaskGroup(of: (Int, Result<YUVPicture, any Error>).self) { group in
                let preparer = writer.preparer
                group.addTask { (0, Result { try preparer.prepare(first) }) }
                var next = 1
                func schedule() {
                    guard next < images.count else { return }
                    let index = next
                    group.addTask { (index, Result { try preparer.prepare(try decode(index)) }) }
                    next += 1
                }
                for _ in 1..<lookahead { schedule() }
                var ready: [Int: Result<YUVPicture, any Error>] = [:]
                var appended = 0
                while appended < images.count, let (index, picture) = try await group.next() {
                    ready[index] = picture
                    while let picture = ready.removeValue(forKey: appended) {
                        try await append(picture, number: appended, to: writer)
                        appended += 1
                        schedule()
                        progress?(
                            SequenceProgress(
                                framesDone: appended, totalFrames: images.count,
                                elapsedSeconds: Date().timeIntervalSince(started)))
                    }
                }
            }
            var summary = try await writer.finish()
            summary.sizeRoundedFrom = roundedFrom
            return summary
        } catch {
            await writer.cancel()
            throw error
        }
    }

    /// Decodes image `index` of the slice, attributing a failure to its frame and file.
    private func decode(_ index: Int) throws -> Frame {
        do {
            return try ImageDecoder.decodeFile(at: images[index], limits: imageLimits)
        } catch let error as FlipbookError {
            throw error.attributed(toFrame: firstImage + index, path: images[index].path)
        }
    }

    /// The writer, sized from the first image unless a size was given.
    private func makeWriter(firstFrame frame: Frame) async throws -> (MovieWriter, FrameSize?) {
        var movieSettings = settings
        // Odd sides are rounded up, so the first image fits 1:1 with a one-pixel band.
        movieSettings.width = size?.width ?? (frame.width + frame.width % 2)
        movieSettings.height = size?.height ?? (frame.height + frame.height % 2)
        let rounded = size == nil && (frame.width % 2 != 0 || frame.height % 2 != 0)
        let writer = try MovieWriter(url: url, settings: movieSettings, overwrite: overwrite, imageLimits: imageLimits)
        if let segment {
            await writer.describeAsSegment(
                SegmentInfo(
                    segment: segment, firstFrame: firstImage, frames: images.count, totalFrames: totalImages,
                    settings: movieSettings.segmentSignature))
        }
        return (writer, rounded ? FrameSize(width: frame.width, height: frame.height) : nil)
    }

    /// Appends image `number`'s picture, `copies` times; a segment's first frame keeps the time it
    /// has in the whole movie.
    private func append(_ picture: Result<YUVPicture, any Error>, number: Int, to writer: MovieWriter) async throws {
        do {
            for copy in 0..<copies {
                let start =
                    number == 0 && copy == 0 && firstImage > 0
                    ? MediaTime(frame: firstImage * copies, at: settings.frameRate) : nil
                try await writer.append(prepared: picture, at: start, duration: nil)
            }
        } catch let error as FlipbookError {
            throw error.attributed(toFrame: firstImage + number, path: images[number].path)
        }
    }
}
