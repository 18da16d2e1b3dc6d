import Foundation

/// How a movie is made from a sequence of images: everything but the images and the destination,
/// for ``MovieWriter/makeMovie(fromImagesAt:to:options:)`` and ``MovieWriter/makeMovie(following:to:options:)``.
///
/// ```swift
/// var options = SequenceOptions(settings: VideoSettings(frameRate: FrameRate(24), codec: .hevc))
/// options.imageDuration = MediaTime(value: 2, timescale: 1)   // a slideshow
/// options.progress = { print($0.framesDone, "of", $0.totalFrames) }
/// let movie = try await MovieWriter.makeMovie(fromImagesAt: images, to: url, options: options)
/// ```
public struct SequenceOptions: Sendable {
    /// The movie's settings. When they have a ``VideoSettings/size`` that is the movie's size and
    /// other images are fitted by ``VideoSettings/fit``; without one (``VideoSettings/init(frameRate:crf:preset:encoderThreads:timescale:codec:bitDepth:)``)
    /// the movie takes the first usable image's size, rounded up to even (the summary's
    /// ``MovieSummary/sizeRoundedFrom`` says when it was). For a followed sequence a
    /// ``VideoSettings/fragmentDuration`` of `nil` means fragments of one second.
    public var settings: VideoSettings
    /// Whether an existing file at the destination may be replaced (no by default); it passes on its
    /// permissions, owner, group and extended attributes, and a link there is written through (see
    /// ``MovieWriter/init(url:settings:overwrite:imageLimits:soundtrack:audio:metadata:)``).
    public var overwrite = false
    /// How long each image is shown (a slideshow); `nil` (the default) means one frame at the
    /// settings' frame rate. Each image is one encoded frame of that duration unless ``repeatFrames``.
    public var imageDuration: MediaTime?
    /// How long each image is shown, one entry per image in order (an ``ImageTimingList``'s durations);
    /// an entry of `nil` lasts ``imageDuration``, or one frame. Each image is one frame of its own
    /// length, and the movie's clock holds every length exactly. Not with ``repeatFrames`` or animated
    /// images; `nil` (the default) for none.
    public var imageDurations: [MediaTime?]?
    /// Encode each image as repeated frames at the settings' frame rate instead, for players that
    /// need a constant frame rate; ``imageDuration`` must then be a whole number of frames.
    public var repeatFrames = false
    /// Bounds on the size of the images, checked before decoding them.
    public var imageLimits = ImageLimits()
    /// What to do when the images are numbered (`f1.png`, `f2.png` …) and numbers are missing:
    /// ``GapPolicy/warn`` (the default: the movie as the images are, the summary's
    /// ``MovieSummary/missingNumbers`` and ``MovieSummary/gapDescription`` say what is missing),
    /// ``GapPolicy/hold`` (image *n* at *(n − first) / fps*, the image before a gap held), or
    /// ``GapPolicy/fail``. Two images with the same number are an error whatever the policy. When
    /// following, a number counts as missing once a later one has arrived and it has not within
    /// ``FollowPolicy/gapGrace``, or at the end.
    public var gaps: GapPolicy = .warn
    /// The title, artist, creation date and other tags written into the movie; none by default.
    /// Each segment of a sequence is given them, and a join keeps the first segment's.
    public var metadata = MovieMetadata()
    /// Called after each frame is encoded, and while following when waiting for an image.
    public var progress: (@Sendable (SequenceProgress) -> Void)?

    /// Listed images only: encode only this slice of the images, keeping the times its frames have
    /// in the whole movie, for a later ``MovieJoiner/join(segments:to:overwrite:soundtrack:)``;
    /// `nil` (the default) encodes all.
    public var segment: Segment?
    /// Listed images only: leave out images that cannot be read or decoded (unreadable, not an
    /// image, damaged, over ``imageLimits``) instead of failing. A skipped image's time goes to the
    /// frame before it, so later frames keep their times and the movie its length; skipped images at
    /// the start give their time to the first image that can be used. The summary's
    /// ``MovieSummary/skippedImages`` lists them; it fails when no image can be used.
    public var skipInvalidImages = false
    /// Listed images only: sound for the movie, cut or left short to the pictures' length; none by
    /// default. Not with ``segment``: segments are made without sound, and ``MovieJoiner`` adds it
    /// to the joined movie.
    public var soundtrack: Soundtrack?

    /// Followed images only: the first number to take; `nil` (the default) means the lowest that arrives first.
    public var startNumber: Int?
    /// Followed images only: when following ends and how images are noticed.
    public var follow = FollowPolicy()
    /// Followed images only: ends following early when requested (Ctrl-C); the movie is finished
    /// with the images taken. Cancelling the task instead discards the movie.
    public var stop: FollowStop?

    /// Creates options with these settings and every other option at its default.
    ///
    /// - Parameter settings: The movie's settings; by default H.264 at 30 fps, sized by the first image.
    public init(settings: VideoSettings = VideoSettings()) {
        self.settings = settings
    }
}
