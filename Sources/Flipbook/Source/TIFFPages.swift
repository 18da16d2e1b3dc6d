/// Which pages of a multi-page TIFF become frames.
///
/// ``ImageFiles/collect(_:keepOrder:startNumber:tiffPages:)`` with ``TIFFPages/all`` hands out one URL per
/// page of a multi-page TIFF: the file's URL with the fragment `page=N`, counted from 1. Such a URL can
/// be given anywhere an image URL is taken.
public enum TIFFPages: String, Sendable, CaseIterable {
    /// Only the first page of each TIFF (what viewers show): one frame per file.
    case first
    /// Every page of each TIFF (a stack from a microscope or a scanner) is a frame, in page order.
    case all
}
