import Flipbook
import Foundation

/// The tool's version, printed by --version.
let flipbookVersion = "0.1.0"

/// Runs the tool and returns its exit status.
func run(_ arguments: [String]) async -> Int32 {
    switch arguments.first {
    case "probe": return ProbeCommand.run(Array(arguments.dropFirst()))
    case "join": return JoinCommand.run(Array(arguments.dropFirst()))
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
            Terminal.output("flipbook \(flipbookVersion)")
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
        let images = try ImageFiles.collect(
            options.inputs.map { URL(fileURLWithPath: $0) }, keepOrder: options.keepOrder)
        var settings = VideoSettings(width: 2, height: 2, frameRate: options.frameRate, crf: options.crf)
        settings.preset = options.preset
        settings.fit = options.fit
        settings.background = options.background
        settings.colourStandard = options.colourStandard
        settings.colourRange = options.colourRange
        var progress: (@Sendable (SequenceProgress) -> Void)?
        if showProgress {
            progress = { @Sendable update in Terminal.progress(Reporting.progressLine(update)) }
        }
        let segment = try options.segment.map {
            try Segment(parsing: $0, environment: ProcessInfo.processInfo.environment)
        }
        let movie = try await MovieWriter.makeMovie(
            fromImagesAt: images, to: URL(fileURLWithPath: options.output!), settings: settings, size: options.size,
            overwrite: options.overwrite, imageDuration: options.imageDuration, repeatFrames: options.repeatFrames,
            segment: segment, progress: progress)
        if showProgress { Terminal.clearProgress() }
        if options.json { Terminal.output(Reporting.json(movie)) }
        if !options.quiet { Terminal.error(Reporting.summaryLine(movie, seconds: Date().timeIntervalSince(started))) }
        return 0
    } catch {
        if showProgress { Terminal.clearProgress() }
        Terminal.error("flipbook: error: \(error)")
        return 1
    }
}

exit(await run(Array(CommandLine.arguments.dropFirst())))
