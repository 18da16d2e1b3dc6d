/// What a movie says about itself beyond its tracks: when it was made, and its tags (title, artist
/// and the rest), each named as ffmpeg names them (`title`, `artist`, `comment`, `date`, `location`).
///
/// A movie without tags and with a creation time of zero is written exactly as before tags existed:
/// no `udta` and no `meta` box, so the output stays deterministic.
///
/// Where each tag goes depends on the container (see ``MovieTagKey``): in MP4 an iTunes item in
/// `moov/udta/meta/ilst` (a freeform `----` item for a name with no atom of its own) and the location
/// as `©xyz` in `udta`; in QuickTime a user data string in `moov/udta` and an `mdta` key in `moov/meta`.
package struct MovieTags: Sendable, Equatable {
    /// One tag: a name as ffmpeg gives it, and its text.
    package struct Item: Sendable, Equatable, Codable {
        /// The name, such as `title` or a name of the caller's own.
        package var name: String
        /// The text, written as UTF-8.
        package var value: String

        /// Creates a tag.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Seconds since midnight, 1 January 1904, UTC, for `mvhd`, `tkhd` and `mdhd`; 0 when unknown.
    package var creationTime: UInt64
    /// The tags in the order they are written; a name appears once.
    package var items: [Item]

    /// Creates tags; none and a creation time of zero by default.
    package init(creationTime: UInt64 = 0, items: [Item] = []) {
        self.creationTime = creationTime
        self.items = items
    }

    /// Whether there is nothing to write beyond the header boxes' times.
    package var hasItems: Bool { !items.isEmpty }

    /// The text of the tag named `name`, if there is one.
    package subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }
}
