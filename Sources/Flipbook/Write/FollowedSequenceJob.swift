import Foundation

/// The work behind ``MovieWriter/makeMovie(following:to:options:)``.
///
/// The first image to arrive is decoded to learn the movie's size; after it, the ordered decode
/// pipeline (``OrderedDecoding``, with the follower as its arrivals) prepares every image the
/// follower hands over a few at a time, and each is appended in number order. When nothing is
/// being prepared the pipeline waits for the follower, so an image is taken as soon as it is complete. The movie is fragmented: every
/// finished fragment is on disk, in the hidden file beside the destination, while following goes on.
struct FollowedSequenceJob {
    let follower: SequenceFollower
    let destination: MovieDestination
    let settings: VideoSettings
    let size: FrameSize?
    let copies: Int
    let imageLimits: ImageLimits
    let gaps: GapPolicy
    /// The tags written into the movie.
    let metadata: MovieMetadata
    let progress: (@Sendable (SequenceProgress) -> Void)?

    var lookahead: Int {
        settings.imagesDecodedAhead
    }

    func run() async throws -> MovieSummary {
        let started = Date()
        progress?(
            SequenceProgress(
                framesDone: 0, totalFrames: 0, elapsedSeconds: 0, isFollowing: true, waitingFor: follower.next))
        guard let first = try await follower.waitForNext() else {
            if follower.stopped {
                throw FlipbookError(
                    .unreadableInput, "following was stopped before any image of the sequence arrived",
                    path: follower.folder.path)
            }
            throw FlipbookError(
                .unreadableInput,
                "no image of the sequence arrived within \(follower.policy.timeout); nothing to make a movie of",
                path: follower.folder.path)
        }
        let origin = FrameOrigin(index: 0, path: first.url.path)
        let firstFrame = try origin.attributing {
            try ImageDecoder.decodeImageFile(
                ImageReference(file: first.url), .firstImage(size: size, of: settings, limits: imageLimits))
        }
        let (writer, roundedFrom) = try makeWriter(firstFrame: firstFrame)
        do {
            var taken = 0
            func report(waiting: Bool) {
                progress?(
                    SequenceProgress(
                        framesDone: taken, totalFrames: totalFrames(taken: taken),
                        elapsedSeconds: Date().timeIntervalSince(started), isFollowing: true,
                        framesWaitedFor: follower.waitedFor, waitingFor: waiting ? follower.next : nil))
            }
            // The movie's size is known from here on, given or taken from the first image.
            let request = DecodeRequest.frame(of: writer.settings, limits: imageLimits)
            let pipeline = OrderedDecoding<SequenceFollower>(
                lookahead: lookahead, preparer: writer.preparer,
                decode: { image in try ImageDecoder.decodeImageFile(ImageReference(file: image.url), request) })
            var arrivals = follower
            try await pipeline.run(
                &arrivals, first: (0, first, firstFrame),
                waiting: {
                    follower.noteWaiting()
                    report(waiting: true)
                },
                take: { index, image, picture in
                    let origin = FrameOrigin(index: index, path: image.url.path)
                    let start = startByNumber(of: image)
                    for copy in 0..<copies {
                        try await writer.append(
                            prepared: picture.mapError { origin.attribute(any: $0) }, at: copy == 0 ? start : nil,
                            duration: nil, origin: origin)
                    }
                    taken += 1
                    report(waiting: false)
                })
            if let end = endByNumber() { try await writer.extendLastFrame(until: end) }
            var summary = try await writer.finish()
            summary.sizeRoundedFrom = roundedFrom
            if !follower.missing.isEmpty {
                summary.missingNumbers = follower.missing
                summary.gapDescription = follower.gapDescription
            }
            summary.warnings = follower.notes + summary.warnings
            return summary
        } catch {
            await writer.cancel()
            throw error
        }
    }

    /// Frames in the sequence as far as is known: the last number's, or those taken so far.
    private func totalFrames(taken: Int) -> Int {
        guard let last = follower.policy.lastNumber, let first = follower.firstNumber else { return taken }
        return max(taken, last - first + 1 - follower.missing.count)
    }

    /// When `image` starts when time is kept by the numbers (``GapPolicy/hold``).
    private func startByNumber(of image: FollowedImage) -> MediaTime? {
        guard gaps == .hold, let first = follower.firstNumber else { return nil }
        return MediaTime(frame: (image.number - first) * copies, at: settings.frameRate)
    }

    /// Where the movie ends when time is kept by the numbers: one image after the last number (the
    /// last one asked for, when it never came).
    private func endByNumber() -> MediaTime? {
        guard gaps == .hold, let first = follower.firstNumber, let next = follower.next else { return nil }
        let end = follower.missing.last.map { max(next, $0 + 1) } ?? next
        return MediaTime(frame: (end - first) * copies, at: settings.frameRate)
    }

    /// The writer, sized from the first image unless a size was given.
    private func makeWriter(firstFrame frame: DecodedImage) throws -> (MovieWriter, FrameSize?) {
        try MovieWriter.forFirstImage(
            frame, size: size, settings: settings, destination: destination, imageLimits: imageLimits,
            metadata: metadata)
    }
}
