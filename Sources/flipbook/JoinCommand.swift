import Flipbook
import Foundation

/// `flipbook join SEGMENT... -o FILE`: joins segments without re-encoding.
enum JoinCommand {
    static let usage = "usage: flipbook join SEGMENT... -o FILE [--overwrite] [--json] [--quiet]"

    static func run(_ arguments: [String]) -> Int32 {
        var segments: [String] = []
        var output: String?
        var overwrite = false
        var json = false
        var quiet = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "-o", "--output":
                guard index < arguments.count else {
                    Terminal.error("flipbook: \(argument) needs a value (FILE).")
                    return 2
                }
                output = arguments[index]
                index += 1
            case "--overwrite": overwrite = true
            case "--json": json = true
            case "-q", "--quiet": quiet = true
            case "-h", "--help":
                Terminal.output(usage + "\nJoins segments made with --segment K/N into one movie, without re-encoding.")
                return 0
            default:
                if argument.hasPrefix("-") {
                    Terminal.error("flipbook: unknown option \(argument) for join; \(usage)")
                    return 2
                }
                segments.append(argument)
            }
        }
        guard let output, !segments.isEmpty else {
            Terminal.error("flipbook: \(usage)")
            return 2
        }
        let started = Date()
        do {
            let movie = try MovieJoiner.join(
                segments: segments.map { URL(fileURLWithPath: $0) }, to: URL(fileURLWithPath: output),
                overwrite: overwrite)
            if !quiet { for line in Reporting.warningLines(movie) { Terminal.error(line) } }
            if json { Terminal.output(Reporting.json(movie)) }
            if !quiet { Terminal.error(Reporting.summaryLine(movie, seconds: Date().timeIntervalSince(started))) }
            return 0
        } catch {
            Terminal.error(Reporting.errorLine(error))
            return 1
        }
    }
}
