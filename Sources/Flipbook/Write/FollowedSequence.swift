import Foundation

extension MovieWriter {
    /// Makes a movie from a numbered image sequence while a renderer is still writing it.
    ///
    /// Images are taken in number order as each one is complete: written and closed, or renamed
    /// into the folder (Linux inotify; the folder is listed instead where that is not available, see
    /// ``FollowPolicy/Watching``). A file still being written is never taken. The movie is written
    /// fragmented, so the hidden file beside `url` plays at any moment with every finished fragment;
    /// when following ends it is finished and renamed into place like any movie.
    ///
    /// ```swift
    /// let movie = try await MovieWriter.makeMovie(
    ///     following: URL(filePath: "render/frame_%04d.png"), to: URL(filePath: "shot.mp4"),
    ///     settings: VideoSettings(width: 2, height: 2, frameRate: FrameRate(24)), size: nil,
    ///     follow: FollowPolicy(lastNumber: 240))
    /// ```
    ///
    /// - Parameters:
    ///   - input: A folder (its image files, numbered like the first one, such as `f1.png`) or a printf
    ///     pattern such as `frames/frame_%04d.png`.
    ///   - url: The movie's destination.
    ///   - settings: The movie's settings; `width` and `height` are ignored when `size` is `nil`. A
    ///     ``VideoSettings/fragmentDuration`` of `nil` means fragments of one second.
    ///   - size: The movie's size; `nil` means the first image's size, rounded up to even.
    ///   - overwrite: Whether an existing file at `url` may be replaced.
    ///   - startNumber: The first number to take; `nil` means the lowest that arrives first.
    ///   - follow: When following ends and how images are noticed.
    ///   - stop: Ends following early when requested (Ctrl-C); the movie is finished with the
    ///     images taken. Cancelling the task instead discards the movie.
    ///   - imageDuration: How long each image is shown; `nil` means one frame at the frame rate.
    ///   - repeatFrames: Encode each image as repeated frames at the frame rate instead.
    ///   - imageLimits: Bounds on the size of the images, checked before decoding them.
    ///   - gaps: What to do about a missing number once a later number has arrived and the missing
    ///     one has not within ``FollowPolicy/gapGrace``, or at the end (numbers up to
    ///     ``FollowPolicy/lastNumber`` that never came included): see ``GapPolicy``. The summary's
    ///     ``MovieSummary/missingNumbers`` lists them.
    ///   - progress: Called after each frame is taken, and when waiting for one.
    /// - Returns: What was written.
    /// - Throws: ``FlipbookError``: `.unreadableInput` when no image arrived within the timeout or the
    ///   folder is not there, `.missingImages` for a gap under ``GapPolicy/fail``, decoding errors
    ///   naming the frame and file; nothing is left at `url` then.
    public static func makeMovie(
        following input: URL, to url: URL, settings: VideoSettings, size: FrameSize?, overwrite: Bool = false,
        startNumber: Int? = nil, follow: FollowPolicy = FollowPolicy(), stop: FollowStop? = nil,
        imageDuration: MediaTime? = nil, repeatFrames: Bool = false, imageLimits: ImageLimits = ImageLimits(),
        gaps: GapPolicy = .warn, progress: (@Sendable (SequenceProgress) -> Void)? = nil
    ) async throws -> MovieSummary {
        guard follow.timeout > .zero, follow.pollInterval > .zero, (follow.gapGrace ?? .zero) >= .zero else {
            throw FlipbookError(
                .invalidSettings,
                "following needs a timeout and a poll interval above zero, and a grace of zero or more")
        }
        // Before any work, so an existing movie is reported at once.
        let destination = try MovieDestination(url, overwrite: overwrite)
        let timing = try SlideshowTiming(settings: settings, imageDuration: imageDuration, repeatFrames: repeatFrames)
        var settings = timing.settings
        settings.fragmentDuration = settings.fragmentDuration ?? MediaTime(value: 1, timescale: 1)
        let follower = try SequenceFollower(
            input: input, startNumber: startNumber, policy: follow, gaps: gaps, stop: stop)
        let job = FollowedSequenceJob(
            follower: follower, destination: destination, settings: settings, size: size, copies: timing.copies,
            imageLimits: imageLimits, gaps: gaps, progress: progress)
        return try await job.run()
    }
}
