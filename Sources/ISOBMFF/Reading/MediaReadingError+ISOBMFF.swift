import MediaModel

extension MediaReadingError {
    /// An ISO base media file the reader cannot parse, located by the box at fault:
    /// `ISOBMFF: 'moov' box at offset 0: …`.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: What went wrong.
    ///   - offset: The file offset of the box at fault, if any.
    ///   - boxType: The type of the box at fault, if any.
    static func isoBMFF(
        _ code: Code, _ message: String, offset: Int? = nil, boxType: String? = nil, fileID: String = #fileID,
        line: Int = #line
    ) -> MediaReadingError {
        .reading(
            "ISOBMFF", code, message, offset: offset.map { UInt64(clamping: $0) }, place: boxType.map { "'\($0)' box" },
            fileID: fileID, line: line)
    }
}
