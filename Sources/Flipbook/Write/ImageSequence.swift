import Foundation

/// A width and height in pixels.
public struct FrameSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT`, such as `1280x720` (the `x` in either case).
    ///
    /// Returns `nil` unless both sides are positive whole numbers.
    ///
    /// - Parameter text: The size as written, such as `--size` takes it.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        self.init(width: width, height: height)
    }

    public var description: String { "\(width)x\(height)" }

    /// This size with odd sides rounded up to even, as 4:2:0 video needs: an image of this size is
    /// placed 1:1 with a one-pixel band of background.
    public var roundedUpToEven: FrameSize {
        FrameSize(width: width + width % 2, height: height + height % 2)
    }
}

/// How far a movie made from image files has come.
public struct SequenceProgress: Sendable, Hashable {
    /// Frames encoded so far.
    public var framesDone: Int
    /// Frames in the whole sequence; when following a sequence still being written, the frames
    /// known so far (up to the last number, when it was given); for images from a sequence of their
    /// bytes (``MovieWriter/makeMovie(fromImageData:to:options:)``), the images taken so far.
    public var totalFrames: Int
    /// Seconds since the work started.
    public var elapsedSeconds: Double
    /// Whether the sequence is being followed while it is written (see ``FollowPolicy``).
    public var isFollowing = false
    /// When following: how many images were not complete yet when their turn came and were waited for.
    public var framesWaitedFor = 0
    /// When following: the number of the image being waited for now, if one is.
    public var waitingFor: Int? = nil
    /// The encode under way when the movie is made in passes (see ``RateControl``), from 1.
    public var pass = 1
    /// The encodes planned: 2 for two passes, more when a target size needs another try; 1 otherwise.
    public var passes = 1
}

extension MovieWriter {
    /// Makes a movie from image files in the order given, in one call.
    ///
    /// Images are decoded on several threads ahead of the encoder (a bounded number at a time, so
    /// memory does not grow with the number of images) and appended in order.
    ///
    /// ```swift
    /// let movie = try await MovieWriter.makeMovie(
    ///     fromImagesAt: images, to: URL(filePath: "movie.mp4"),
    ///     options: SequenceOptions(settings: VideoSettings(frameRate: FrameRate(24))))
    /// ```
    ///
    /// - Parameters:
    ///   - images: Image files (PNG, JPEG, WebP, GIF, TIFF, HEIC, AVIF), in presentation order. An
    ///     animated GIF, APNG or WebP gives every frame in its place, composited as browsers show it
    ///     and lasting its own delay (10 ms or less: 100 ms, as browsers show it); with
    ///     ``SequenceOptions/repeatFrames`` its frames are instead repeated (or left out) to keep the
    ///     settings' constant rate. Frame count x canvas size is checked against
    ///     ``ImageLimits/maxAnimationPixels`` before decoding; a truncated animation is refused, or
    ///     with ``SequenceOptions/skipInvalidImages`` cut at its last whole frame with a warning.
    ///   - url: The movie's destination; its extension chooses the container (see ``MovieContainer``).
    ///   - options: The movie's settings (its size, or none to take the first image's) and how the
    ///     images become frames; see ``SequenceOptions``.
    /// - Returns: What was written.
    /// - Throws: ``FlipbookError``, naming the frame and file at fault; nothing is left at `url` then.
    public static func makeMovie(fromImagesAt images: [URL], to url: URL, options: SequenceOptions) async throws
        -> MovieSummary
    {
        guard !images.isEmpty else {
            throw FlipbookError.noImagesGiven()
        }
        if options.segment != nil && options.soundtrack != nil {
            throw FlipbookError.segmentWithSoundtrack()
        }
        if options.segment != nil && options.settings.slate != nil {
            throw FlipbookError.slateInSegment()
        }
        try options.metadata.validate()
        // Before any work, so an existing movie is reported at once.
        let destination = try MovieDestination(url, overwrite: options.overwrite)
        // A page or frame a URL names by its fragment is read here, once.
        let images = images.map(ImageReference.init)
        if options.settings.rateControl.passes == 2 && options.settings.pass == nil {
            return try await TwoPassEncoding(images: images, destination: destination, options: options).run()
        }
        return try await makeMovie(fromImagesAt: images, to: destination, options: options)
    }

    /// ``makeMovie(fromImagesAt:to:options:)`` once the destination is checked: one encode.
    static func makeMovie(
        fromImagesAt listed: [ImageReference], to destination: MovieDestination, options: SequenceOptions
    ) async throws -> MovieSummary {
        let animated = try AnimatedInputs(
            listed, limits: options.imageLimits, skipInvalid: options.skipInvalidImages)
        // The list as given, but for animations: their frames, or (left out with skipping) their first frame.
        let allImages = animated.entries
        // Frames of an animation are timed by their delays, not by numbers in file names.
        let numbering = animated.hasAnimation ? nil : try ImageNumbering(images: allImages)
        if let numbering, !numbering.missing.isEmpty, options.gaps == .fail {
            throw FlipbookError.imagesMissing(numbering.gapDescription)
        }
        let timing = try SlideshowTiming(
            settings: options.settings.forContainer(destination.container), imageDuration: options.imageDuration,
            repeatFrames: options.repeatFrames)
        var settings = timing.settings
        let lengths = try Self.imageLengths(
            options, images: allImages.count, animated: animated.hasAnimation, copies: timing.copies,
            rate: settings.frameRate)
        if let lengths, settings.timescale == nil {
            // A clock in which every image's length is a whole number of ticks.
            let scale = VideoSettings.timescale(exactFor: [settings.frameRate.frameDuration] + lengths)
            if scale != 90000 { settings.timescale = scale }
        }
        if animated.hasAnimation && settings.timescale == nil {
            // A clock in which every frame's delay is a whole number of ticks (GIF's hundredths and
            // WebP's milliseconds are, at any rate's clock; an APNG's fractions may need more).
            let delays = Set(animated.delays.compactMap { $0?.reduced })
            let scale = VideoSettings.timescale(exactFor: [settings.frameRate.frameDuration] + Array(delays))
            if scale != 90000 { settings.timescale = scale }
        }
        if let numbering, options.gaps == .hold {
            // An image held over a gap is one long frame: reordering across it would offset a
            // frame by the whole gap.
            settings.longestReorderSpan = MediaTime(
                frame: numbering.longestSpan(ofImages: VideoSettings.reorderSpan) * timing.copies,
                at: settings.frameRate)
        }
        var size = settings.size
        var firstImage = 0
        var images = allImages
        if let segment = options.segment {
            let range = segment.frames(ofSequenceOf: allImages.count)
            guard !range.isEmpty else {
                throw FlipbookError.segmentEmpty(segment, images: allImages.count)
            }
            if size == nil {
                // Every segment takes its size from the first usable image of the whole sequence.
                var skipping = SkippedImages(enabled: options.skipInvalidImages)
                let (_, first) = try ImageSequenceJob.firstUsableImage(
                    allImages, firstImage: 0, request: DecodeRequest(limits: options.imageLimits), skipping: &skipping)
                size = FrameSize(width: first.width, height: first.height).roundedUpToEven
            }
            firstImage = range.lowerBound
            images = Array(allImages[range])
        }
        var job = ImageSequenceJob(
            images: images, firstImage: firstImage, totalImages: allImages.count,
            destination: destination,
            settings: settings, size: size, copies: timing.copies, imageLimits: options.imageLimits,
            segment: options.segment, skipInvalidImages: options.skipInvalidImages,
            numbers: options.gaps == .hold ? numbering?.numbers : nil, progress: options.progress)
        job.soundtrack = options.soundtrack
        job.metadata = options.metadata
        if let deflicker = settings.deflicker {
            // Every image of the whole sequence is measured, so each segment changes its images alike.
            guard !animated.hasAnimation else { throw FlipbookError.deflickerNeedsImageFiles() }
            job.exposureChanges = try SequenceDeflicker(
                deflicker: deflicker, limits: options.imageLimits,
                workers: settings.decodeWorkers > 0
                    ? settings.decodeWorkers : ProcessInfo.processInfo.activeProcessorCount
            ).changes(of: allImages)
        }
        if animated.hasAnimation {
            job.timings = animated.timing(
                rate: settings.frameRate, copies: timing.copies, constantRate: options.repeatFrames)
        }
        if let lengths {
            var start = MediaTime.zero
            job.timings = lengths.map { length in
                defer { start = start + length }
                return EntryTiming(start: start, duration: length, copies: 1)
            }
        }
        var summary = try await job.run()
        summary.warnings.insert(contentsOf: animated.warnings, at: 0)
        if let numbering, !numbering.missing.isEmpty {
            summary.missingNumbers = numbering.missing
            summary.gapDescription = numbering.gapDescription
        }
        return summary
    }
}

extension MovieWriter {
    /// Each image's length from ``SequenceOptions/imageDurations``, a missing one one image's default
    /// (`copies` frames at `rate`); `nil` without durations.
    ///
    /// - Throws: ``FlipbookError`` when the durations are not one per image, or come with repeated
    ///   frames or animated images.
    static func imageLengths(
        _ options: SequenceOptions, images: Int, animated: Bool, copies: Int, rate: FrameRate
    ) throws -> [MediaTime]? {
        guard let durations = options.imageDurations else { return nil }
        guard durations.count == images else {
            throw FlipbookError.imageDurationsMiscounted(durations.count, images: images)
        }
        guard !options.repeatFrames, !animated else {
            throw FlipbookError.imageDurationsWithFrames(animated: animated)
        }
        return try durations.map { duration in
            guard let duration else { return MediaTime(frame: copies, at: rate) }
            guard duration > .zero else { throw FlipbookError.imageDurationNotPositive(duration) }
            return duration
        }
    }
}

/// How a slideshow's images become frames: one frame lasting the image's duration (the movie's
/// nominal rate becomes one frame per image, so the encoder's rate control and the stream's timing
/// information both know the real timing), or repeated frames at the settings' rate.
struct SlideshowTiming {
    /// The settings to make the movie with.
    let settings: VideoSettings
    /// Frames encoded per image.
    let copies: Int

    init(settings: VideoSettings, imageDuration: MediaTime?, repeatFrames: Bool) throws {
        guard let imageDuration else {
            (self.settings, copies) = (settings, 1)
            return
        }
        let duration = imageDuration.reduced
        guard duration > .zero else {
            throw FlipbookError.imageDurationNotPositive(imageDuration)
        }
        let shown = String(format: "%g", duration.seconds)
        guard repeatFrames else {
            guard duration.value <= 1_000_000, duration.timescale <= 1_000_000 else {
                throw FlipbookError.imageDurationOutOfRange(shown)
            }
            var slideshow = settings
            slideshow.frameRate = FrameRate(Int(duration.timescale), Int(duration.value))
            (self.settings, copies) = (slideshow, 1)
            return
        }
        let frame = settings.frameRate.frameDuration
        let scale = VideoSettings.timescale(exactFor: [frame, duration])
        guard let image = duration.exactly(inTimescale: scale), let one = frame.exactly(inTimescale: scale),
            image.value % one.value == 0
        else {
            throw FlipbookError.imageDurationNotWholeFrames(shown, at: settings.frameRate)
        }
        (self.settings, copies) = (settings, Int(image.value / one.value))
    }
}
