import Foundation

/// The work behind ``MovieWriter/makeMovie(fromImagesAt:to:settings:size:overwrite:imageDuration:repeatFrames:imageLimits:segment:skipInvalidImages:progress:)``.
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
    /// Whether images that cannot be read or decoded are left out (see ``SkippedImages``).
    let skipInvalidImages: Bool
    let progress: (@Sendable (SequenceProgress) -> Void)?

    /// Pictures decoded and prepared ahead of the encoder: ``VideoSettings/decodeWorkers``, or one
    /// per core (at least two).
    var lookahead: Int {
        settings.decodeWorkers > 0 ? settings.decodeWorkers : max(2, ProcessInfo.processInfo.activeProcessorCount)
    }

    func run() async throws -> MovieSummary {
        let started = Date()
        var skipping = SkippedImages(enabled: skipInvalidImages)
        // The first image that can be used sizes the movie.
        var (firstUsable, first): (Int, Frame?) = (0, nil)
        while first == nil {
            do {
                first = try decode(firstUsable)
            } catch let error as FlipbookError where skipping.maySkip(error) {
                skipping.skip(error)
                firstUsable += 1
                guard firstUsable < images.count else { throw skipping.nothingLeft(of: images.count) }
            }
        }
        let (usable, firstFrame) = (firstUsable, first!)
        let (writer, roundedFrom) = try await makeWriter(firstFrame: firstFrame)
        do {
            try await withThrowingTaskGroup(of: (Int, Result<YUVPicture, any Error>).self) { group in
                let preparer = writer.preparer
                group.addTask { (usable, Result { try preparer.prepare(firstFrame) }) }
                var next = usable + 1
                func schedule() {
                    guard next < images.count else { return }
                    let index = next
                    group.addTask { (index, Result { try preparer.prepare(try decode(index)) }) }
                    next += 1
                }
                for _ in 1..<lookahead { schedule() }
                var ready: [Int: Result<YUVPicture, any Error>] = [:]
                var appended = usable
                while appended < images.count, let (index, picture) = try await group.next() {
                    ready[index] = picture
                    while let picture = ready.removeValue(forKey: appended) {
                        if case .failure(let error as FlipbookError) = picture, skipping.maySkip(error) {
                            skipping.skip(error)
                        } else {
                            let start = skipping.startTime(
                                ofImage: firstImage + appended, firstImage: firstImage, copies: copies,
                                rate: settings.frameRate)
                            try await append(picture, number: appended, start: start, to: writer)
                            skipping.wrote()
                        }
                        appended += 1
                        schedule()
                        progress?(
                            SequenceProgress(
                                framesDone: appended, totalFrames: images.count,
                                elapsedSeconds: Date().timeIntervalSince(started)))
                    }
                }
            }
            if !skipping.errors.isEmpty {
                // The last frame written lasts until the sequence ends: images skipped after it (or,
                // when it is the only one, before it) give it their time.
                try await writer.extendLastFrame(
                    until: MediaTime(frame: (firstImage + images.count) * copies, at: settings.frameRate))
            }
            var summary = try await writer.finish()
            summary.sizeRoundedFrom = roundedFrom
            summary.skippedImages = skipping.errors
            return summary
        } catch {
            await writer.cancel()
            throw error
        }
    }

    /// Decodes image `index` of the slice, attributing a failure to its frame and file.
    private func decode(_ index: Int) throws -> Frame {
        do {
            return try ImageDecoder.decodeFile(
                at: images[index], limits: imageLimits, sizeHint: DecodeSizeHint(movieSize: size, fit: settings.fit))
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

    /// Appends image `number`'s picture, `copies` times, the first at `start` when given (a
    /// segment's first frame keeps the time it has in the whole movie; see ``SkippedImages``).
    private func append(
        _ picture: Result<YUVPicture, any Error>, number: Int, start: MediaTime?, to writer: MovieWriter
    ) async throws {
        do {
            for copy in 0..<copies {
                try await writer.append(prepared: picture, at: copy == 0 ? start : nil, duration: nil)
            }
        } catch let error as FlipbookError {
            throw error.attributed(toFrame: firstImage + number, path: images[number].path)
        }
    }
}
