import Flipbook

/// The `--help` text, from the option table.
func helpText() -> String {
    var lines = [
        "flipbook: turn a sequence of still images into an "
            + HelpText.list(VideoCodec.allCases.map(\.displayName)) + " movie.",
        "",
        "Usage: flipbook INPUT... -o FILE [options]",
        "       flipbook join SEGMENT... -o FILE [--overwrite] [--json] [--quiet]",
        "       flipbook probe FILE [--json]",
        "",
        "Inputs are image files and folders (a folder means the images directly inside it):",
    ]
    for format in ImageFormat.all {
        let name =
            format.name.count < 6 ? format.name.padding(toLength: 6, withPad: " ", startingAt: 0) : format.name + "  "
        lines += format.summary.enumerated().map { index, line in
            "  " + (index == 0 ? name : String(repeating: " ", count: 6)) + line
        }
    }
    lines += [
        "All inputs are put in natural order by path, so f2 comes before f10, unless --keep-order.",
        "The input - reads standard input: raw frames of --raw-size, or with --stdin images whole image files",
        "back to back (\(ImageStream.formatList)), each found by its own structure, frames in the order they come.",
        "",
        "Options:",
    ]
    lines += optionLines(optionTable)
    lines += [
        "",
        "Examples:",
        "  flipbook frames/ -o movie.mp4",
        "  flipbook frames/ -o clip.mp4 --fps 29.97 --crf 18 --preset slow --overwrite",
        "  flipbook renders/ -o small.mp4 --codec hevc --bit-depth 10",
        "  flipbook renders/ -o shot.mov --codec prores --alpha",
        "  flipbook frames/ -o clip.webm --audio theme.wav       # VP9 and Opus for the web",
        "  flipbook renders/ -o overlay.webm --alpha             # transparent VP9 for browsers",
        "  flipbook a.png b.jpg c.png -o show.mp4 --duration 2",
        "  renderer | flipbook - --raw-size 640x360 --raw-format rgba -o out.mp4",
        "  cat frames/*.png | flipbook - --stdin images -o out.mp4",
        "  flipbook 'render/frame_%04d.png' --follow --follow-until 240 -o shot.mp4",
        "",
        "Following: with --follow, images are taken in number order once complete (closed after writing, or renamed",
        "into the folder; inotify, or listings every 0.1 s where it is missing or FLIPBOOK_FOLLOW_POLLING=1 is set).",
        "The hidden .NAME.flipbook-*.tmp beside the output plays at any moment with every finished fragment. It ends",
        "when --follow-until is taken or nothing new came for --follow-timeout, or on Ctrl-C, which finishes the",
        "movie with the images taken (exit status 0); a second Ctrl-C discards it.",
        "",
        "Segments: --segment auto/N takes K from FLIPBOOK_SEGMENT (from 1), JOB_COMPLETION_INDEX (a Kubernetes",
        "Indexed Job, from 0) or SLURM_ARRAY_TASK_ID (a Slurm array: from 1, or from 0 if it has a task 0).",
        "Encode each segment with the same inputs and options, then: flipbook join part-*.mp4 -o movie.mp4",
        "",
        "Exit status is 0 only when the movie is complete. On failure nothing is left at the output path",
        "and an existing file there is left as it was.",
    ]
    return lines.joined(separator: "\n")
}

/// One line per option of `table`: its spellings and value, then its help sentence, aligned.
func optionLines(_ table: [OptionSpec]) -> [String] {
    let labels = table.map { spec in
        spec.names.joined(separator: ", ") + (spec.value.map { " \($0)" } ?? "")
    }
    let width = (labels.map(\.count).max() ?? 0) + 2
    return zip(labels, table).map { label, spec in
        "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + spec.help
    }
}

/// The options of the main table that a subcommand takes, in the table's order.
func subcommandTable(_ names: Set<String>) -> [OptionSpec] {
    optionTable.filter { !names.isDisjoint(with: $0.names) }
}

/// How a subcommand starts: with its options, or already over (its help was shown, or its
/// arguments were wrong).
enum SubcommandStart {
    case run(CommandLineOptions)
    case exit(Int32)

    /// Parses a subcommand's arguments with its `table`; shows its help (status 0) or a usage error
    /// (status 2) itself.
    init(_ arguments: [String], table: [OptionSpec], usage: String, summary: String) {
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions(parsing: arguments, table: table)
        } catch {
            Terminal.error("flipbook: \(error) \(usage)")
            self = .exit(2)
            return
        }
        guard !options.showHelp else {
            Terminal.output(([usage, summary, ""] + optionLines(table)).joined(separator: "\n"))
            self = .exit(0)
            return
        }
        self = .run(options)
    }
}

/// Pieces of help text and messages made from the library's tables.
enum HelpText {
    /// Items as a sentence lists them: `a, b or c`, or with another last `word`: `a, b and c`.
    static func list(_ items: [String], joinedBy word: String = "or") -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(word) " + items.last!
    }

    /// The kind of output file a codec of one container makes, as messages name it: `.gif`.
    static func outputName(_ codec: VideoCodec) -> String {
        "." + codec.containers[0].fileExtensions[0]
    }

    /// A sample rate as messages say it: `48 kHz`, `44.1 kHz`.
    static func kilohertz(_ rate: Int) -> String {
        number(Double(rate) / 1000) + " kHz"
    }

    /// A whole-number range as help text writes it: `0-51`.
    static func range(_ range: ClosedRange<Double>) -> String {
        "\(number(range.lowerBound))-\(number(range.upperBound))"
    }

    /// A number without a needless `.0`: `23`, `20.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
