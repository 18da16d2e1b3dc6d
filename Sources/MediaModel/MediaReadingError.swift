/// A file a reader cannot parse: an MP4 or QuickTime box, or a Matroska or WebM element, that is
/// cut short, impossibly sized, malformed, missing, or of another format than the reader's.
///
/// The ``code`` says what kind of problem it is, so a caller can switch on it; the ``message`` says
/// what was wrong in words; ``offset`` and ``place`` locate the problem in the file. Made only
/// through its readers' factories, each keeping where it was raised (``fileID``, ``line``).
package struct MediaReadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    package enum Code: Sendable, Equatable {
        /// The file is of another format than the reader's (not EBML, or neither `matroska` nor `webm`).
        case otherFormat
        /// The bytes end before a box, element or field that they announce.
        case truncated
        /// An element ID or size is not a valid variable-length integer.
        case invalidHeader
        /// A box's or element's size is smaller than its header, runs past its parent, or is
        /// impossible for its kind.
        case invalidSize
        /// Boxes or elements are nested deeper than the reader follows.
        case nestingTooDeep
        /// A box's or element's fields are inconsistent with its size, its kind, each other or the
        /// rest of the file.
        case malformed
        /// A box or element that is required is not there.
        case missing
        /// A track of a kind the reader does not take.
        case unsupported
    }

    /// The format whose reader raised the error, as the description begins: `ISOBMFF`, `Matroska`.
    package let format: String
    /// The kind of problem.
    package let code: Code
    /// What went wrong, in words.
    package let message: String
    /// The byte offset in the file of the box or element at fault, when known.
    package let offset: UInt64?
    /// The box or element at fault as the description names it (`'moov' box`, `Info`), when known.
    package let place: String?
    /// Where in Flipbook's source the error was raised, for a report.
    package let fileID: String
    package let line: Int

    /// An error of `format`'s reader; each reader's factory names its boxes or elements as `place`.
    package static func reading(
        _ format: String, _ code: Code, _ message: String, offset: UInt64?, place: String?, fileID: String,
        line: Int
    ) -> MediaReadingError {
        MediaReadingError(
            format: format, code: code, message: message, offset: offset, place: place, fileID: fileID, line: line)
    }

    private init(
        format: String, code: Code, message: String, offset: UInt64?, place: String?, fileID: String, line: Int
    ) {
        self.format = format
        self.code = code
        self.message = message
        self.offset = offset
        self.place = place
        self.fileID = fileID
        self.line = line
    }

    package static func == (lhs: MediaReadingError, rhs: MediaReadingError) -> Bool {
        (lhs.format, lhs.code, lhs.message, lhs.offset, lhs.place)
            == (rhs.format, rhs.code, rhs.message, rhs.offset, rhs.place)
    }

    package var description: String {
        let location = [place, offset.map { "at offset \($0)" }].compactMap { $0 }.joined(separator: " ")
        return location.isEmpty ? "\(format): \(message)" : "\(format): \(location): \(message)"
    }
}
