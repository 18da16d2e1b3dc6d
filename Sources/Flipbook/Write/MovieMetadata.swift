import Foundation
import ISOBMFF
import MediaModel

/// What a movie says about itself: its title, artist and comment, when and where it was made, and
/// any other tags, written where ffmpeg, MediaInfo, ExifTool and Apple's players read them.
///
/// ```swift
/// var metadata = MovieMetadata(title: "Harbour at dusk", artist: "A. Painter")
/// metadata.creationDate = Date()
/// metadata.location = GeoLocation(iso6709: "+48.8584+002.2945/")
/// metadata.custom["album"] = "Timelapses"
/// let writer = try MovieWriter(url: url, settings: settings, metadata: metadata)
/// ```
///
/// In an MP4 or M4V the tags are iTunes items in `moov/udta/meta/ilst` (`©nam`, `©ART`, `©cmt`,
/// `©day` …) and the location is a `©xyz` string in `udta`, as phones write it; in a MOV they are
/// QuickTime user data strings in `moov/udta` and Apple's `mdta` keys in `moov/meta`
/// (`com.apple.quicktime.title` …). The creation date is also every `mvhd`, `tkhd` and `mdhd`
/// creation time, which ffprobe reports as `creation_time`.
///
/// Empty metadata (the default) writes nothing and leaves those times zero, so the same frames and
/// settings always give the same bytes.
public struct MovieMetadata: Sendable, Hashable {
    /// The movie's title (`©nam`; ffprobe's `title`).
    public var title: String?
    /// Who made it (`©ART`; ffprobe's `artist`).
    public var artist: String?
    /// A comment (`©cmt`; ffprobe's `comment`).
    public var comment: String?
    /// When the movie was made: the creation time of `mvhd`, `tkhd` and `mdhd` (whole seconds) and
    /// the `date` tag (`©day`, as ISO 8601) unless ``custom`` has one; `nil` leaves the times zero.
    public var creationDate: Date?
    /// Where the movie was made (`©xyz`; ffprobe's `location`).
    public var location: GeoLocation?
    /// Other tags by the names ffmpeg gives them: `album`, `genre`, `copyright`, `description`,
    /// `composer`, `date` and the rest have atoms of their own; any other name is an iTunes
    /// freeform item (`----`, mean `com.apple.iTunes`) in an MP4 and an `mdta` key in a MOV.
    /// The names of the properties above (``reservedNames``) are not taken here.
    public var custom: [String: String]

    /// The tag names set by the properties rather than ``custom``.
    public static let reservedNames: Set<String> = ["title", "artist", "comment", "creation_time", "location"]

    /// Creates metadata; empty by default.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - artist: Who made the movie.
    ///   - comment: A comment.
    ///   - creationDate: When the movie was made.
    ///   - location: Where the movie was made.
    ///   - custom: Other tags by ffmpeg's names.
    public init(
        title: String? = nil, artist: String? = nil, comment: String? = nil, creationDate: Date? = nil,
        location: GeoLocation? = nil, custom: [String: String] = [:]
    ) {
        self.title = title
        self.artist = artist
        self.comment = comment
        self.creationDate = creationDate
        self.location = location
        self.custom = custom
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { self == MovieMetadata() }

    /// The tags as ffprobe names them (`title`, `artist`, `comment`, `date`, `location`,
    /// `creation_time` and the custom ones), with their text as written.
    public var tags: [String: String] {
        var tags = Dictionary(movieTags.items.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        if let creationDate { tags["creation_time"] = Self.iso8601(creationDate) }
        return tags
    }

    /// The earliest creation date a movie can hold: midnight, 1 January 1904, UTC.
    static let epoch = Date(timeIntervalSince1970: -2_082_844_800)
    /// The last creation date Flipbook writes, the end of the year 9999.
    static let latestDate = Date(timeIntervalSince1970: 253_402_300_799)

    /// Throws `.invalidSettings` naming the first value that cannot be written: a creation date
    /// before 1904 or after 9999, a custom name that is empty, has `=` or control characters, or is
    /// one of ``reservedNames``.
    public func validate() throws {
        if let creationDate, creationDate < Self.epoch || creationDate > Self.latestDate {
            throw FlipbookError.creationDateOutOfRange(Self.iso8601(creationDate))
        }
        for name in custom.keys.sorted() {
            if name.isEmpty || name.contains("=")
                || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            {
                throw FlipbookError.metadataNameInvalid(name)
            }
            if Self.reservedNames.contains(name) {
                throw FlipbookError.metadataNameReserved(name)
            }
        }
    }

    /// ISO 8601 in UTC, whole seconds: `2024-05-01T12:00:00Z`.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }

    /// The creation time and tags as the muxer writes them: title, artist, comment, date, location,
    /// then the custom tags by name.
    var movieTags: MovieTags {
        var items: [MovieTags.Item] = []
        func add(_ name: String, _ value: String?) {
            if let value { items.append(MovieTags.Item(name: name, value: value)) }
        }
        add("title", title)
        add("artist", artist)
        add("comment", comment)
        add("date", custom["date"] ?? creationDate.map(Self.iso8601))
        add("location", location?.iso6709)
        for name in custom.keys.sorted() where name != "date" { add(name, custom[name]) }
        var seconds: UInt64 = 0
        if let creationDate, creationDate >= Self.epoch {
            seconds = UInt64(creationDate.timeIntervalSince(Self.epoch).rounded(.down))
        }
        return MovieTags(creationTime: seconds, items: items)
    }

    /// The metadata a movie's tags say, as ``movieTags`` wrote them: a `date` that is the creation
    /// date's is left out, a location that is not ISO 6709 is kept as a custom tag.
    init(_ tags: MovieTags) {
        self.init()
        if tags.creationTime > 0 { creationDate = Self.epoch.addingTimeInterval(Double(tags.creationTime)) }
        for item in tags.items {
            switch item.name {
            case "title": title = item.value
            case "artist": artist = item.value
            case "comment": comment = item.value
            case "location":
                if let place = GeoLocation(iso6709: item.value) {
                    location = place
                } else {
                    custom["location"] = item.value
                }
            case "date" where creationDate.map(Self.iso8601) == item.value: break
            default: custom[item.name] = item.value
            }
        }
    }
}

/// A place on Earth as ISO 6709 writes it in movies: `+48.8584+002.2945/`, or with an altitude,
/// `+27.9881+086.9250+8848.000/`.
public struct GeoLocation: Sendable, Hashable {
    /// Degrees north of the equator (negative south): -90 to 90.
    public var latitude: Double
    /// Degrees east of Greenwich (negative west): -180 to 180.
    public var longitude: Double
    /// Metres above sea level (negative below), if known.
    public var altitude: Double?

    /// Creates a place; `nil` when the latitude or longitude is out of range (or not a number).
    ///
    /// - Parameters:
    ///   - latitude: Degrees north, -90 to 90.
    ///   - longitude: Degrees east, -180 to 180.
    ///   - altitude: Metres above sea level, if known.
    public init?(latitude: Double, longitude: Double, altitude: Double? = nil) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude), altitude?.isFinite ?? true else {
            return nil
        }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Reads ISO 6709 decimal degrees: a signed latitude of two whole digits, a signed longitude of
    /// three, each with any decimals, then optionally a signed altitude in metres, and a final `/`
    /// (which may be left out): `+48.8584+002.2945/`, `-33.8568+151.2153+005/`. `nil` for anything
    /// else or a place out of range.
    public init?(iso6709 text: String) {
        let pattern = #/([+-][0-9]{2}(?:\.[0-9]+)?)([+-][0-9]{3}(?:\.[0-9]+)?)([+-][0-9]+(?:\.[0-9]+)?)?/?/#
        guard let match = text.wholeMatch(of: pattern), let latitude = Double(match.1), let longitude = Double(match.2)
        else { return nil }
        var altitude: Double?
        if let written = match.3 {
            guard let metres = Double(written) else { return nil }
            altitude = metres
        }
        self.init(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// The place as written in a movie, to four decimal places of a degree (about 11 m) and the
    /// altitude to the millimetre: `+48.8584+002.2945/`, `+27.9881+086.9250+8848.000/`.
    public var iso6709: String {
        String(format: "%+08.4f%+09.4f", latitude, longitude)
            + (altitude.map { String(format: "%+08.3f", $0) } ?? "") + "/"
    }
}
