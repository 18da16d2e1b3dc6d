import Foundation

/// Images with a duration each, as edit scripts and other tools write them: the `--timing FILE` of the
/// tool, ``SequenceOptions/imageDurations`` of the library.
///
/// Three forms are read, told apart by their content:
/// - ffmpeg's concat list: `file 'shot_0001.png'` lines (quoted as ffmpeg quotes, `'\''` for a quote,
///   or bare), each followed by `duration 2.5` when it has one; `ffconcat version 1.0` and `#` comments
///   are skipped;
/// - CSV: `file,duration` lines, a header line of those words allowed, a name in double quotes when it
///   holds a comma;
/// - JSON: an array of `{"file": "a.png", "duration": 2.5}` objects (the duration a number or a string).
///
/// A duration is seconds written exactly (`2`, `0.04`, `1001/24000`), never a rounded float; an image
/// without one lasts the sequence's default (`--duration`, or one frame). Relative names are from the
/// list's own folder, as ffmpeg reads them.
public struct ImageTimingList: Sendable, Equatable {
    /// One image and how long it is shown.
    public struct Entry: Sendable, Equatable {
        public var image: URL
        /// `nil`: the sequence's default.
        public var duration: MediaTime?

        public init(image: URL, duration: MediaTime?) {
            self.image = image
            self.duration = duration
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads the list at `url`.
    ///
    /// - Throws: ``FlipbookError`` naming the file and line (or entry) that is not understood, a
    ///   duration that is not positive seconds, or a list with no images.
    public init(contentsOf url: URL) throws {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw FlipbookError.timingListNotReadable(url.path, cause: error)
        }
        let folder = url.deletingLastPathComponent()
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let named: [(String, String?)]
        if trimmed.hasPrefix("[") {
            named = try Self.json(trimmed, path: url.path)
        } else if Self.isConcatList(trimmed) {
            named = try Self.concat(text, path: url.path)
        } else {
            named = try Self.csv(text, path: url.path)
        }
        guard !named.isEmpty else { throw FlipbookError.timingListEmpty(url.path) }
        entries = try named.enumerated().map { index, entry in
            let (name, duration) = entry
            let image = name.hasPrefix("/") ? URL(fileURLWithPath: name) : folder.appendingPathComponent(name)
            guard let duration else { return Entry(image: image, duration: nil) }
            guard let time = MediaTime(parsingSeconds: duration), time > .zero else {
                throw FlipbookError.timingListDurationNotUnderstood(url.path, entry: index + 1, duration)
            }
            return Entry(image: image, duration: time)
        }
    }

    /// Whether `text` reads as ffmpeg's concat list: its first line that is no comment says `file`
    /// or `ffconcat`.
    static func isConcatList(_ text: String) -> Bool {
        let first = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("#") }
        return first.map { $0.hasPrefix("file ") || $0.hasPrefix("ffconcat ") } ?? false
    }

    /// ffmpeg's concat list: `file NAME` and `duration SECONDS` directives.
    static func concat(_ text: String, path: String) throws -> [(String, String?)] {
        var entries: [(String, String?)] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("ffconcat ") { continue }
            let (directive, argument) = Self.splitDirective(line)
            switch directive {
            case "file":
                guard let name = Self.unquoted(argument), !name.isEmpty else {
                    throw FlipbookError.timingListLineNotUnderstood(path, line: number + 1, line)
                }
                entries.append((name, nil))
            case "duration":
                guard !entries.isEmpty, entries[entries.count - 1].1 == nil else {
                    throw FlipbookError.timingListLineNotUnderstood(path, line: number + 1, line)
                }
                entries[entries.count - 1].1 = argument
            // Directives that change nothing about an image's time.
            case "file_packet_metadata", "file_packet_meta", "option", "stream", "exact_stream_id", "chapter":
                continue
            default:
                throw FlipbookError.timingListLineNotUnderstood(path, line: number + 1, line)
            }
        }
        return entries
    }

    /// CSV lines of a name and a duration; a first line `file,duration` is the header.
    static func csv(_ text: String, path: String) throws -> [(String, String?)] {
        var entries: [(String, String?)] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r"))
            if line.isEmpty || line.hasPrefix("#") { continue }
            var name: String
            var rest: Substring
            if line.hasPrefix("\"") {
                guard let close = line.dropFirst().firstIndex(of: "\"") else {
                    throw FlipbookError.timingListLineNotUnderstood(path, line: number + 1, line)
                }
                name = String(line[line.index(after: line.startIndex)..<close])
                rest = line[line.index(after: close)...]
            } else {
                let comma = line.firstIndex(of: ",") ?? line.endIndex
                name = String(line[..<comma]).trimmingCharacters(in: .whitespaces)
                rest = line[comma...]
            }
            let fields = rest.split(separator: ",", omittingEmptySubsequences: false).dropFirst()
            guard fields.count <= 1, rest.isEmpty || rest.hasPrefix(",") else {
                throw FlipbookError.timingListLineNotUnderstood(path, line: number + 1, line)
            }
            let duration = fields.first.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap {
                $0.isEmpty ? nil : $0
            }
            if entries.isEmpty, name.lowercased() == "file", duration?.lowercased() == "duration" { continue }
            name = name.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                throw FlipbookError.timingListLineNotUnderstood(path, line: number + 1, line)
            }
            entries.append((name, duration))
        }
        return entries
    }

    /// A JSON array of `{"file": …, "duration": …}` objects.
    static func json(_ text: String, path: String) throws -> [(String, String?)] {
        guard let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else {
            throw FlipbookError.timingListLineNotUnderstood(path, line: 1, "not a JSON array of objects")
        }
        return try array.enumerated().map { index, item in
            guard let object = item as? [String: Any], let name = object["file"] as? String, !name.isEmpty else {
                throw FlipbookError.timingListLineNotUnderstood(
                    path, line: index + 1, "entry \(index + 1) has no \"file\"")
            }
            switch object["duration"] {
            case nil, is NSNull: return (name, nil)
            case let text as String: return (name, text)
            // A JSON number as written: its decimal text, read exactly as a duration string is.
            case let number as NSNumber: return (name, number.stringValue)
            default:
                throw FlipbookError.timingListLineNotUnderstood(
                    path, line: index + 1, "entry \(index + 1)'s \"duration\" is no number")
            }
        }
    }

    /// A directive and its argument, split at the first run of spaces.
    private static func splitDirective(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return (line, "") }
        return (String(line[..<space]), line[space...].trimmingCharacters(in: .whitespaces))
    }

    /// A concat argument without ffmpeg's quoting: `'…'` pieces (`'\''` a quote), backslash escapes.
    private static func unquoted(_ argument: String) -> String? {
        var result = ""
        var quoted = false
        var escaped = false
        for character in argument {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "'" {
                quoted.toggle()
            } else if character == "\\" && !quoted {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return quoted || escaped ? nil : result
    }
}
