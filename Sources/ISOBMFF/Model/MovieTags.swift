/// One tag name and the atoms that carry it in each container, as ffmpeg's MP4 and QuickTime muxers
/// and demuxers know them, and Apple's QuickTime metadata keys.
///
/// A name that is not in ``all`` is written as an iTunes freeform item (`----`, mean
/// `com.apple.iTunes`) in MP4 and as an `mdta` key of its own name in QuickTime.
package struct MovieTagKey: Sendable {
    /// The name, as ffmpeg's `-metadata` takes it and ffprobe reports it.
    package let name: String
    /// The iTunes item in `udta/meta/ilst` of an MP4; `nil` when it has none.
    package let itunesItem: FourCC?
    /// The user data string atom in `udta` of a QuickTime movie that ffmpeg reads back; `nil` when none.
    package let userDataAtom: FourCC?
    /// Apple's key in `moov/meta/keys` of a QuickTime movie; `nil` means the name itself.
    package let appleKey: String?

    /// The known names.
    package static let all: [MovieTagKey] = [
        MovieTagKey("title", itunes: "\u{A9}nam", userData: "\u{A9}nam", apple: "com.apple.quicktime.title"),
        MovieTagKey("artist", itunes: "\u{A9}ART", userData: "\u{A9}ART", apple: "com.apple.quicktime.artist"),
        MovieTagKey("comment", itunes: "\u{A9}cmt", userData: "\u{A9}cmt", apple: "com.apple.quicktime.comment"),
        MovieTagKey("date", itunes: "\u{A9}day", userData: "\u{A9}day", apple: "com.apple.quicktime.creationdate"),
        // Written as a user data string in both containers, as phones write it (see MetadataBoxes).
        MovieTagKey("location", itunes: nil, userData: "\u{A9}xyz", apple: "com.apple.quicktime.location.ISO6709"),
        MovieTagKey("album", itunes: "\u{A9}alb", userData: "\u{A9}alb", apple: "com.apple.quicktime.album"),
        MovieTagKey("album_artist", itunes: "aART", userData: nil, apple: nil),
        MovieTagKey("composer", itunes: "\u{A9}wrt", userData: "\u{A9}wrt", apple: nil),
        MovieTagKey("genre", itunes: "\u{A9}gen", userData: "\u{A9}gen", apple: "com.apple.quicktime.genre"),
        MovieTagKey("copyright", itunes: "cprt", userData: "\u{A9}cpy", apple: "com.apple.quicktime.copyright"),
        MovieTagKey("description", itunes: "desc", userData: nil, apple: "com.apple.quicktime.description"),
        MovieTagKey("synopsis", itunes: "ldes", userData: nil, apple: nil),
        MovieTagKey("keywords", itunes: "keyw", userData: nil, apple: "com.apple.quicktime.keywords"),
        MovieTagKey("grouping", itunes: "\u{A9}grp", userData: "\u{A9}grp", apple: nil),
        MovieTagKey("lyrics", itunes: "\u{A9}lyr", userData: "\u{A9}lyr", apple: nil),
        MovieTagKey("encoder", itunes: "\u{A9}too", userData: "\u{A9}swr", apple: "com.apple.quicktime.software"),
        MovieTagKey("make", itunes: nil, userData: "\u{A9}mak", apple: "com.apple.quicktime.make"),
        MovieTagKey("model", itunes: nil, userData: "\u{A9}mod", apple: "com.apple.quicktime.model"),
        MovieTagKey("show", itunes: "tvsh", userData: nil, apple: nil),
        MovieTagKey("network", itunes: "tvnn", userData: nil, apple: nil),
        MovieTagKey("episode_id", itunes: "tven", userData: nil, apple: nil),
    ]

    /// The record of a known name.
    package static func named(_ name: String) -> MovieTagKey? {
        all.first { $0.name == name }
    }

    /// The name an iTunes item carries, when it is a known one.
    static func name(ofItunesItem type: String) -> String? {
        all.first { $0.itunesItem?.description == type }?.name
    }

    /// The name a QuickTime user data string carries, when it is a known one.
    static func name(ofUserDataAtom type: String) -> String? {
        all.first { $0.userDataAtom?.description == type }?.name
    }

    /// The name an `mdta` key carries: the known name of one of Apple's keys, or the key itself.
    static func name(ofAppleKey key: String) -> String {
        all.first { $0.appleKey == key }?.name ?? key
    }

    private init(_ name: String, itunes: FourCC?, userData: FourCC?, apple: String?) {
        self.name = name
        itunesItem = itunes
        userDataAtom = userData
        appleKey = apple
    }
}
