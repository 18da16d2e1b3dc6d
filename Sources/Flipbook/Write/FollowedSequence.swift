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
    /// var options = SequenceOptions(settings: VideoSettings(frameRate: FrameRate(24)))
    /// options.follow = FollowPolicy(lastNumber: 240)
    /// let movie = try await MovieWriter.makeMovie(
    ///     following: URL(filePath: "render/frame_%04d.png"), to: URL(filePath: "shot.mp4"), options: options)
    /// ```
    ///
    /// - Parameters:
    ///   - input: A folder (its image files, numbered like the first one, such as `f1.png`) or a printf
    ///     pattern such as `frames/frame_%04d.png`.
    ///   - url: The movie's destination; its extension chooses the container (see ``MovieContainer``).
    ///   - options: The movie's settings (its size, or none to take the first image's), how the
    ///     images become frames, and how they are followed (``SequenceOptions/startNumber``,
    ///     ``SequenceOptions/follow``, ``SequenceOptions/stop``). A segment, skipping invalid images
    ///     and a soundtrack are for listed images and are refused here.
    /// - Returns: What was written.
    /// - Throws: ``FlipbookError``: `.unreadableInput` when no image arrived within the timeout or the
    ///   folder is not there, `.missingImages` for a gap under ``GapPolicy/fail``, decoding errors
    ///   naming the frame and file; nothing is left at `url` then.
    public static func makeMovie(following input: URL, to url: URL, options: SequenceOptions) async throws
        -> MovieSummary
    {
        let follow = options.follow
        guard follow.timeout > .zero, follow.pollInterval > .zero, (follow.gapGrace ?? .zero) >= .zero else {
            throw FlipbookError.followingTimesOutOfRange()
        }
        for (given, what) in [
            (options.segment != nil, "a segment"), (options.skipInvalidImages, "skipping invalid images"),
            (options.soundtrack != nil, "a soundtrack"),
        ] where given {
            throw FlipbookError.notForFollowedSequence(what)
        }
        if options.settings.deflicker != nil { throw FlipbookError.deflickerNeedsImageFiles() }
        try options.metadata.validate()
        // Before any work, so an existing movie is reported at once.
        let destination = try MovieDestination(url, overwrite: options.overwrite)
        let timing = try SlideshowTiming(
            settings: options.settings.forContainer(destination.container), imageDuration: options.imageDuration,
            repeatFrames: options.repeatFrames)
        var settings = timing.settings
        settings.fragmentDuration = settings.fragmentDuration ?? MediaTime(value: 1, timescale: 1)
        let follower = try SequenceFollower(
            input: input, startNumber: options.startNumber, policy: follow, gaps: options.gaps, stop: options.stop)
        let job = SequenceJob(
            images: FollowedImageFiles(
                follower: follower, gaps: options.gaps, copies: timing.copies, rate: settings.frameRate),
            destination: destination, settings: settings, size: settings.size, imageLimits: options.imageLimits,
            skipInvalidImages: false, progress: options.progress, metadata: options.metadata)
        return try await job.run()
    }
}
