import Foundation

/// Which page of a multi-page TIFF an image URL names.
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

extension URL {
    /// The URL of page `page` (from 1) of the TIFF file at this URL.
    static func tiffPage(_ page: Int, of file: URL) -> URL { file.numbered("page", page) }

    /// The page (from 1) this URL names with a `page=N` fragment, or `nil` for a whole file.
    var imagePage: Int? { fragmentNumber("page") }

    /// This file's URL with a `KEY=N` fragment naming one of its pages or frames.
    func numbered(_ key: String, _ number: Int) -> URL {
        URL(string: "#\(key)=\(number)", relativeTo: self)?.absoluteURL ?? self
    }

    /// The number (from 1) of a `KEY=N` fragment, or `nil` when the URL has none.
    func fragmentNumber(_ key: String) -> Int? {
        guard let fragment, fragment.hasPrefix(key + "="), let number = Int(fragment.dropFirst(key.count + 1)),
            number >= 1
        else { return nil }
        return number
    }

    /// The file's path, and its page when the URL names one: how errors name the image.
    var imageDescription: String {
        imagePage.map { "\(path), page \($0)" } ?? animationFrame.map { "\(path), frame \($0)" } ?? path
    }
}
