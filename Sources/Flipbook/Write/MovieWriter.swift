import Foundation
import ISOBMFF
import MediaModel

/// Writes a sequence of frames as a movie file (MP4, M4V, MOV, WebM or Matroska by the file's
/// extension) in the codec of its ``VideoSettings``: H.264 by default, HEVC, AV1, VP9, or ProRes in a
/// MOV; or as an animated GIF or WebP (`.gif`, `.webp`), whose own codec the extension chooses,
/// at ``VideoSettings/quality`` and ``VideoSettings/loopCount``.
///
/// ```swift
/// let writer = try MovieWriter(
///     url: URL(filePath: "out.mp4"),
///     settings: VideoSettings(width: 1920, height: 1080, frameRate: FrameRate(30)))
/// for frame in frames {
///     try await writer.append(frame)      // returns while the frame is encoded
/// }
/// let movie = try await writer.finish()   // frames, duration, bytes, URL
/// ```
///
/// Frame `i` is presented at exactly `i / frameRate` seconds unless given its own time or duration
/// (``append(_:at:duration:)``), and the last frame is shown for its full duration. The movie is
/// written beside the destination under a hidden temporary name and appears at the destination only
/// when ``finish()`` succeeds.
///
/// - Important: A frame that cannot be used (unreadable image, a time that does not fit) throws from
///   `append` and leaves the writer usable, so a caller may skip it. A failure of the encoder or the
///   disk fails the writer: its temporary files are removed and every later call throws the same
///   error. Calls after ``finish()`` or ``cancel()`` throw.
public actor MovieWriter {
    /// Where the movie will appear.
    public nonisolated let url: URL
    /// The movie's settings.
    public nonisolated let settings: VideoSettings
    /// The title, artist, creation date and other tags written into the movie.
    public nonisolated let metadata: MovieMetadata

    private var lifecycle = WriterLifecycle()
    private let encoder: any VideoEncoder
    /// The movie's file: its muxing session, the sink and the soundtrack.
    private let output: MovieMuxer
    /// The movie's video track and summary, and its disk errors.
    private let outline: MovieOutline
    /// Fits and converts frames; usable off the actor, so preparation overlaps encoding.
    nonisolated let preparer: FramePreparer
    private var timeline: MovieTimeline
    nonisolated let imageLimits: ImageLimits
    /// Private boxes written into the movie's `moov` (a segment's description).
    private var extensions: [MovieExtension] = []
    /// Frames accepted so far.
    public private(set) var framesAppended = 0
    /// The video samples' bytes stored so far.
    private var videoBytes: UInt64 = 0
    /// Whether the file is an animated image, whose samples are raw frames its session encodes.
    private let isAnimatedImage: Bool
    /// The encoding of the last frame admitted, while it runs.
    private var pendingEncode: Task<Void, Never>?
    /// Draws the burn-ins and the slate; `nil` for a movie without text.
    private let painter: BurnInPainter?
    /// The slate, until it is written before the first picture.
    private var slatePending: Slate?
    /// How long the slate lasts: every time given is this much later on the movie's timeline.
    private let slateLength: MediaTime

    private nonisolated let executor = WriterExecutor()
    /// The writer runs on a Dispatch queue of its own, so the encoder's blocking calls do not hold
    /// one of the few threads Swift concurrency shares among all tasks.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Creates a writer; nothing appears at `url` until ``finish()`` succeeds.
    ///
    /// - Parameters:
    ///   - url: The movie's destination; its extension chooses the container brand (`.mov` is QuickTime,
    ///     the one container ProRes goes in), or an animated image: `.gif` or `.webp`, always in its
    ///     own codec (``VideoCodec/gif``, ``VideoCodec/webp``) whatever `settings.codec` says, without sound.
    ///   - settings: Size, frame rate, CRF and preset.
    ///   - overwrite: Whether an existing file at `url` may be replaced when the movie is complete. A
    ///     replaced file passes on its permission bits, its owner and group where the process may set
    ///     them, and its extended attributes; a symbolic link at `url` is written through, so it points
    ///     at the new movie (a link that leads nowhere is refused).
    ///   - imageLimits: Bounds on the size of images decoded by ``append(imageAt:at:duration:)`` and
    ///     ``append(imageData:at:duration:)``.
    ///   - soundtrack: Sound for the movie, cut or left short to the pictures' length; none by default.
    ///   - audio: The format of uncompressed sound given from memory with ``append(audio:)``, encoded
    ///     to AAC-LC; none by default. Not with `soundtrack`.
    ///   - metadata: The title, artist, creation date and other tags to write into the movie; none by
    ///     default (the movie's creation times then stay zero).
    /// - Throws: ``FlipbookError`` with `.outputExists` when `url` exists and `overwrite` is false,
    ///   `.unsupportedOutput` for a codec the container does not hold (ProRes outside `.mov`) or whose alpha
    ///   it does not carry (VP9's outside WebM and Matroska),
    ///   `.invalidSettings` for settings or metadata out of range, `.outputNotWritable` when the folder cannot be written,
    ///   `.invalidAudio` naming the sound file when it cannot be used (or for an `audio` format AAC cannot carry).
    public init(
        url: URL, settings: VideoSettings, overwrite: Bool = false, imageLimits: ImageLimits = ImageLimits(),
        soundtrack: Soundtrack? = nil, audio: AudioFormat? = nil, metadata: MovieMetadata = MovieMetadata()
    ) throws {
        guard soundtrack == nil || audio == nil else {
            throw FlipbookError.soundGivenTwice()
        }
        if settings.deflicker != nil { throw FlipbookError.deflickerNeedsImageFiles() }
        let destination = try MovieDestination(url, overwrite: overwrite)
        try self.init(
            destination: destination, settings: settings.forContainer(destination.container),
            imageLimits: imageLimits, soundtrack: soundtrack, audio: audio, metadata: metadata,
            makeEncoder: VideoEncoders.make)
    }

    /// Appends uncompressed sound after the sound appended so far (the first at movie time zero),
    /// encoded to AAC-LC as the pictures reach it.
    ///
    /// The movie lasts as long as its pictures: sound beyond the last frame's end is cut at the sample,
    /// and a movie whose sound ends first is silent after it.
    ///
    /// - Important: Append sound about as far as the frames go. The file holds sound and pictures of
    ///   the same moment together, so the writer keeps the frames' media in memory until the sound
    ///   reaches them.
    /// - Throws: `.invalidState` when the writer was not made with an ``AudioFormat``, after
    ///   ``finish()``, or when the channels do not match it.
    public func append(audio samples: AudioSamples) throws {
        try lifecycle.checkWritable(for: "append(audio:)")
        guard var feed = output.sound as? EncodedSoundFeed, feed.sound.path == EncodedSoundFeed.fromMemory else {
            throw FlipbookError.soundFromMemoryNotExpected()
        }
        let counts = Set(samples.channels.map(\.count))
        guard samples.channels.count == feed.sound.channelCount, counts.count <= 1 else {
            throw FlipbookError.soundChannelsMismatch(
                given: samples.channels.count, lengths: counts.sorted(), expected: feed.sound.channelCount)
        }
        output.sound = nil  // the feed's samples are then not shared, and grow in place
        feed.append(samples.channels)
        output.sound = feed
    }

    /// Creates a writer for a destination already checked, with the encoder `makeEncoder` opens.
    init(
        destination: MovieDestination, settings: VideoSettings, imageLimits: ImageLimits, soundtrack: Soundtrack? = nil,
        audio: AudioFormat? = nil, metadata: MovieMetadata = MovieMetadata(),
        makeEncoder: (VideoSettings, ColourMatrix) throws -> any VideoEncoder
    ) throws {
        try FlipbookError.markingSettingsConflicts { try settings.validate() }
        if settings.rateControl.passes == 2 && settings.pass == nil {
            throw FlipbookError.twoPassesNeedImageFiles()
        }
        try metadata.validate()
        do {
            try settings.codec.checkContainer(destination.container)
            try destination.container.checkRotation(settings.rotation)
            if settings.keepsAlpha {
                try settings.codec.checkAlpha(bitDepth: settings.bitDepth, in: destination.container)
            }
            if let timecode = settings.timecode.start {
                try FlipbookError.markingSettingsConflicts {
                    try timecode.check(at: settings.frameRate)
                    if destination.container.isAnimatedImage || settings.fragmentDuration != nil {
                        throw FlipbookError.timecodeNotHeld(fragmented: settings.fragmentDuration != nil)
                    }
                }
            }
            if destination.container.isAnimatedImage {
                try Self.checkAnimatedImage(
                    destination.container, settings: settings, sound: soundtrack != nil || audio != nil)
            }
        } catch let error as FlipbookError {
            throw FlipbookError.restating(error, path: destination.url.path)
        }
        url = destination.url
        isAnimatedImage = destination.container.isAnimatedImage
        self.settings = settings
        self.metadata = metadata
        self.imageLimits = imageLimits
        let matrix = ColourMatrix(settings.colourStandard, settings.colourRange)
        preparer = FramePreparer(settings: settings, matrix: matrix)
        let timeline = try MovieTimeline(timescale: settings.resolvedTimescale, frameRate: settings.frameRate)
        self.timeline = timeline
        outline = MovieOutline(
            url: destination.url, timescale: timeline.timescale, width: settings.width, height: settings.height,
            rotation: settings.rotation)
        let slateFrames = settings.slate?.frames ?? 0
        let slateLength = MediaTime(frame: slateFrames, at: settings.frameRate)
        self.slateLength = slateLength
        slatePending = settings.slate
        var timecode = settings.timecode.start
        if let start = timecode, let slate = settings.slate, !slate.timecodeStartsOnSlate {
            // The first picture keeps its timecode; the slate's frames have the ones before it.
            timecode = Timecode(
                frameNumber: start.frameNumber(at: settings.frameRate) - slateFrames, frameRate: settings.frameRate,
                dropFrame: start.dropFrame)
        }
        let whiteCode = preparer.hdr?.code(1) ?? 1
        let painter = try FlipbookError.markingSettingsConflicts { [timecode] in
            try BurnInPainter(
                settings: settings, timecodeStart: timecode, date: metadata.creationDate ?? Date(), whiteCode: whiteCode
            )
        }
        self.painter = painter
        var soundtrack = soundtrack
        if let offset = soundtrack?.offset { soundtrack?.offset = offset + slateLength }
        var sound = try soundtrack.map {
            try SoundFeeds.make($0, movieTimescale: timeline.timescale, container: destination.container)
        }
        if let audio {
            let empty = PCMSound(
                path: EncodedSoundFeed.fromMemory, sampleRate: audio.sampleRate,
                planes: Array(repeating: [], count: audio.channelCount))
            sound = try EncodedSoundFeed(
                sound: empty, offset: slateLength, loops: false, bitrate: audio.bitrate,
                movieTimescale: timeline.timescale,
                codec: SoundCodec(for: destination.container))
        }
        if settings.fragmentDuration != nil, let soundtrack, soundtrack.loops, sound is CopiedSoundFeed {
            // Each repeat of copied sound is an edit of its own, and a fragmented movie's edit list is
            // written before the movie's length (so the number of repeats) is known.
            throw FlipbookError.copiedSoundCannotLoopInFragments(path: soundtrack.url.path)
        }
        encoder = try makeEncoder(settings, matrix)
        let fragmentTicks = settings.fragmentDuration.map { duration in
            UInt64(max(1, duration.value * Int64(timeline.timescale) / Int64(duration.timescale)))
        }
        output = try MovieMuxer(
            destination: destination, videoTimescale: UInt32(timeline.timescale), sound: sound,
            fragmentDuration: fragmentTicks,
            frameDuration: MovieMuxer.nanoseconds(
                ofFrame: UInt64(settings.frameRate.denominator), timescale: UInt64(settings.frameRate.numerator)),
            tags: metadata.movieTags,
            animation: destination.container.isAnimatedImage ? AnimationOptions(settings: settings) : nil,
            timecode: timecode.map { MovieTimecode(start: $0, frameRate: settings.frameRate) })
    }

    /// Checks what an animated image (GIF, WebP) cannot be: with sound, or fragmented.
    private static func checkAnimatedImage(_ container: MovieContainer, settings: VideoSettings, sound: Bool) throws {
        let kind = ".\(container.fileExtensions[0])"
        if sound {
            throw FlipbookError.animatedImageGivenSound(kind)
        }
        if settings.fragmentDuration != nil {
            throw FlipbookError.animatedImageIsWrittenWhole(kind)
        }
    }

    /// Appends a frame.
    ///
    /// A frame of another size is fitted to the movie by ``VideoSettings/fit``; transparent pixels
    /// are composited over ``VideoSettings/background``, unless the movie keeps them
    /// (``VideoSettings/keepsAlpha``, ProRes 4444), where an RGBA or BGRA frame's alpha becomes the
    /// movie's. The frame is fitted and converted on the
    /// caller's task; the call returns as soon as the encoder has finished the previous frame, so the
    /// caller prepares the next frame while this one is encoded. A failure of the encoder or the disk
    /// while encoding it fails the writer and is thrown by the next call (`append` or ``finish()``).
    ///
    /// - Parameters:
    ///   - frame: The picture, of any size.
    ///   - time: When the frame is presented; `nil` means when the previous frame ends (time zero for
    ///     the first frame). Times must strictly increase.
    ///   - duration: How long the frame is shown; `nil` means one frame at the settings' frame rate,
    ///     or, when the next frame is given a time, until that time. A slideshow image shown for two
    ///     seconds is one encoded frame lasting two seconds.
    /// - Throws: `.invalidTimestamp` for a time that does not increase or is not a whole number of
    ///   ticks of the movie's time scale (the writer stays usable); the writer's failure if it has
    ///   failed; `.invalidState` after ``finish()``; `CancellationError` when the task is cancelled.
    public nonisolated func append(_ frame: Frame, at time: MediaTime? = nil, duration: MediaTime? = nil) async throws {
        // Fitting and colour conversion run here, off the actor, while the encoder works on the
        // previous frame.
        let picture = Result { try preparer.prepare(frame) }
        try await append(prepared: picture, at: time, duration: duration, origin: FrameOrigin())
    }

    /// Reads and decodes an image file (PNG, JPEG, WebP, GIF, TIFF, HEIC, AVIF, OpenEXR, DPX, Cineon or a camera raw file) and appends it as the
    /// next frame; an animated GIF, APNG or WebP appends every frame, composited as browsers show it,
    /// each lasting its own delay (delays of 10 ms or less last 100 ms, as browsers show them).
    ///
    /// - Parameters:
    ///   - imageURL: The image file.
    ///   - time: When the (first) frame is presented; `nil` means when the previous frame ends.
    ///   - duration: How long a still image is shown; `nil` means one frame at the settings' frame
    ///     rate. An animation's frames keep their own delays: a duration is refused for one.
    /// - Throws: `.unreadableInput`, `.unsupportedImage` or `.corruptImage` naming the file and the
    ///   frame index (the writer stays usable; for an animation, the frames before the damaged one
    ///   stay appended), `.invalidSettings` for a duration given with an animation, and everything
    ///   ``append(_:at:duration:)`` throws.
    public nonisolated func append(imageAt imageURL: URL, at time: MediaTime? = nil, duration: MediaTime? = nil)
        async throws
    {
        // A page or frame the URL names by its fragment is read here, once.
        let image = ImageReference(imageURL)
        if let layout = AnimatedInputs.layout(of: image) {
            try await appendAnimation(at: image.file, layout, at: time, duration: duration)
            return
        }
        // Decoding, fitting and conversion run here, off the actor, like append(_:at:duration:).
        // Scaled, as planes and deep (a 10-bit movie) where the settings allow, as in a sequence.
        let request = DecodeRequest.frame(of: settings, limits: imageLimits)
        let picture = Result { try preparer.prepare(try ImageDecoder.decodeImageFile(image, request)) }
        try await append(prepared: picture, at: time, duration: duration, origin: FrameOrigin(image: image))
    }

    /// Decodes an image file's bytes held in memory (PNG, JPEG, WebP, GIF, TIFF, HEIC, AVIF, OpenEXR, DPX, Cineon or camera raw, told by
    /// its first bytes) and appends it as the next frame, exactly as ``append(imageAt:at:duration:)``
    /// does with a file: the same decoders, ``ImageLimits``, EXIF and HEIF orientation, and errors. An
    /// animated GIF gives its first frame, an APNG its default image, and an animated WebP is refused: give an animation as
    /// a file to ``append(imageAt:at:duration:)`` for all its frames.
    ///
    /// ```swift
    /// let (png, _) = try await URLSession.shared.data(from: frameURL)
    /// try await writer.append(imageData: png)
    /// ```
    ///
    /// - Parameters:
    ///   - imageData: One whole image file's bytes.
    ///   - time: When the frame is presented; `nil` means when the previous frame ends.
    ///   - duration: How long the frame is shown; `nil` means one frame at the settings' frame rate.
    /// - Throws: `.unsupportedImage` or `.corruptImage` naming the frame index (the writer stays
    ///   usable), and everything ``append(_:at:duration:)`` throws.
    public nonisolated func append(imageData: Data, at time: MediaTime? = nil, duration: MediaTime? = nil)
        async throws
    {
        // Decoded, fitted and converted here, off the actor, as append(imageAt:) does.
        let request = DecodeRequest.frame(of: settings, limits: imageLimits)
        let picture = Result { try preparer.prepare(try ImageDecoder.decodeImage(imageData, request)) }
        try await append(prepared: picture, at: time, duration: duration, origin: FrameOrigin())
    }

    /// Every append's way in: waits while the previous frame is encoded, checks this frame and
    /// schedules its time (so those errors are this call's, attributed to `origin`), then encodes it
    /// in the background and returns.
    func append(
        prepared picture: Result<YUVPicture, any Error>, at time: MediaTime?, duration: MediaTime?,
        origin: FrameOrigin
    ) async throws {
        if let slate = slatePending, case .success(let first) = picture, let painter {
            // The slate's frames come before the first picture, made from it.
            slatePending = nil
            let facts = FrameFacts(
                number: Self.number(of: origin, fallback: 0), framesFromStart: slate.frames, file: origin.fileName)
            let card = SlateCard(
                settings: settings, codec: encoder.codecName, first: facts, timecode: painter.timecode(facts),
                date: painter.date
            ).picture(like: first, painter: painter)
            for _ in 0..<slate.frames {
                try await append(prepared: .success(card), at: nil, duration: nil, origin: FrameOrigin(), isSlate: true)
            }
        }
        try await append(
            prepared: picture, at: time.map { $0 + slateLength }, duration: duration, origin: origin, isSlate: false)
    }

    /// ``append(prepared:at:duration:origin:)`` at the movie's own times, the burn-ins drawn unless it
    /// is the slate.
    private func append(
        prepared picture: Result<YUVPicture, any Error>, at time: MediaTime?, duration: MediaTime?,
        origin: FrameOrigin, isSlate: Bool
    ) async throws {
        while true {
            switch lifecycle.admitFrame() {
            case .proceed:
                let index = origin.index ?? framesAppended
                let prepared = try origin.attributing(index: framesAppended) {
                    var prepared = try picture.get()
                    try Task.checkCancellation()
                    let start = try timeline.schedule(at: time, duration: duration)
                    if let painter, !isSlate, painter.drawsBurnIns {
                        let facts = FrameFacts(
                            number: Self.number(of: origin, fallback: index),
                            framesFromStart: timeline.frames(from: timeline.firstPresentationTime, to: start),
                            file: origin.fileName)
                        painter.draw(into: &prepared, facts)
                    }
                    return prepared
                }
                let frameNumber = framesAppended
                framesAppended += 1
                lifecycle.frameAdmitted()
                let encoding = FrameOrigin(index: index, path: origin.path)
                pendingEncode = Task { [prepared] in
                    encodeInBackground(prepared, frameNumber: frameNumber, origin: encoding)
                }
                return
            case .waitForEncode:
                await pendingEncode?.value
            case .refuse(let error):
                throw error
            }
        }
    }

    /// The image's own number (the last run of digits in its file's name), else `fallback`.
    private static func number(of origin: FrameOrigin, fallback: Int) -> Int {
        guard let name = origin.fileName, let number = NumberPattern(example: name)?.number(in: name) else {
            return fallback
        }
        return number
    }

    /// Encodes an admitted frame and stores its samples; a failure fails the writer, to be thrown
    /// by the next call. The planes then go back to the pool for a later frame.
    private func encodeInBackground(_ picture: consuming YUVPicture, frameNumber: Int, origin: FrameOrigin) {
        if lifecycle.mayEncode {
            do {
                // The encoder counts time in frames (see ``MovieTimeline``).
                let packets = try encoder.encode(picture, presentationTime: Int64(frameNumber))
                try store(packets)
                lifecycle.encodeSucceeded()
            } catch {
                perform(lifecycle.fail(writerFailure(error, origin: origin)))
            }
        }
        preparer.pool.recycle(consume picture)
    }

    /// Drains the encoder, writes the index and renames the complete movie over the destination.
    ///
    /// - Returns: What was written.
    /// - Throws: `.invalidState` when no frame was appended or after a previous finish; the writer's failure.
    public func finish() async throws -> MovieSummary {
        if framesAppended == 0, case .writing = lifecycle.state {
            throw FlipbookError.noFramesAppended()
        }
        while true {
            switch lifecycle.beginFinish() {
            case .proceed:
                do {
                    let summary = try complete()
                    lifecycle.finishSucceeded()
                    return summary
                } catch {
                    let failure = writerFailure(error, origin: FrameOrigin())
                    perform(lifecycle.fail(failure))
                    throw failure
                }
            case .waitForEncode:
                await pendingEncode?.value
            case .refuse(let error):
                throw error
            }
        }
    }

    /// The work of ``finish()`` once no frame is encoding.
    private func complete() throws -> MovieSummary {
        try store(try encoder.flush())
        // A caller cancelled while the last pictures were encoded: the movie is discarded, never published.
        if Task.isCancelled {
            throw FlipbookError.cancelledBeforeFinished()
        }
        if let last = try timeline.finish() { try storeVideo(last) }
        let movieEnd = timeline.presentationEnd
        let conversions = preparer.colourTransform.log.counts
        if let record = ColourConversionTag.item(conversions) { output.addClosingTags([record]) }
        let bytes = try output.finish(video: videoTrack(final: true), movieEnd: movieEnd, extensions: extensions)
        var summary = outline.summary(
            frames: framesAppended, end: movieEnd, bytes: bytes,
            // An animated image's samples are its raw frames: its pictures are the whole file.
            videoBytes: isAnimatedImage ? bytes : videoBytes, codec: encoder.codecName, muxer: output,
            metadata: metadata, colourConversions: conversions)
        summary.warnings += preparer.colourTransform.log.warnings
        return summary
    }

    /// Makes the last frame appended last until `time`, for images left out at the end of a sequence.
    func extendLastFrame(until time: MediaTime) async throws {
        while let pending = pendingEncode, lifecycle.state == .writing(encoding: true) { await pending.value }
        try lifecycle.checkWritable(for: "extendLastFrame")
        try timeline.extendLatest(until: time + slateLength)
    }

    /// Describes the movie as a segment of a longer sequence, for ``MovieJoiner``.
    func describeAsSegment(_ info: SegmentInfo) {
        extensions = [info.box]
    }

    /// Stops writing and removes the temporary files; an existing file at the destination is left as it was.
    ///
    /// Calling it after ``finish()`` or a second time does nothing.
    public func cancel() {
        perform(lifecycle.cancel())
    }

    /// The video track as it stands: its edit list so far.
    private func videoTrack(final: Bool = false) -> Track {
        var codec = encoder.sampleEntry
        if settings.colourStandard.isHDR, var entry = codec as? VideoSampleEntry {
            // HDR metadata: the mastering display given; MaxCLL and MaxFALL given, or measured once every
            // picture is in (the description written at the end has them; one written first keeps room).
            entry.colour.masteringDisplay = settings.masteringDisplay?.volume
            let measured = preparer.contentLight
            entry.colour.contentLightComesLast = settings.contentLight == nil && measured != nil
            if let given = settings.contentLight {
                entry.colour.contentLight = given.level
            } else if final, let measured, measured.hasMeasured {
                let light = measured.contentLight
                entry.colour.contentLight = ContentLightLevel(maxCLL: light.maxCLL, maxFALL: light.maxFALL)
            }
            codec = entry
        }
        return outline.videoTrack(codec: codec, editList: timeline.editList())
    }

    /// Stores a video sample, after the sound that starts before it.
    private func storeVideo(_ sample: MediaSample) throws {
        videoBytes += UInt64(sample.data.count)
        try output.appendVideo(sample, video: { videoTrack() })
    }

    /// Hands each packet to the timeline, and each whole sample it completes to the output.
    private func store(_ packets: [EncodedPacket]) throws {
        for packet in packets {
            // Times are frame numbers: a packet decoded after it is shown, or numbered absurdly far
            // away, is an encoder fault, refused here rather than trapping in the arithmetic.
            let bound: Int64 = 1 << 40
            guard packet.decodeTime <= packet.presentationTime, abs(packet.presentationTime) < bound,
                abs(packet.decodeTime) < bound
            else {
                throw FlipbookError.encoderGaveImpossibleTimes(
                    encoder.codecName, presentation: packet.presentationTime, decoding: packet.decodeTime)
            }
            if let sample = try timeline.add(packet) { try storeVideo(sample) }
        }
    }

    /// Carries out what the lifecycle asks for.
    private func perform(_ cleanup: WriterLifecycle.Cleanup) {
        switch cleanup {
        case .none: break
        case .discardOutput: output.discard()
        }
    }

    /// A failure of the pipeline as the writer reports it: a disk error names the movie the caller
    /// asked for (the temporary file is in the cause); an encoder error names the frame it was
    /// encoding.
    private func writerFailure(_ error: any Error, origin: FrameOrigin) -> FlipbookError {
        origin.attribute(outline.namingMovie(error as? FlipbookError ?? .movieNotWritten(cause: error)))
    }
}
