/// Pictures of the wrong size or layout for the stage they are handed to. Each keeps where it was raised
/// (``FlipbookError/origin``).
extension FlipbookError {
    /// An encoder opened for one picture size was handed a picture of another.
    static func pictureSizeRefused(
        by encoder: String, takes width: Int, _ height: Int, given givenWidth: Int, _ givenHeight: Int,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidFrame, "the \(encoder) encoder takes \(width)x\(height) pictures, not \(givenWidth)x\(givenHeight)",
            fileID: fileID, line: line)
    }
}
