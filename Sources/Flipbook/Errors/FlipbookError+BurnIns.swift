import Foundation

/// The failures of burn-ins and slates: a template that cannot be read, a field nobody gives, a font
/// that cannot draw the text, a slate out of range. One wording each; each keeps where it was raised
/// (``FlipbookError/origin``).
extension FlipbookError {
    /// A burn-in written without one of the corners before its text.
    static func burnInWithoutCorner(_ text: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        let corners = BurnIn.Corner.allCases.map(\.rawValue).joined(separator: ", ")
        return Self(
            .invalidSettings,
            "burn-in '\(text)' has no corner; write one of \(corners), a colon and the text, such as 'BR:{frame}'",
            fileID: fileID, line: line)
    }

    /// A template with a brace that opens no field or closes none.
    static func burnInBraceUnmatched(_ text: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "burn-in '\(text)' has a brace that is not a field; write fields as {frame}, and a brace itself as {{ or }}",
            fileID: fileID, line: line)
    }

    /// A template naming a field that is neither a frame's nor given.
    static func burnInFieldUnknown(
        _ name: String, in text: String, known: [String], fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "burn-in '\(text)' names the field {\(name)}, which has no value; the fields are "
                + known.map { "{\($0)}" }.joined(separator: ", ") + ", and any given with --field \(name)=VALUE",
            fileID: fileID, line: line)
    }

    /// A field's key that a template cannot name.
    static func fieldKeyInvalid(_ key: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "field '\(key)' cannot be named in a burn-in; a field's key is letters, digits, '_' and '-', "
                + "and not one of the frame's own (\(TextTemplate.frameFields.joined(separator: ", ")))",
            fileID: fileID, line: line)
    }

    /// Text the movie's font has no glyph for.
    static func fontLacksCharacters(
        _ text: String, font path: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "the font has no glyph for some of '\(text)'; give a font that has them with --font FILE "
                + "(fonts-noto-cjk's NotoSansCJK for Chinese, Japanese and Korean)", path: path, fileID: fileID,
            line: line)
    }

    /// The default font is not installed.
    static func defaultFontMissing(_ url: URL, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "burn-ins and slates are drawn in DejaVu Sans, which is not installed; install fonts-dejavu-core, "
                + "or give a font with --font FILE", path: url.path, fileID: fileID, line: line)
    }

    /// A slate of no frames, or longer than an hour.
    static func slateOutOfRange(_ frames: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "a slate of \(frames) frames is out of range; give 1 frame to an hour's",
            fileID: fileID, line: line)
    }

    /// A slate asked of a movie made in segments, which only the whole sequence can begin with.
    static func slateInSegment(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "a slate begins the whole movie, and a segment is part of it; leave --slate out of the segments "
                + "(burn-ins are fine), or make the movie whole", fileID: fileID, line: line)
    }
}
