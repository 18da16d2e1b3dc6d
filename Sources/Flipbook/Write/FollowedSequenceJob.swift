import Foundation

/// A numbered image sequence still being written, followed by ``SequenceFollower``, as a
/// ``SequenceJob``'s images (the job behind ``MovieWriter/makeMovie(following:to:options:)``).
///
/// The follower hands over each image as soon as it is complete, in number order; when nothing is
/// being prepared the pipeline waits for it, and the progress says which number it waits for. The
/// movie is fragmented: every finished fragment is on disk, in the hidden file beside the
/// destination, while following goes on. An image's position is its place in the order taken.
struct FollowedImageFiles: SequenceImages {
    let follower: SequenceFollower
    let gaps: GapPolicy
    /// Encoded frames per image.
    let copies: Int
    let rate: FrameRate

    var progressBeforeFirstImage: SequenceProgress? {
        SequenceProgress(
            framesDone: 0, totalFrames: 0, elapsedSeconds: 0, isFollowing: true, waitingFor: follower.next)
    }

    func start(_ request: DecodeRequest, skipping: inout SkippedImages) async throws
        -> (arrivals: SequenceFollower, first: FirstSequenceImage<FollowedImage>)
    {
        guard let first = try await follower.waitForNext() else {
            if follower.stopped { throw FlipbookError.followingStoppedBeforeFirstImage(folder: follower.folder.path) }
            throw FlipbookError.noImageArrived(within: follower.policy.timeout, folder: follower.folder.path)
        }
        let origin = FrameOrigin(index: 0, path: first.url.path)
        let image = try origin.attributing {
            try ImageDecoder.decodeImageFile(ImageReference(file: first.url), request)
        }
        return (follower, (0, first, image))
    }

    func decoder(_ request: DecodeRequest) -> @Sendable (FollowedImage) throws -> DecodedImage {
        { image in try ImageDecoder.decodeImageFile(ImageReference(file: image.url), request) }
    }

    func origin(ofImage position: Int, _ image: FollowedImage) -> FrameOrigin {
        FrameOrigin(index: position, path: image.url.path)
    }

    func frames(ofImage _: Int, _ image: FollowedImage, skipping _: SkippedImages) -> ImageFrames {
        ImageFrames(copies: copies, start: startByNumber(of: image))
    }

    func waiting(framesDone: Int, elapsedSeconds: Double) -> SequenceProgress? {
        follower.noteWaiting()
        return report(framesDone: framesDone, elapsedSeconds: elapsedSeconds, waiting: true)
    }

    func progress(framesDone: Int, elapsedSeconds: Double) -> SequenceProgress {
        report(framesDone: framesDone, elapsedSeconds: elapsedSeconds, waiting: false)
    }

    /// Where the movie ends when time is kept by the numbers: one image after the last number (the
    /// last one asked for, when it never came).
    func lastFrameEnd(atPosition _: Int, skipping _: SkippedImages) -> MediaTime? {
        guard gaps == .hold, let first = follower.firstNumber, let next = follower.next else { return nil }
        let end = follower.missing.last.map { max(next, $0 + 1) } ?? next
        return MediaTime(frame: (end - first) * copies, at: rate)
    }

    /// No warning about the first image's colours: a followed sequence gives none.
    func firstImageName(at _: Int, _: FollowedImage) -> String? {
        nil
    }

    func firstImageNumber(at _: Int, _ image: FollowedImage) -> Int? {
        image.number
    }

    func complete(_ summary: inout MovieSummary) {
        if !follower.missing.isEmpty {
            summary.missingNumbers = follower.missing
            summary.gapDescription = follower.gapDescription
        }
        summary.warnings = follower.notes + summary.warnings
    }

    private func report(framesDone: Int, elapsedSeconds: Double, waiting: Bool) -> SequenceProgress {
        SequenceProgress(
            framesDone: framesDone, totalFrames: totalFrames(taken: framesDone), elapsedSeconds: elapsedSeconds,
            isFollowing: true, framesWaitedFor: follower.waitedFor, waitingFor: waiting ? follower.next : nil)
    }

    /// Frames in the sequence as far as is known: the last number's, or those taken so far.
    private func totalFrames(taken: Int) -> Int {
        guard let last = follower.policy.lastNumber, let first = follower.firstNumber else { return taken }
        return max(taken, last - first + 1 - follower.missing.count)
    }

    /// When `image` starts when time is kept by the numbers (``GapPolicy/hold``).
    private func startByNumber(of image: FollowedImage) -> MediaTime? {
        guard gaps == .hold, let first = follower.firstNumber else { return nil }
        return MediaTime(frame: (image.number - first) * copies, at: rate)
    }
}
