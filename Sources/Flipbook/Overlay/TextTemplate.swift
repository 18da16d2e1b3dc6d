/// A burn-in's text, read once: literal runs and `{field}` names, `{{` and `}}` standing for braces.
struct TextTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        case field(String)
    }

    /// The fields every frame has: its number, timecode, file, the date and the rate.
    static let frameFields = ["frame", "timecode", "file", "date", "fps"]

    let parts: [Part]

    /// The template `text`, its field names each one of `frameFields` or of `given`.
    ///
    /// - Throws: `.invalidSettings` quoting the text for an unclosed or empty brace, or naming an unknown
    ///   field and the ones there are.
    init(_ text: String, given: some Collection<String>) throws {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{" && next < text.endIndex && text[next] == "{"
                || character == "}" && next < text.endIndex && text[next] == "}"
            {
                literal.append(character)
                index = text.index(after: next)
                continue
            }
            if character == "}" {
                throw FlipbookError.burnInBraceUnmatched(text)
            }
            guard character == "{" else {
                literal.append(character)
                index = next
                continue
            }
            guard let close = text[next...].firstIndex(of: "}") else {
                throw FlipbookError.burnInBraceUnmatched(text)
            }
            let name = String(text[next..<close])
            guard !name.isEmpty, !name.contains("{") else { throw FlipbookError.burnInBraceUnmatched(text) }
            guard Self.frameFields.contains(name) || given.contains(name) else {
                throw FlipbookError.burnInFieldUnknown(name, in: text, known: Self.frameFields + given.sorted())
            }
            if !literal.isEmpty { parts.append(.literal(literal)) }
            literal = ""
            parts.append(.field(name))
            index = text.index(after: close)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// Whether the text names `field`.
    func names(_ field: String) -> Bool { parts.contains(.field(field)) }

    /// The text with each field's value from `value`.
    func text(_ value: (String) -> String) -> String {
        parts.map {
            switch $0 {
            case .literal(let text): text
            case .field(let name): value(name)
            }
        }
        .joined()
    }
}
