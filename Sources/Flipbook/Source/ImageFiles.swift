import Foundation

/// Finds the image files of a sequence and puts them in order.
public enum ImageFiles {
    /// File extensions treated as images when a folder is expanded (compared without case): every
    /// ``ImageFormat``'s.
    public static var extensions: Set<String> { ImageFormat.allFileExtensions }

    /// Expands folders into their image files and orders everything naturally by path.
    ///
    /// A folder contributes the image files directly inside it (not in subfolders, not hidden ones).
    /// Files named directly are kept whatever their extension, so a wrongly named file gets a clear
    /// decoding error rather than silently vanishing.
    ///
    /// An input whose name holds a printf number (`frame_%04d.png`, `shot%d.jpg`) means the files whose
    /// names have a number there, from `startNumber` (default: the lowest present) up, in number order,
    /// as ffmpeg's image2 input reads them; numbers missing on the way are left to ``GapPolicy``
    /// rather than ending the sequence.
    ///
    /// - Parameters:
    ///   - inputs: Files, folders and printf patterns.
    ///   - keepOrder: Keep the order given (folders still contribute their files in natural order).
    ///   - startNumber: The first number a pattern takes.
    ///   - tiffPages: With ``TIFFPages/all``, a TIFF of several pages gives one URL per page, in page order
    ///     (see ``TIFFPages``); its pages are counted from the file's header and chain of directories.
    /// - Returns: The image files in presentation order.
    /// - Throws: `.unreadableInput` for a path that does not exist or a folder that cannot be listed,
    ///   `.invalidSettings` for a folder with no images, `.corruptImage` for a TIFF whose pages cannot be
    ///   counted when every page is asked for.
    public static func collect(
        _ inputs: [URL], keepOrder: Bool = false, startNumber: Int? = nil, tiffPages: TIFFPages = .first
    ) throws -> [URL] {
        try images(inputs, keepOrder: keepOrder, startNumber: startNumber, tiffPages: tiffPages).map(\.url)
    }

    /// The images ``collect(_:keepOrder:startNumber:tiffPages:)`` hands out as URLs: a file named
    /// with a `page=N` or `frame=N` fragment is that page or frame of it.
    package static func images(
        _ inputs: [URL], keepOrder: Bool = false, startNumber: Int? = nil, tiffPages: TIFFPages = .first
    ) throws -> [ImageReference] {
        var files: [ImageReference] = []
        for input in inputs {
            if let pattern = NumberPattern(input.lastPathComponent) {
                files += try pattern.files(in: input.deletingLastPathComponent(), from: startNumber, input: input)
                    .map { ImageReference(file: $0) }
                continue
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isFolder) else {
                throw FlipbookError.inputMissing(input.path)
            }
            guard isFolder.boolValue else {
                files.append(ImageReference(input))
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: input.path)
            } catch {
                throw FlipbookError.folderNotListable(input.path, cause: error)
            }
            let images = names.filter { name in
                !name.hasPrefix(".") && extensions.contains((name as NSString).pathExtension.lowercased())
            }
            .map { input.appendingPathComponent($0) }
            .filter { !POSIXFile.isDirectory($0.path) }
            guard !images.isEmpty else {
                throw FlipbookError.folderHoldsNoImages(input.path)
            }
            files += naturallyOrdered(images.map { ImageReference(file: $0) })
        }
        let ordered = keepOrder ? files : naturallyOrdered(files)
        return tiffPages == .all ? try ordered.flatMap(pages) : ordered
    }

    /// The pages of `image`'s file when it is a TIFF of more than one page, else the image itself; pages
    /// that are reduced-resolution previews of another are left out.
    private static func pages(of image: ImageReference) throws -> [ImageReference] {
        let file = image.file
        guard ImageFormat.forExtension(file.pathExtension)?.hasPages ?? false else { return [image] }
        // Mapped, not read: only the header and the chain of directories are touched.
        let data: Data
        do {
            data = try Data(contentsOf: file, options: .alwaysMapped)
        } catch {
            throw FlipbookError.tiffPagesNotCounted(file.path, cause: error)
        }
        guard ImageSniffing.isTIFF(data) else { return [image] }
        let pages = try FrameOrigin(path: file.path).attributing {
            try TIFFDecoder.fullPages(data, limits: ImageLimits())
        }
        // The file itself when its first page is its one picture, or when it has none (decoding it says why).
        return pages.count <= 1 && (pages.first ?? 0) == 0
            ? [image] : pages.map { ImageReference(file: file, part: .page($0 + 1)) }
    }

    /// `files` in natural order by path; each path is made once, not at every comparison (a URL's
    /// path is decoded anew each time it is asked for: most of the time of sorting 3000 files).
    private static func naturallyOrdered(_ files: [ImageReference]) -> [ImageReference] {
        files.map { ($0.file.path, $0) }.sorted { NaturalOrder.precedes($0.0, $1.0) }.map(\.1)
    }
}

/// A file name with one printf number in it: `frame_%04d.png` (four digits, zero-padded) or
/// `shot%d.jpg` (any number of digits).
struct NumberPattern {
    let prefix: String
    let suffix: String
    /// The number of digits, when the pattern fixes it.
    let width: Int?

    init?(_ name: String) {
        guard let percent = name.range(of: "%") else { return nil }
        var rest = name[percent.upperBound...]
        var digits = ""
        while let first = rest.first, first.isASCIIDigit {
            digits.append(first)
            rest = rest.dropFirst()
        }
        guard rest.first == "d", !rest.dropFirst().contains("%") else { return nil }
        prefix = String(name[..<percent.lowerBound])
        suffix = String(rest.dropFirst())
        width = digits.isEmpty ? nil : Int(digits)
    }

    /// The pattern of the numbered file `name`, around its last run of digits: `f7.png` gives
    /// `f%d.png`, `frame_0007.png` (zero-padded) gives `frame_%04d.png`; `nil` without digits.
    init?(example name: String) {
        guard let last = name.lastIndex(where: \.isASCIIDigit) else { return nil }
        var start = last
        while start > name.startIndex, name[name.index(before: start)].isASCIIDigit {
            start = name.index(before: start)
        }
        let digits = name[start...last]
        prefix = String(name[..<start])
        suffix = String(name[name.index(after: last)...])
        width = digits.count > 1 && digits.first == "0" ? digits.count : nil
    }

    /// The number in `name`, when it fits the pattern.
    func number(in name: String) -> Int? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else {
            return nil
        }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard middle.allSatisfy(\.isASCIIDigit), middle.count <= 9 else { return nil }
        if let width, middle.count != width, !(middle.count > width && middle.first != "0") { return nil }
        return Int(middle)
    }

    /// The matching files of `folder` numbered `start` or more (the lowest present by default), in
    /// number order.
    func files(in folder: URL, from start: Int?, input: URL) throws -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw FlipbookError.folderNotListable(input.path, "the folder of the pattern", cause: error)
        }
        let numbered = names.compactMap { name in number(in: name).map { ($0, name) } }
            .filter { $0.0 >= (start ?? Int.min) }
            .sorted { $0.0 < $1.0 }
        guard !numbered.isEmpty else {
            throw FlipbookError.patternMatchesNothing(input.path, from: start)
        }
        return numbered.map { folder.appendingPathComponent($0.1) }
    }
}

/// Natural order of names: runs of digits compare by their number, so `f2` comes before `f10`.
package enum NaturalOrder {
    /// Whether `a` comes before `b` in natural order.
    ///
    /// Digit runs compare by value (then the one with fewer leading zeros first), other text by
    /// Unicode scalar value; names equal under these rules fall back to plain comparison.
    package static func precedes(_ a: String, _ b: String) -> Bool {
        let left = Array(a.unicodeScalars)
        let right = Array(b.unicodeScalars)
        var i = 0
        var j = 0
        while i < left.count && j < right.count {
            if isDigit(left[i]) && isDigit(right[j]) {
                let leftRun = digitRun(left, from: i)
                let rightRun = digitRun(right, from: j)
                let leftDigits = left[leftRun].drop { $0 == "0" }
                let rightDigits = right[rightRun].drop { $0 == "0" }
                if leftDigits.count != rightDigits.count { return leftDigits.count < rightDigits.count }
                for (x, y) in zip(leftDigits, rightDigits) where x != y { return x.value < y.value }
                if leftRun.count != rightRun.count { return leftRun.count < rightRun.count }
                i = leftRun.upperBound
                j = rightRun.upperBound
            } else {
                if left[i] != right[j] { return left[i].value < right[j].value }
                i += 1
                j += 1
            }
        }
        if (left.count - i) != (right.count - j) { return (left.count - i) < (right.count - j) }
        return a < b
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x30 && scalar.value <= 0x39
    }

    private static func digitRun(_ scalars: [Unicode.Scalar], from start: Int) -> Range<Int> {
        var end = start
        while end < scalars.count && isDigit(scalars[end]) { end += 1 }
        return start..<end
    }
}
