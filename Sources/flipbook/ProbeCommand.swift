import Flipbook
import Foundation

/// `flipbook probe FILE [--json]`: what a movie holds, from its boxes.
enum ProbeCommand {
    static let usage = "usage: flipbook probe FILE [--json]"
    /// The main command's options that probe takes.
    static let table = subcommandTable(["--json", "--help"])
    static let summary =
        "Prints codec, profile, size, frames, duration, frame rate, colour tags and conversions, layout, rotation and "
        + "metadata."

    static func run(_ arguments: [String]) -> Int32 {
        let options: CommandLineOptions
        switch SubcommandStart(arguments, table: table, usage: usage, summary: summary) {
        case .run(let parsed): options = parsed
        case .exit(let status): return status
        }
        guard options.inputs.count == 1, options.inputs[0] != "-" else {
            Terminal.error("flipbook: \(usage)")
            return 2
        }
        let json = options.json
        let path = options.inputs[0]
        if let container = try? MovieContainer(forOutput: URL(fileURLWithPath: path)), container.isAnimatedImage {
            Terminal.error(
                "flipbook: probe reads movies (.mp4, .mov, .webm, .mkv); for a .\(container.fileExtensions[0]) use "
                    + "ffprobe -show_frames, or Pillow.")
            return 2
        }
        let inspection: MovieInfo
        do {
            inspection = try MovieInfo(contentsOf: URL(fileURLWithPath: path))
        } catch {
            Terminal.error(Reporting.errorLine(error))
            return 1
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = (try? encoder.encode(inspection)) ?? Data("{}".utf8)
            Terminal.output(String(decoding: data, as: UTF8.self))
        } else {
            Terminal.output(describe(inspection, path: path))
        }
        return 0
    }

    static func describe(_ movie: MovieInfo, path: String) -> String {
        var codec = movie.codec
        if let profile = movie.profile {
            codec += " (\(profile)" + (movie.level.map { String(format: ", level %.1f", $0) } ?? "") + ")"
        }
        let rate =
            movie.constantFrameRate
            ? "\(movie.frameRate) fps, constant"
            : String(format: "variable, %.3f fps on average", movie.averageFrameRate)
        let colour =
            movie.colourPrimaries.map {
                "\($0) primaries, \(movie.colourTransfer ?? "?") transfer, \(movie.colourMatrix ?? "?") matrix"
                    + (movie.colourRange.map { ", \($0) range" } ?? "")
            } ?? "not tagged"
        var lines = [
            path,
            "  codec       \(codec)",
            "  size        \(movie.width)x\(movie.height)" + (movie.hasAlpha ? ", with alpha" : ""),
            "  frames      \(movie.frames)",
            String(format: "  duration    %.6f s", movie.duration),
            "  frame rate  \(rate)",
            "  colour      \(colour)",
            "  layout      \(movie.layout), brand \(movie.majorBrand.trimmingCharacters(in: .whitespaces))",
            "  problems    " + (movie.problems.isEmpty ? "none" : movie.problems.joined(separator: "; ")),
        ]
        if let conversions = movie.colourConversions {
            let counts = conversions.sorted { $0.key < $1.key }.map { "\($0.value) from \($0.key)" }
            lines.insert(
                "  converted   " + counts.joined(separator: ", ") + " (images, into the movie's colour)", at: 7)
        }
        if let bitrate = movie.videoBitrate {
            let keyframes = movie.keyframeInterval.map { ", keyframes at most \($0) frames apart" } ?? ""
            lines.insert(String(format: "  bit rate    %.0f kb/s", bitrate / 1000) + keyframes, at: 5)
        }
        switch movie.rotation {
        case 0?: break
        case let degrees?: lines.insert("  rotation    \(degrees)° clockwise when shown", at: 3)
        case nil: lines.insert("  rotation    not a quarter turn (the display matrix mirrors or scales)", at: 3)
        }
        if let audio = movie.audio {
            let channels = audio.channels == 1 ? "1 channel" : "\(audio.channels) channels"
            let line = "  audio       \(audio.codec), \(audio.sampleRate) Hz, \(channels), "
            lines.insert(line + String(format: "%.6f s", audio.duration), at: lines.count - 2)
        }
        if !movie.metadata.isEmpty {
            let width = movie.metadata.keys.map(\.count).max() ?? 0
            let tags = movie.metadata.keys.sorted().map { key in
                key + ":" + String(repeating: " ", count: width - key.count + 1) + movie.metadata[key]!
            }
            lines += tags.enumerated().map { ($0 == 0 ? "  metadata    " : "              ") + $1 }
        }
        return lines.joined(separator: "\n")
    }
}
