import Flipbook
import Foundation

/// The options that describe the movie rather than its pictures: its tags and its rotation.
let metadataOptionTable: [OptionSpec] = [
    OptionSpec(
        names: ["--title"], value: "TEXT",
        help: "The movie's title, where players, ffprobe, MediaInfo and ExifTool read it (default none)."
    ) { options, text in options.metadata.title = text },
    OptionSpec(names: ["--artist"], value: "NAME", help: "Who made the movie (default none).") { options, text in
        options.metadata.artist = text
    },
    OptionSpec(names: ["--comment"], value: "TEXT", help: "A comment on the movie (default none).") {
        options, text in options.metadata.comment = text
    },
    OptionSpec(
        names: ["--creation-time"], value: "ISO8601|now",
        help:
            "When the movie was made, such as 2024-05-01T12:00:00Z, 2024-05-01T14:00:00+02:00 or 2024-05-01, or now: "
            + "the creation time of its headers and its date tag (default none: the times stay zero, so the same "
            + "inputs give the same bytes)."
    ) { options, text in options.metadata.creationDate = try creationDate(text) },
    OptionSpec(
        names: ["--location"], value: "ISO6709",
        help:
            "Where the movie was made, ISO 6709 degrees ±DD.DDDD±DDD.DDDD[±ALT]/ such as +48.8584+002.2945/ or, "
            + "with metres of altitude, +27.9881+086.9250+8848/ (default none)."
    ) { options, text in
        options.metadata.location = try require(
            GeoLocation(iso6709: text),
            "--location \(text) is not an ISO 6709 place; use ±DD.DDDD±DDD.DDDD[±ALT]/ such as +48.8584+002.2945/.")
    },
    OptionSpec(
        names: ["--metadata"], value: "KEY=VALUE",
        help:
            "Another tag, by ffmpeg's names: album, genre, copyright, description, composer, date and the like "
            + "have atoms of their own, any other name is a tag of that name; may be given again (default none)."
    ) { options, text in
        guard let equals = text.firstIndex(of: "=") else {
            throw UsageError(description: "--metadata \(text) needs KEY=VALUE, such as album=Holidays.")
        }
        let key = String(text[..<equals])
        if let option = [
            "title": "--title", "artist": "--artist", "comment": "--comment", "creation_time": "--creation-time",
            "location": "--location",
        ][key] {
            throw UsageError(description: "--metadata \(key)=…: \(key) has an option of its own; use \(option).")
        }
        var metadata = options.metadata
        metadata.custom[key] = String(text[text.index(after: equals)...])
        try UsageError.rephrasing("metadata name", as: "--metadata") { try metadata.validate() }
        options.metadata = metadata
    },
    OptionSpec(
        names: ["--rotate"], value: "DEGREES",
        help:
            "Turn the movie clockwise when shown, 0, 90, 180 or 270, by its display matrix as phones write it; "
            + "the pictures are encoded as they are (default 0)."
    ) { options, text in
        options.rotation = try require(
            Int(text).flatMap(Rotation.init(degrees:)),
            "--rotate \(text) is not a rotation; use 0, 90, 180 or 270 (degrees clockwise).")
    },
]

/// The date `--creation-time` gives: ISO 8601 with a time zone (or a date alone, at midnight UTC),
/// or `now`, in whole seconds. A day or time that does not exist (February 30, 25:00) is refused,
/// not rolled over.
func creationDate(_ text: String) throws -> Date {
    if text == "now" { return Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) }
    let pattern =
        #/([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2}))?/#
    var fieldsExist = false
    if let match = text.wholeMatch(of: pattern) {
        let fields = DateComponents(
            calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: Int(match.1),
            month: Int(match.2), day: Int(match.3), hour: match.4.flatMap { Int($0) } ?? 0,
            minute: match.5.flatMap { Int($0) } ?? 0, second: match.6.flatMap { Int($0) } ?? 0)
        fieldsExist = fields.isValidDate
    }
    let formats: [ISO8601DateFormatter.Options] = [
        [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
    ]
    for format in formats where fieldsExist {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = format
        if let date = formatter.date(from: text) {
            var metadata = MovieMetadata()
            metadata.creationDate = date
            try UsageError.rephrasing("creation date", as: "--creation-time") { try metadata.validate() }
            return date
        }
    }
    throw UsageError(
        description:
            "--creation-time \(text) is not an ISO 8601 date; use one with a time zone such as "
            + "2024-05-01T12:00:00Z, a date such as 2024-05-01, or now.")
}
