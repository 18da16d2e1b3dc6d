import Foundation
import ISOBMFF
import MediaModel

/// The tag a movie records its colour conversions in, so that `probe` can say them later:
/// `com.flipbook.colour-conversions` with a value such as `Adobe RGB (1998)=3; Display P3=12` (the
/// images converted from each space their files stated, by name).
///
/// It is written only when an image was converted, so a movie of sRGB images keeps its bytes, and
/// only where the container writes its tags at the end (a faststart or index-at-end MP4 or MOV, a
/// Matroska or WebM file); a fragmented movie's tags are written before its first image is read.
enum ColourConversionTag {
    /// The tag's name: an iTunes freeform item in an MP4, an `mdta` key in a MOV, a `SimpleTag`
    /// (in capitals) in Matroska.
    static let name = "com.flipbook.colour-conversions"

    /// The tag for `counts`; `nil` when nothing was converted.
    static func item(_ counts: [String: Int]) -> MovieTags.Item? {
        let written = counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { space, count in
            // A `;` would end the entry early: a profile's own name with one has it as `,`.
            space.replacingOccurrences(of: ";", with: ",") + "=\(count)"
        }
        return written.isEmpty ? nil : MovieTags.Item(name: name, value: written.joined(separator: "; "))
    }

    /// The counts a tag's value states; `nil` when it is not one ``item(_:)`` writes.
    static func counts(_ value: String) -> [String: Int]? {
        var counts: [String: Int] = [:]
        for entry in value.split(separator: ";") {
            let entry = entry.trimmingCharacters(in: .whitespaces)
            guard let equals = entry.lastIndex(of: "="), let count = Int(entry[entry.index(after: equals)...]),
                count > 0, equals > entry.startIndex
            else { return nil }
            counts[String(entry[..<equals]), default: 0] += count
        }
        return counts.isEmpty ? nil : counts
    }

    /// The conversions `tags` record, removed from them; empty when they record none.
    static func take(from tags: inout [String: String]) -> [String: Int] {
        guard let key = tags.keys.first(where: { $0.lowercased() == name }), let counts = tags[key].flatMap(counts)
        else { return [:] }
        tags[key] = nil
        return counts
    }
}
