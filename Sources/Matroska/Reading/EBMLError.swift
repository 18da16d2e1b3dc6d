/// An error from reading a Matroska or WebM file: what was wrong, and where.
///
/// The ``code`` says what kind of problem it is, so a caller can switch on it; the ``message`` says
/// what was wrong in words; ``offset`` and ``element`` locate the problem in the file.
package struct EBMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    package enum Code: Sendable, Equatable {
        /// The file is not EBML, or its document type is neither `matroska` nor `webm`.
        case notMatroska
        /// The bytes end before an element or field that they announce.
        case truncated
        /// An element ID or size is not a valid variable-length integer.
        case invalidHeader
        /// An element's size runs past its parent, or is impossible for its kind.
        case invalidSize
        /// Elements are nested deeper than ``EBMLReader/maximumDepth``.
        case nestingTooDeep
        /// An element's value is inconsistent with its kind or with the rest of the file.
        case malformedElement
        /// An element that is required is not there.
        case missingElement
    }

    /// The kind of problem.
    package var code: Code
    /// What went wrong, in words.
    package var message: String
    /// The byte offset in the file of the element at fault, when known.
    package var offset: UInt64?
    /// The element at fault, when known.
    package var element: EBMLID?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: What went wrong.
    ///   - offset: The file offset of the element at fault, if any.
    ///   - element: The ID of the element at fault, if any.
    package init(_ code: Code, _ message: String, offset: UInt64? = nil, element: EBMLID? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.element = element
    }

    package var description: String {
        var location = ""
        if let element { location += "\(element.name ?? "element \(element)") " }
        if let offset { location += "at offset \(offset)" }
        let place = location.trimmingCharacters(in: " ")
        return place.isEmpty ? "Matroska: \(message)" : "Matroska: \(place): \(message)"
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
