import Foundation

/// Finds the image files of a sequence and puts them in order.
public enum ImageFiles {
    /// File extensions treated as images when a folder is expanded (compared without case).
    public static let extensions: Set<String> = ["png", "jpg", "jpeg"]

    /// Expands folders into their PNG and JPEG files and orders everything naturally by path.
    ///
    /// A folder contributes the image files directly inside it (not in subfolders, not hidden ones).
    /// Files named directly are kept whatever their extension, so a wrongly named file gets a clear
    /// decoding error rather than silently vanishing.
    ///
    /// - Parameters:
    ///   - inputs: Files and folders.
    ///   - keepOrder: Keep the order given (folders still contribute their files in natural order).
    /// - Returns: The image files in presentation order.
    /// - Throws: `.unreadableInput` for a path that does not exist or a folder that cannot be listed,
    ///   `.invalidSettings` for a folder with no images.
    public static func collect(_ inputs: [URL], keepOrder: Bool = false) throws -> [URL] {
        var files: [URL] = []
        for input in inputs {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isFolder) else {
                throw FlipbookError(.unreadableInput, "no such file or folder", path: input.path)
            }
            guard isFolder.boolValue else {
                files.append(input)
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: input.path)
            } catch {
                throw FlipbookError(
                    .unreadableInput, "cannot list the folder", path: input.path,
                    underlying: SystemCause(error))
            }
            let images = names.filter { name in
                !name.hasPrefix(".") && extensions.contains((name as NSString).pathExtension.lowercased())
            }
            .map { input.appendingPathComponent($0) }
            .filter { !POSIXFile.isDirectory($0.path) }
            guard !images.isEmpty else {
                throw FlipbookError(
                    .invalidSettings, "the folder holds no PNG or JPEG images (.png, .jpg, .jpeg)", path: input.path)
            }
            files += images.sorted { NaturalOrder.precedes($0.path, $1.path) }
        }
        return keepOrder ? files : files.sorted { NaturalOrder.precedes($0.path, $1.path) }
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
