import Flipbook
import Foundation

/// Runs the tool and returns its exit status.
func run(_ arguments: [String]) async -> Int32 {
    switch arguments.first {
    case "probe": return ProbeCommand.run(Array(arguments.dropFirst()))
    case "join": return JoinCommand.run(Array(arguments.dropFirst()))
    case "--generate-man-page": return generate(ManPage.render(), arguments, expecting: 1)
    case "--generate-completion":
        guard arguments.count == 2, let shell = ShellCompletion(rawValue: arguments[1]) else {
            Terminal.error("flipbook: --generate-completion needs a shell: \(ShellCompletion.nameList).")
            return 2
        }
        return generate(shell.script, arguments, expecting: 2)
    default: break
    }
    let options: CommandLineOptions
    do {
        options = try CommandLineOptions(parsing: arguments)
        if options.showHelp {
            Terminal.output(helpText())
            return 0
        }
        if options.showVersion {
            Terminal.output(options.json ? VersionText.json() : VersionText.lines())
            return 0
        }
        try options.validate()
    } catch {
        Terminal.error("flipbook: \(error)")
        return 2
    }

    let started = Date()
    let showProgress = !options.quiet && Terminal.stderrIsTerminal
    do {
        let settings = options.videoSettings
        var progress: (@Sendable (SequenceProgress) -> Void)?
        if showProgress {
            let fromStream = options.standardInput == .images
            progress = { @Sendable update in
                Terminal.progress(fromStream ? Reporting.streamLine(update) : Reporting.progressLine(update))
            }
        }
        let output = URL(fileURLWithPath: options.output!)
        // When following, a first Ctrl-C ends following and finishes the movie; a second one discards it.
        let stop = options.follow ? FollowStop() : nil
        var stopGracefully: (@Sendable () -> Void)?
        if let stop { stopGracefully = { stop.request() } }
        let (result, signal) = await runInterruptibly(stopGracefully: stopGracefully) { [settings, progress] in
            try await makeMovie(options, settings: settings, stop: stop, progress: progress)
        }
        // Without following, a signal cancels the work, so a failure after it is the cancellation. While
        // following, the first signal only ends following: a later failure (a damaged image in flight,
        // a full disk while finishing) is reported as itself unless it is the second signal's cancellation.
        if let signal, case .failure(let error) = result, stop == nil || isCancellation(error) {
            if showProgress { Terminal.clearProgress() }
            Terminal.error(
                "flipbook: interrupted by \(signalName(signal)); the movie was discarded and nothing at \(output.path) was changed"
            )
            return 128 + signal
        }
        if case .failure(let error as UsageError) = result {
            if showProgress { Terminal.clearProgress() }
            Terminal.error("flipbook: \(error)")
            return 2
        }
        let movie = try result.get()
        if showProgress { Terminal.clearProgress() }
        if !options.quiet {
            for line in Reporting.warningLines(movie) { Terminal.error(line) }
            if let advice = Reporting.sizeAdvice(movie, sizeGiven: options.size != nil || options.rawSize != nil) {
                Terminal.error("flipbook: warning: \(advice)")
            }
            if let signal, stop != nil {
                Terminal.error("flipbook: \(signalName(signal)): stopped following; the movie holds the images taken")
            }
        }
        if options.json { Terminal.output(Reporting.json(movie)) }
        if !options.quiet { Terminal.error(Reporting.summaryLine(movie, seconds: Date().timeIntervalSince(started))) }
        return 0
    } catch {
        if showProgress { Terminal.clearProgress() }
        Terminal.error(Reporting.errorLine(error))
        // Settings the movie cannot have are a usage error however the size or depth was learnt: from
        // an option, or from the first image (`--level 1` with 640x360 images).
        return (error as? FlipbookError)?.isSettingsConflict == true ? 2 : 1
    }
}

/// Prints a generated document (the man page, a completion script) when the arguments are only the
/// generator's own; these are for packaging, so --help does not list them.
func generate(_ document: @autoclosure () -> String, _ arguments: [String], expecting count: Int) -> Int32 {
    guard arguments.count == count else {
        Terminal.error("flipbook: \(arguments[0]) takes no other options.")
        return 2
    }
    let text = document()
    Terminal.output(text.hasSuffix("\n") ? String(text.dropLast()) : text)
    return 0
}

/// Whether `error` is the work being cancelled (by a signal), not a failure of its own.
func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || (error as? FlipbookError)?.code == .cancelled
}

/// The movie the options ask for: from raw frames or whole images on standard input, or from image files.
func makeMovie(
    _ options: CommandLineOptions, settings: VideoSettings, stop: FollowStop?,
    progress: (@Sendable (SequenceProgress) -> Void)?
) async throws -> MovieSummary {
    if options.standardInput == .raw, let rawSize = options.rawSize {
        return try await makeMovieFromStandardInput(options, rawSize: rawSize, settings: settings)
    }
    var sequence = SequenceOptions(settings: settings)
    sequence.overwrite = options.overwrite
    sequence.imageDuration = options.imageDuration
    sequence.repeatFrames = options.repeatFrames
    sequence.imageLimits = options.imageLimits
    sequence.gaps = options.gaps
    sequence.metadata = options.metadata
    sequence.progress = progress
    if options.follow {
        sequence.startNumber = options.startNumber
        sequence.follow = options.followPolicy
        sequence.stop = stop
        return try await MovieWriter.makeMovie(
            following: URL(fileURLWithPath: options.inputs[0]), to: URL(fileURLWithPath: options.output!),
            options: sequence)
    }
    if options.standardInput == .images {
        sequence.skipInvalidImages = options.skipInvalid
        return try await MovieWriter.makeMovie(
            fromImageData: ImageStream(reading: .standardInput), to: URL(fileURLWithPath: options.output!),
            options: sequence)
    }
    var images: [URL]
    if options.timingList == "exif" {
        images = try ImageFiles.collect(
            options.inputs.map { URL(fileURLWithPath: $0) }, keepOrder: options.keepOrder,
            startNumber: options.startNumber, tiffPages: options.tiffPages)
        let timing = try ImageTimingList(
            capturedBy: images, speedup: options.speedup ?? MediaTime(value: 1, timescale: 1))
        sequence.imageDurations = timing.entries.map(\.duration)
    } else if let list = options.timingList {
        let timing = try ImageTimingList(contentsOf: URL(fileURLWithPath: list))
        images = timing.entries.map(\.image)
        sequence.imageDurations = timing.entries.map(\.duration)
    } else {
        images = try ImageFiles.collect(
            options.inputs.map { URL(fileURLWithPath: $0) }, keepOrder: options.keepOrder,
            startNumber: options.startNumber, tiffPages: options.tiffPages)
    }
    if case .targetSize(let bytes) = settings.rateControl {
        var copies = 1
        if options.repeatFrames, let duration = options.imageDuration {
            copies = max(1, Int((duration.seconds * options.frameRate.framesPerSecond).rounded()))
        }
        let frames = images.count * copies
        let smallest = RateControl.smallestTargetSize(frames: frames)
        if bytes < smallest {
            throw UsageError(
                description:
                    "--target-size \(bytes) bytes cannot hold \(frames) frames; use at least \(smallest) bytes.")
        }
    }
    sequence.segment = try options.segment.map {
        try Segment(parsing: $0, environment: ProcessInfo.processInfo.environment)
    }
    sequence.skipInvalidImages = options.skipInvalid
    sequence.soundtrack = options.audio.map {
        var soundtrack = Soundtrack(
            url: URL(fileURLWithPath: $0), offset: options.audioOffset, loops: options.loopAudio,
            bitrate: options.audioBitrate, codec: options.audioCodec)
        soundtrack.keepsSampleRate = options.keepAudioRate
        return soundtrack
    }
    return try await MovieWriter.makeMovie(
        fromImagesAt: images, to: URL(fileURLWithPath: options.output!), options: sequence)
}

/// Raw frames from standard input; the movie is --size, or the raw size rounded up to even.
func makeMovieFromStandardInput(
    _ options: CommandLineOptions, rawSize: FrameSize, settings: VideoSettings
) async throws -> MovieSummary {
    var settings = settings
    let size = options.size ?? rawSize.roundedUpToEven
    settings.width = size.width
    settings.height = size.height
    let reader = RawFrameReader(
        reading: .standardInput, width: rawSize.width, height: rawSize.height, format: options.rawFormat)
    var movie = try await MovieWriter.makeMovie(
        fromRawFrames: reader, to: URL(fileURLWithPath: options.output!), settings: settings,
        overwrite: options.overwrite, metadata: options.metadata)
    if options.size == nil && size != rawSize { movie.sizeRoundedFrom = rawSize }
    return movie
}

extension CommandLineOptions {
    /// The library's settings for these options: sized by `--size`, or without a size for the
    /// images' (raw frames are sized from `--raw-size` when there is no `--size`).
    var videoSettings: VideoSettings {
        var settings = VideoSettings(frameRate: frameRate, crf: crf, codec: codec, bitDepth: effectiveBitDepth)
        settings.size = size
        settings.preset = preset ?? .medium
        settings.proResProfile = proResProfile
        settings.profile = codecProfile
        settings.rateControl = resolvedRateControl
        settings.rateLimit = maxBitrate.map { RateLimit(maxBitrate: $0, bufferSize: bufferSize ?? 0) }
        settings.keyframeInterval = keyframeInterval
        settings.bFrames = bFrames
        settings.tune = tune
        settings.level = level
        settings.encoderParameters = encoderParameters
        settings.keepsAlpha = keepsAlpha
        settings.quality = quality ?? settings.quality
        settings.lossless = lossless
        settings.loopCount = loopCount ?? settings.loopCount
        settings.encoderThreads = threads
        settings.decodeWorkers = decodeWorkers
        settings.fit = fit
        settings.background = background
        settings.colourStandard = colourStandard
        settings.colourRange = colourRange
        settings.colourManagement = colourManagement
        settings.renderingIntent = renderingIntent
        // validate() has resolved the view already; a failure here leaves the built-in one.
        settings.viewTransform = (try? resolvedViewTransform()) ?? viewTransform
        settings.layer = layer
        settings.timecode = timecode
        settings.burnIns = burnIns
        settings.whiteBalance = whiteBalance
        settings.rawPreview = rawPreview
        settings.deflicker = deflicker
        settings.fields = fields
        settings.fontFile = fontFile.map { URL(fileURLWithPath: $0) }
        settings.slate = slate?.slate(at: frameRate, timecodeOnSlate: timecodeOnSlate)
        settings.peakLuminance = peakLuminance
        settings.masteringDisplay = masteringDisplay
        settings.contentLight = contentLight
        settings.rotation = rotation
        if fragmented || follow {
            settings.fragmentDuration = fragmentDuration ?? MediaTime(value: 1, timescale: 1)
        }
        return settings
    }

    /// How `--follow` follows: `--follow-until`, `--follow-timeout` (also the grace of a gap), and
    /// folder listings instead of inotify when `FLIPBOOK_FOLLOW_POLLING=1` is set.
    var followPolicy: FollowPolicy {
        FollowPolicy(
            lastNumber: followUntil, timeout: followTimeout ?? .seconds(60),
            watching: ProcessInfo.processInfo.environment["FLIPBOOK_FOLLOW_POLLING"] == "1" ? .polling : .events)
    }
}

ProcessTuning.keepLargeBuffersInTheHeap()
let arguments = Array(CommandLine.arguments.dropFirst())
exit(runBlocking { await run(arguments) })
