import Foundation
import ISOBMFF

/// Writes a sequence of frames as an H.264 movie file (MP4, M4V or MOV by the file's extension).
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
/// (``append(_:at:duration:)``), and the last frame is shown for its full duration. The movie is written beside the destination under a hidden temporary name and
/// appears at the destination only when ``finish()`` succeeds.
///
/// - Important: A frame that cannot be used (unreadable image) throws from `append` and
///   leaves the writer usable, so a caller may skip it. A failure of the encoder or the disk fails
///   the writer: its temporary files are removed and every later call throws the same error. Calls
///   after ``finish()`` or ``cancel()`` throw.
public actor MovieWriter {
    /// Where the movie will appear.
    public nonisolated let url: URL
    /// The movie's settings.
    public nonisolated let settings: VideoSettings

    private var lifecycle = WriterLifecycle()
    private let encoder: any VideoEncoder
    private let file: any MovieOutput
    /// Fits and converts frames; usable off the actor, so preparation overlaps encoding.
    nonisolated let preparer: FramePreparer
    private var timeline: MovieTimeline
    private nonisolated let imageLimits: ImageLimits
    /// Private boxes written into the movie's `moov` (a segment's description).
    var extensions: [UserExtensionBox] = []
    /// Frames accepted so far.
    public private(set) var framesAppended = 0
    /// The encoding of the last frame a public `append` accepted, while it runs.
    private var pendingEncode: Task<Void, Never>?

    private nonisolated let executor = WriterExecutor()
    /// The writer runs on a Dispatch queue of its own, so the encoder's blocking calls do not hold
    /// one of the few threads Swift concurrency shares among all tasks.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Creates a writer; nothing appears at `url` until ``finish()`` succeeds.
    ///
    /// - Parameters:
    ///   - url: The movie's destination; its extension chooses the container brand (`.mov` is QuickTime).
    ///   - settings: Size, frame rate, CRF and preset.
    ///   - overwrite: Whether an existing file at `url` may be replaced when the movie is complete.
    ///   - imageLimits: Bounds on the size of images decoded by ``append(imageAt:)``.
    /// - Throws: ``FlipbookError`` with `.outputExists` when `url` exists and `overwrite` is false,
    ///   `.invalidSettings` for settings out of range, `.outputNotWritable` when the folder cannot be written.
    public init(url: URL, settings: VideoSettings, overwrite: Bool = false, imageLimits: ImageLimits = ImageLimits())
        throws
    {
        try self.init(url: url, settings: settings, overwrite: overwrite, imageLimits: imageLimits) {
            settings, matrix in
            try X264Encoder(settings: settings, colour: matrix)
        }
    }

    init(
        url: URL, settings: VideoSettings, overwrite: Bool, imageLimits: ImageLimits,
        makeEncoder: (VideoSettings, ColourMatrix) throws -> any VideoEncoder
    ) throws {
        try settings.validate()
        try MovieFile.checkDestination(url, overwrite: overwrite)
        self.url = url
        self.settings = settings
        self.imageLimits = imageLimits
        let matrix = ColourMatrix(settings.colourStandard, settings.colourRange)
        preparer = FramePreparer(settings: settings, matrix: matrix)
        timeline = try MovieTimeline(timescale: settings.resolvedTimescale, frameRate: settings.frameRate)
        encoder = try makeEncoder(settings, matrix)
        if let fragmentDuration = settings.fragmentDuration {
            let ticks = fragmentDuration.value * Int64(timeline.timescale) / Int64(fragmentDuration.timescale)
            file = try FragmentedMovieFile(
                destination: url, overwrite: overwrite,
                track: Self.track(settings: settings, timescale: timeline.timescale, encoder: encoder, matrix: matrix),
                fragmentDuration: UInt64(max(1, ticks)))
        } else {
            file = try MovieFile(destination: url, overwrite: overwrite, timescale: timeline.timescale)
        }
    }

    /// Appends a frame.
    ///
    /// A frame of another size is fitted to the movie by ``VideoSettings/fit``; transparent pixels
    /// are composited over ``VideoSettings/background``.
    ///
    /// - Parameters:
    ///   - frame: The picture, of any size.
    ///   - time: When the frame is presented; `nil` means when the previous frame ends (time zero for
    ///     the first frame). Times must strictly increase.
    ///   - duration: How long the frame is shown; `nil` means one frame at the settings' frame rate,
    ///     or, when the next frame is given a time, until that time. A slideshow image shown for two
    ///     seconds is one encoded frame lasting two seconds.
    /// The frame is fitted and converted on the caller's task; then the call returns as soon as the
    /// encoder has finished the previous frame, so the caller prepares the next frame while this
    /// one is encoded. A failure of the encoder or the disk while encoding it fails the writer and is
    /// thrown by the next call (`append` or ``finish()``).
    ///
    /// - Throws: `.invalidTimestamp` for a time that does not increase or is not a whole number of
    ///   ticks of the movie's time scale (the writer stays usable); the writer's failure if it has
    ///   failed; `.invalidState` after ``finish()``; `CancellationError` when the task is cancelled.
    public nonisolated func append(_ frame: Frame, at time: MediaTime? = nil, duration: MediaTime? = nil) async throws {
        // Fitting and colour conversion run here, off the actor, while the encoder works on the
        // previous frame.
        let picture = Result { try preparer.prepare(frame) }
        try await accept(prepared: picture, at: time, duration: duration)
    }

    /// The public appends' way in: checks the frame and schedules its time now, so its errors are
    /// this call's, then encodes it in the background and returns, so the caller prepares the next
    /// frame while the encoder works. One frame at a time is encoded this way: a call first waits
    /// for the previous frame's encoding, and sees its failure, if any, as the writer's.
    private func accept(
        prepared picture: consuming Result<YUVPicture, any Error>, at time: MediaTime?, duration: MediaTime?
    ) async throws {
        await drainPendingEncode()
        let prepared = try admit(picture, at: time, duration: duration)
        let index = framesAppended
        framesAppended += 1
        pendingEncode = Task { [prepared] in
            // Unless the writer stopped meanwhile; a failure is kept by `failing` for the next call.
            guard (try? lifecycle.checkWritable(for: "append")) != nil else { return }
            try? encode(prepared, index: index)
        }
    }

    /// Waits until no accepted frame is left to encode.
    private func drainPendingEncode() async {
        while let pending = pendingEncode {
            pendingEncode = nil
            await pending.value
        }
    }

    /// Appends a frame that ``preparer`` has fitted and converted (or failed to), and encodes it
    /// before returning: the image-sequence pipeline's way in, which prepares ahead on its own.
    func append(
        prepared picture: consuming Result<YUVPicture, any Error>, at time: MediaTime?, duration: MediaTime?
    ) throws {
        let prepared = try admit(picture, at: time, duration: duration)
        try encode(consume prepared, index: framesAppended)
        framesAppended += 1
    }

    /// What every append does before encoding: checks the writer and the prepared frame, and
    /// schedules the frame's time (throwing, with the writer still usable, for a time that does not fit).
    private func admit(
        _ picture: consuming Result<YUVPicture, any Error>, at time: MediaTime?, duration: MediaTime?
    ) throws -> YUVPicture {
        try lifecycle.checkWritable(for: "append")
        let prepared: YUVPicture
        switch consume picture {
        case .success(let converted): prepared = converted
        case .failure(let error as FlipbookError): throw error.attributed(toFrame: framesAppended, path: nil)
        case .failure(let error): throw error
        }
        try Task.checkCancellation()
        try timeline.schedule(at: time, duration: duration)
        return prepared
    }

    /// Encodes frame `index` and stores its packets (a failure fails the writer); the encoder has
    /// then copied the samples, so the planes go back to the pool for a later frame.
    private func encode(_ prepared: consuming YUVPicture, index: Int) throws {
        try failing {
            let packets = try encoder.encode(prepared, presentationTime: Int64(index))
            try store(packets)
        }
        preparer.pool.recycle(consume prepared)
    }

    /// Reads and decodes a PNG or JPEG file and appends it as the next frame.
    ///
    /// - Throws: `.unreadableInput`, `.unsupportedImage` or `.corruptImage` naming the file and the
    ///   frame index (the writer stays usable), and everything ``append(_:)`` throws.
    public nonisolated func append(imageAt imageURL: URL, at time: MediaTime? = nil, duration: MediaTime? = nil)
        async throws
    {
        // Decoding, fitting and conversion run here, off the actor, like append(_:at:duration:).
        let path = imageURL.path
        let picture = Result { try preparer.prepare(try ImageDecoder.decodeFile(at: imageURL, limits: imageLimits)) }
            .mapError { error in (error as? FlipbookError)?.attributed(toFrame: nil, path: path) ?? error }
        do {
            try await accept(prepared: picture, at: time, duration: duration)
        } catch let error as FlipbookError {
            // A time that does not fit is this image's fault too; the writer's own failures are not.
            if let index = error.frameIndex, index == (await framesAppended) {
                throw error.attributed(toFrame: nil, path: path)
            }
            throw error
        }
    }

    /// Drains the encoder, writes the index and renames the complete movie over the destination.
    ///
    /// - Returns: What was written.
    /// - Throws: `.invalidState` when no frame was appended or after a previous finish; the writer's failure.
    public func finish() async throws -> MovieSummary {
        await drainPendingEncode()
        try lifecycle.checkWritable(for: "finish")
        guard framesAppended > 0 else {
            throw FlipbookError(.invalidState, "no frames were appended; a movie needs at least one frame")
        }
        let bytes: UInt64 = try failing {
            try store(try encoder.flush())
            if let last = timeline.finish() { try file.addSample(last) { timeline.editList() } }
            let track = Self.track(
                settings: settings, timescale: timeline.timescale, encoder: encoder, matrix: preparer.converter.matrix)
            return try file.commit(track: track, editList: timeline.editList(), extensions: extensions)
        }
        lifecycle.finished()
        return MovieSummary(
            url: url, frames: framesAppended,
            duration: MediaTime(
                value: timeline.presentationEnd, timescale: timeline.timescale),
            bytes: bytes, width: settings.width, height: settings.height, codec: encoder.codecName,
            warnings: file.warnings)
    }

    /// Makes the last frame appended last until `time`, for images left out at the end of a sequence.
    func extendLastFrame(until time: MediaTime) throws {
        try lifecycle.checkWritable(for: "extendLastFrame")
        try timeline.extendLatest(until: time)
    }

    /// Describes the movie as a segment of a longer sequence, for ``MovieJoiner``.
    func describeAsSegment(_ info: SegmentInfo) {
        extensions = [info.box]
    }

    /// Stops writing and removes the temporary files; an existing file at the destination is left as it was.
    ///
    /// Calling it after ``finish()`` or a second time does nothing.
    public func cancel() {
        if lifecycle.cancel() { file.discard() }
    }

    /// Writes each packet's bytes now and its table entry once its decode duration is known.
    private func store(_ packets: [EncodedPacket]) throws {
        for packet in packets {
            let finished = timeline.add(packet)
            if let finished { try file.addSample(finished) { timeline.editList() } }
            try file.writeSampleData(packet.data)
        }
    }

    /// Runs pipeline work; a failure fails the writer, removes its temporary files, and is rethrown.
    private func failing<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch {
            var failure =
                error as? FlipbookError
                ?? FlipbookError(.encoderFailed, "the movie could not be written", underlying: "\(error)")
            // A disk error names the movie the caller asked for; the temporary file is in `underlying`.
            if failure.code == .outputNotWritable { failure.path = url.path }
            lifecycle.fail(failure)
            file.discard()
            throw failure
        }
    }
}

extension MovieWriter {
    /// The video track the movie describes.
    fileprivate static func track(
        settings: VideoSettings, timescale: Int32, encoder: any VideoEncoder, matrix: ColourMatrix
    ) -> VideoTrack {
        VideoTrack(
            width: settings.width, height: settings.height, timescale: UInt32(timescale),
            decoderConfiguration: encoder.decoderConfiguration, colour: ColourDescription(matrix),
            compressorName: "Flipbook H.264")
    }
}

extension ColourDescription {
    init(_ matrix: ColourMatrix) {
        self.init(
            colourPrimaries: matrix.colourPrimaries, transferCharacteristics: matrix.transferCharacteristics,
            matrixCoefficients: matrix.matrixCoefficients, fullRange: matrix.fullRange)
    }
}
