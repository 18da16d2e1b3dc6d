import Foundation

/// Which picture of an image file a frame comes from, when the file holds several.
package enum ImagePart: Sendable, Hashable {
    /// Page `n` (from 1) of a multi-page TIFF.
    case page(Int)
    /// Frame `n` (from 1) of an animated GIF, WebP or PNG.
    case frame(Int)
}

/// An image a frame comes from: a file, and which of its pages or frames when it holds several.
///
/// The public API speaks URLs: ``ImageFiles/collect(_:keepOrder:startNumber:tiffPages:)`` hands out a
/// TIFF's page as the file's URL with the fragment `page=N`, and a caller may give such a URL (or one
/// with `frame=N`) wherever an image URL is taken. ``init(_:)`` reads the fragment there, once; inside
/// the library the image travels as this value, and ``url`` writes the fragment again for a caller.
package struct ImageReference: Sendable, Hashable, CustomStringConvertible {
    /// The image file (a URL without fragment).
    package let file: URL
    /// The page or frame of the file; `nil` for the whole file (its first page, or every frame of an animation).
    package let part: ImagePart?

    package init(file: URL, part: ImagePart? = nil) {
        self.file = file
        self.part = part
    }

    /// The image `url` names: a `page=N` or `frame=N` fragment (N from 1) names that page or frame of the
    /// file, and the URL without a fragment, or with any other, the whole file.
    package init(_ url: URL) {
        guard let fragment = url.fragment else {
            self.init(file: url)
            return
        }
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        components?.fragment = nil
        let file = components?.url ?? url
        func number(_ key: String) -> Int? {
            guard fragment.hasPrefix(key + "="), let number = Int(fragment.dropFirst(key.count + 1)), number >= 1
            else { return nil }
            return number
        }
        self.init(file: file, part: number("page").map(ImagePart.page) ?? number("frame").map(ImagePart.frame))
    }

    /// The page (from 1) of a multi-page TIFF this names, or `nil`.
    package var page: Int? {
        guard case .page(let page) = part else { return nil }
        return page
    }

    /// The frame (from 1) of an animation this names, or `nil`.
    package var frame: Int? {
        guard case .frame(let frame) = part else { return nil }
        return frame
    }

    /// The image as a URL: the file's, with a `page=N` or `frame=N` fragment for a page or a frame.
    package var url: URL {
        switch part {
        case nil: file
        case .page(let page): file.withFragment("page=\(page)")
        case .frame(let frame): file.withFragment("frame=\(frame)")
        }
    }

    /// The file's path, and its page or frame when it names one: how errors name the image.
    package var description: String {
        switch part {
        case nil: file.path
        case .page(let page): "\(file.path), page \(page)"
        case .frame(let frame): "\(file.path), frame \(frame)"
        }
    }
}

extension URL {
    /// This URL with `fragment`.
    fileprivate func withFragment(_ fragment: String) -> URL {
        URL(string: "#\(fragment)", relativeTo: self)?.absoluteURL ?? self
    }
}

extension FrameOrigin {
    /// Frame `index` (when known) of the sequence, decoded from `image`.
    init(index: Int? = nil, image: ImageReference) {
        self.init(index: index, path: image.description)
    }
}
