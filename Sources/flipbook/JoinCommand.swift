import Flipbook
import Foundation

/// `flipbook join SEGMENT... -o FILE`: joins segments without re-encoding.
enum JoinCommand {
    static let usage =
        "usage: flipbook join SEGMENT... -o FILE [--audio FILE [--audio-offset SECONDS] [--loop-audio] "
        + "[--audio-bitrate RATE] [--audio-codec NAME] [--audio-rate keep]] [--overwrite] [--json] [--quiet]"
    /// The main command's options that join takes.
    static let table = subcommandTable([
        "--output", "--audio", "--audio-offset", "--loop-audio", "--audio-bitrate", "--audio-codec", "--audio-rate",
        "--overwrite",
        "--json", "--quiet",
        "--help",
    ])
    static let summary = "Joins segments made with --segment K/N into one movie, without re-encoding."

    static func run(_ arguments: [String]) -> Int32 {
        let options: CommandLineOptions
        switch SubcommandStart(arguments, table: table, usage: usage, summary: summary) {
        case .run(let parsed): options = parsed
        case .exit(let status): return status
        }
        guard let output = options.output, !options.inputs.isEmpty else {
            Terminal.error("flipbook: \(usage)")
            return 2
        }
        do {
            try CommandLineOptions.checkOutputName(output)
            let container = try MovieContainer(forOutput: URL(fileURLWithPath: output))
            if container.isAnimatedImage {
                throw UsageError(
                    description: "join copies segments' movie samples, which a .\(container.fileExtensions[0]) "
                        + "cannot hold; join to .mp4 or .mkv, or make the \(container.defaultCodec.displayName) "
                        + "from the images.")
            }
            if let codec = options.audioCodec {
                do {
                    try codec.check(in: try MovieContainer(forOutput: URL(fileURLWithPath: output)))
                } catch let error as FlipbookError {
                    throw UsageError(description: "--audio-codec \(codec.name): \(error.message).")
                }
            }
        } catch {
            Terminal.error("flipbook: \(error)")
            return 2
        }
        let started = Date()
        do {
            let movie = try MovieJoiner.join(
                segments: options.inputs.map { URL(fileURLWithPath: $0) }, to: URL(fileURLWithPath: output),
                overwrite: options.overwrite,
                soundtrack: options.audio.map {
                    var soundtrack = Soundtrack(
                        url: URL(fileURLWithPath: $0), offset: options.audioOffset, loops: options.loopAudio,
                        bitrate: options.audioBitrate, codec: options.audioCodec)
                    soundtrack.keepsSampleRate = options.keepAudioRate
                    return soundtrack
                })
            if !options.quiet { Reporting.warningLines(movie).forEach(Terminal.error) }
            if options.json { Terminal.output(Reporting.json(movie)) }
            if !options.quiet {
                Terminal.error(Reporting.summaryLine(movie, seconds: Date().timeIntervalSince(started)))
            }
            return 0
        } catch {
            Terminal.error(Reporting.errorLine(error))
            return 1
        }
    }
}
