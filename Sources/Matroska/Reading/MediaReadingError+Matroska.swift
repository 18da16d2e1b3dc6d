import MediaModel

extension MediaReadingError {
    /// A Matroska or WebM file the reader cannot parse, located by the element at fault:
    /// `Matroska: Info at offset 0: …`.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: What went wrong.
    ///   - offset: The file offset of the element at fault, if any.
    ///   - element: The ID of the element at fault, if any.
    static func matroska(
        _ code: Code, _ message: String, offset: UInt64? = nil, element: EBMLID? = nil, fileID: String = #fileID,
        line: Int = #line
    ) -> MediaReadingError {
        .reading(
            "Matroska", code, message, offset: offset, place: element.map { $0.name ?? "element \($0)" },
            fileID: fileID, line: line)
    }
}
