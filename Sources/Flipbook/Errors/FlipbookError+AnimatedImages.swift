/// Movies written as animated images (GIF, WebP) asked for what such a file cannot hold. Each keeps where
/// it was raised (``FlipbookError/origin``).
extension FlipbookError {
    /// Sound was given for an animated image, which has none; `kind` is its extension with the dot (`.gif`).
    ///
    /// Worded as the writer words the same refusal before any session opens.
    static func animatedImageGivenSound(_ kind: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unsupportedOutput,
            "a \(kind) file has no sound; name the output .mp4, .mov, .webm or .mkv for a movie with sound",
            fileID: fileID, line: line)
    }
}
