import Foundation

/// What to do about numbers missing from a numbered image sequence (`f1.png … f10.png` without
/// `f4.png`): a render farm lost a frame, or a folder is half synced.
public enum GapPolicy: String, Sendable, CaseIterable {
    /// Make the movie from the images there are, one frame each, and say which numbers are missing.
    case warn
    /// Keep time by the numbers: the image numbered *n* is at *(n − first) / fps*, the image before
    /// a gap stays on screen for the missing frames' time.
    case hold
    /// Refuse to make the movie, naming the missing numbers.
    case fail
}

/// The numbers of a numbered image sequence: every file name the same but for one number
/// (`frame_0001.png`, `frame_0002.png` …), and the numbers missing between the first and the last.
public struct ImageNumbering: Sendable, Hashable {
    /// Each image's number, in the images' order.
    public let numbers: [Int]
    /// Numbers between the first and the last that no image has, in order.
    public let missing: [Int]
    /// The image names around each gap: the image before and the image after it.
    private let neighbours: [(before: String, after: String)]

    public static func == (lhs: ImageNumbering, rhs: ImageNumbering) -> Bool { lhs.numbers == rhs.numbers }
    public func hash(into hasher: inout Hasher) { hasher.combine(numbers) }

    /// The largest jump between neighbouring numbers taken for missing frames (a million).
    static let largestGap = 1_000_000

    /// Reads the numbers of `images`, in the order given.
    ///
    /// - Returns: `nil` when the images are not numbered alike (different names apart from the number,
    ///   no number, or numbers that do not rise in the order given).
    /// - Throws: `.invalidSettings` naming both files when two images have the same number
    ///   (`f1.png` and `f01.png`), or when neighbouring numbers are more than a million apart (a stray
    ///   file such as `frame_20240101.png` beside `frame_0001.png`).
    public init?(_ images: [URL]) throws {
        try self.init(images: images.map(ImageReference.init))
    }

    /// Reads the numbers of `images`' files, in the order given, as ``init(_:)`` does.
    package init?(images: [ImageReference]) throws {
        // Pages of a TIFF stack are not numbered by their file's name.
        guard let first = images.first?.file, let shape = Self.shape(of: first.path),
            !images.contains(where: { $0.page != nil })
        else { return nil }
        var numbers: [Int] = []
        var owners: [Int: String] = [:]
        for image in images.map(\.file) {
            guard let parts = Self.shape(of: image.path), parts.prefix == shape.prefix, parts.suffix == shape.suffix
            else { return nil }
            if let twin = owners[parts.number] {
                // The same file given again (a title held with --keep-order) is a list, not a numbering.
                if twin == image.path { return nil }
                throw FlipbookError.numberGivenTwice(image, twin: twin, number: parts.number)
            }
            owners[parts.number] = image.path
            numbers.append(parts.number)
        }
        guard zip(numbers, numbers.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        // A jump of millions is a stray file, not lost frames: it is named instead of listing every number.
        if let jump = zip(numbers.indices, numbers.indices.dropFirst()).first(where: {
            numbers[$0.1] - numbers[$0.0] > Self.largestGap
        }) {
            throw FlipbookError.numberJump(
                from: images[jump.0].file, to: images[jump.1].file,
                skipping: numbers[jump.1] - numbers[jump.0] - 1)
        }
        self.numbers = numbers
        var missing: [Int] = []
        var neighbours: [(String, String)] = []
        for (index, (number, next)) in zip(numbers, numbers.dropFirst()).enumerated() where next > number + 1 {
            missing += Array(number + 1..<next)
            neighbours.append((images[index].file.lastPathComponent, images[index + 1].file.lastPathComponent))
        }
        self.missing = missing
        self.neighbours = neighbours
    }

    /// The most numbers that `count` images in a row span, the last image spanning one: how many
    /// frames' time they are on screen when time is kept by the numbers (``GapPolicy/hold``).
    func longestSpan(ofImages count: Int) -> Int {
        guard let last = numbers.last, count > 0 else { return 0 }
        let starts = numbers + [last + 1]
        return numbers.indices.map { starts[min($0 + count, numbers.count)] - starts[$0] }.max() ?? 0
    }

    /// One sentence naming the missing numbers and the images around each gap:
    /// `frames 4, 8 missing: f3.png is followed by f5.png, f7.png by f9.png`.
    public var gapDescription: String {
        Self.gapDescription(missing: missing, neighbours: neighbours)
    }

    /// The sentence of ``gapDescription`` for `missing` numbers and the image names around each gap.
    static func gapDescription(missing: [Int], neighbours: [(before: String, after: String)]) -> String {
        let shown = missing.prefix(20).map(String.init).joined(separator: ", ")
        let more = missing.count > 20 ? " and \(missing.count - 20) more" : ""
        let noun = missing.count == 1 ? "frame" : "frames"
        let around = neighbours.prefix(10).enumerated().map { index, pair in
            index == 0 ? "\(pair.before) is followed by \(pair.after)" : "\(pair.before) by \(pair.after)"
        }
        let aroundMore = neighbours.count > 10 ? " and \(neighbours.count - 10) more gaps" : ""
        return "\(noun) \(shown)\(more) missing: " + around.joined(separator: ", ") + aroundMore
    }

    /// The path around its file name's last run of digits, and that run's number.
    private static func shape(of path: String) -> (prefix: Substring, suffix: Substring, number: Int)? {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let last = path[nameStart...].lastIndex(where: \.isASCIIDigit) else { return nil }
        var start = last
        while start > nameStart, path[path.index(before: start)].isASCIIDigit { start = path.index(before: start) }
        let end = path.index(after: last)
        guard path.distance(from: start, to: end) <= 9, let number = Int(path[start..<end]) else { return nil }
        return (path[..<start], path[end...], number)
    }
}
