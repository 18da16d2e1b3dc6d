import Flipbook
import Foundation

/// `flipbook.1`, the manual page, made from the same option table and help text as `--help`, so the
/// two cannot drift: `flipbook --generate-man-page > flipbook.1`.
enum ManPage {
    /// The page in man(7) macros. Its date is `SOURCE_DATE_EPOCH` when set (a reproducible build),
    /// else today.
    static func render(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let date =
            environment["SOURCE_DATE_EPOCH"].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) } ?? Date()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let blocks = helpText().components(separatedBy: "\n\n").map { $0.components(separatedBy: "\n") }
        var description: [String] = []
        var subsections: [String] = []
        var synopsis: [String] = []
        var examples: [String] = []
        var exitStatus: [String] = []
        var name = "turn a sequence of still images into a movie"
        for (index, block) in blocks.enumerated() {
            let first = block[0]
            if index == 0 {
                name = first.replacingOccurrences(of: "flipbook: ", with: "").trimmingCharacters(in: ["."])
            } else if first.hasPrefix("Usage:") {
                synopsis = block.map {
                    $0.replacingOccurrences(of: "Usage:", with: "").trimmingCharacters(in: .whitespaces)
                }
            } else if first == "Options:" {
                continue
            } else if first == "Examples:" {
                examples = Array(block.dropFirst())
            } else if first.hasPrefix("Exit status") {
                exitStatus = block
            } else if let heading = heading(first) {
                subsections += [".SS " + heading.title] + text([heading.rest] + block.dropFirst())
            } else {
                description += [".PP"] + text(block)
            }
        }
        var page = [
            ".TH FLIPBOOK 1 \(formatter.string(from: date)) \"Flipbook \(FlipbookBuild.version)\" \"User Commands\"",
            ".SH NAME", "flipbook \\- " + escape(name),
            ".SH SYNOPSIS",
        ]
        page += synopsis.map(synopsisLine).joined(separator: "\n.br\n").split(separator: "\n").map(String.init)
        page += [".SH DESCRIPTION"] + description.dropFirst() + subsections
        page += [".SH OPTIONS"] + options(optionTable)
        page += [".SH COMMANDS"]
        for command in Subcommands.all {
            page += [".SS flipbook \(command.name)", escape(command.summary), ".PP", escape(command.usage)]
            page += options(command.table)
        }
        page += [".SH EXIT STATUS"] + text(exitStatus)
        page += [".SH EXAMPLES", ".nf"] + examples.map { escape($0.trimmingCharacters(in: .whitespaces)) } + [".fi"]
        page += [".SH SEE ALSO", ".BR ffmpeg (1),", ".BR ffprobe (1)"]
        return page.joined(separator: "\n") + "\n"
    }

    /// `Segments: text` opens a subsection named Segments; a sentence that merely has a colon does not.
    private static func heading(_ line: String) -> (title: String, rest: String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let title = line[..<colon]
        guard !title.isEmpty, !title.contains(" "), title.first!.isUppercase else { return nil }
        let rest = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return (String(title), rest.prefix(1).uppercased() + rest.dropFirst())
    }

    /// Lines of help text as roff: prose is filled, indented lines (a table) are kept as they are.
    private static func text(_ lines: [String]) -> [String] {
        var out: [String] = []
        var inTable = false
        for line in lines where !line.isEmpty {
            let indented = line.hasPrefix("  ")
            if indented != inTable {
                out.append(indented ? ".nf" : ".fi")
                inTable = indented
            }
            out.append(escape(indented ? line : line.trimmingCharacters(in: .whitespaces)))
        }
        if inTable { out.append(".fi") }
        return out
    }

    /// One synopsis line: the command in bold, the rest as written.
    private static func synopsisLine(_ line: String) -> String {
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        return "\\fB\(escape(words[0]))\\fR" + (words.count > 1 ? " " + escape(words[1]) : "")
    }

    /// One tagged paragraph per option: its spellings in bold, its value in italics, its help.
    private static func options(_ table: [OptionSpec]) -> [String] {
        table.flatMap { spec in
            let names = spec.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
            return [".TP", names + (spec.value.map { " \\fI\(escape($0))\\fR" } ?? ""), escape(spec.help)]
        }
    }

    /// Text made safe for roff: backslashes, a leading dot or quote, and the hyphens that begin a
    /// word (options, `-`), which must stay ASCII minus signs to be typed as shown.
    static func escape(_ text: String) -> String {
        var escaped = ""
        var previous: Character?
        for character in text {
            switch character {
            case "\\": escaped += "\\e"
            case "-" where previous == nil || previous == "-" || " ([|/,=\"'".contains(previous!): escaped += "\\-"
            default: escaped.append(character)
            }
            previous = character
        }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
