/// An error from writing or reading an ISO base media file.
///
/// The ``code`` says what kind of problem it is, so a caller can switch on it; the ``message``
/// says what was wrong in words a person can act on; ``offset`` and ``boxType`` locate the problem
/// in the file when it came from reading one.
package struct ISOBMFFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    package enum Code: Sendable, Equatable {
        /// The bytes end before a box or field that they announce.
        case truncated
        /// A box declares a size smaller than its header or larger than its parent.
        case invalidBoxSize
        /// Boxes are nested deeper than ``BoxReader/maximumDepth``.
        case nestingTooDeep
        /// A box's fields are inconsistent with its size or with each other.
        case malformedBox
        /// A box that is required is not there.
        case missingBox
        /// The track description handed to the writer cannot be written.
        case invalidTrack
        /// A movie was finished without a sample.
        case noSamples
    }

    /// The kind of problem.
    package var code: Code
    /// What went wrong, in words.
    package var message: String
    /// The byte offset in the file of the box at fault, when reading.
    package var offset: Int?
    /// The four-character type of the box at fault, when known.
    package var boxType: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: What went wrong.
    ///   - offset: The file offset of the box at fault, if any.
    ///   - boxType: The type of the box at fault, if any.
    package init(_ code: Code, _ message: String, offset: Int? = nil, boxType: String? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.boxType = boxType
    }

    package var description: String {
        var location = ""
        if let boxType { location += "'\(boxType)' box " }
        if let offset { location += "at offset \(offset)" }
        return location.isEmpty ? "ISOBMFF: \(message)" : "ISOBMFF: \(location): \(message)"
    }
}
