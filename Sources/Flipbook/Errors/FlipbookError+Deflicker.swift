import Foundation

/// The failures of a deflicker: a window or region that cannot be used, a sequence it cannot measure
/// ahead. One wording each; each keeps where it was raised (``FlipbookError/origin``).
extension FlipbookError {
    /// A window that is even, or too short or long.
    static func deflickerWindowOutOfRange(_ window: Int, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidSettings,
            "deflicker window \(window) is out of range; give an odd number of images from "
                + "\(Deflicker.windowRange.lowerBound) to \(Deflicker.windowRange.upperBound), such as 15",
            fileID: fileID, line: line)
    }

    /// A measuring region not inside an image.
    static func deflickerRegionOutside(
        _ region: PixelRegion, width: Int, height: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "deflicker region \(region) (x,y,width,height) is not inside the \(width)x\(height) image",
            fileID: fileID, line: line)
    }

    /// A deflicker asked of images that are not all there before the movie starts.
    static func deflickerNeedsImageFiles(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "a deflicker measures every image before the first frame, so it takes image files, not images "
                + "followed, streamed or appended one by one", fileID: fileID, line: line)
    }
}
