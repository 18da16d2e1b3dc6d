import Foundation
import Testing

@testable import Flipbook

/// ``MovieMetadata``, ``GeoLocation`` and ``Rotation`` as values: what they accept and what they write.
@Suite struct MovieMetadataTests {
    @Test(arguments: [
        ("+48.8584+002.2945/", "+48.8584+002.2945/"),
        ("-33.8568+151.2153", "-33.8568+151.2153/"),
        ("+27.9881+086.9250+8848/", "+27.9881+086.9250+8848.000/"),
        ("+40+074/", "+40.0000+074.0000/"),
        ("-00.5000-179.9999-12.5/", "-00.5000-179.9999-012.500/"),
    ])
    func iso6709ReadsAndWritesDecimalDegrees(text: String, written: String) throws {
        let place = try #require(GeoLocation(iso6709: text))
        #expect(place.iso6709 == written)
        #expect(GeoLocation(iso6709: place.iso6709)?.iso6709 == written)
    }

    @Test(arguments: [
        "48.8584+002.2945/", "+48.8584+2.2945/", "+91.0000+002.0000/", "+10.0+181.0/", "", "north", "+1.0+002.0/",
    ])
    func iso6709RefusesAnythingElse(text: String) {
        #expect(GeoLocation(iso6709: text) == nil)
    }

    @Test func tagsAreWrittenInOrderWithTheCreationDateAsDate() {
        let date = Date(timeIntervalSince1970: 1_714_564_800.7)  // 2024-05-01T12:00:00.7Z
        let metadata = MovieMetadata(
            title: "T", artist: "A", comment: "C", creationDate: date,
            location: GeoLocation(latitude: 1, longitude: 2), custom: ["zebra": "z", "album": "Al"])
        let tags = metadata.movieTags
        #expect(tags.items.map(\.name) == ["title", "artist", "comment", "date", "location", "album", "zebra"])
        #expect(tags["date"] == "2024-05-01T12:00:00Z")
        #expect(tags.creationTime == 1_714_564_800 + 2_082_844_800)
        #expect(metadata.tags["creation_time"] == "2024-05-01T12:00:00Z")
        #expect(
            MovieMetadata(tags)
                == MovieMetadata(
                    title: "T", artist: "A", comment: "C", creationDate: Date(timeIntervalSince1970: 1_714_564_800),
                    location: GeoLocation(latitude: 1, longitude: 2), custom: ["zebra": "z", "album": "Al"]))
    }

    @Test func aCustomDateWinsOverTheCreationDate() {
        let metadata = MovieMetadata(creationDate: Date(timeIntervalSince1970: 0), custom: ["date": "1999"])
        #expect(metadata.movieTags["date"] == "1999")
        #expect(metadata.movieTags.creationTime == 2_082_844_800)
    }

    @Test func emptyMetadataWritesNothing() {
        #expect(MovieMetadata().isEmpty)
        #expect(MovieMetadata().movieTags == .init())
    }

    @Test(arguments: [
        MovieMetadata(custom: ["title": "x"]), MovieMetadata(custom: ["": "x"]), MovieMetadata(custom: ["a=b": "x"]),
        MovieMetadata(creationDate: Date(timeIntervalSince1970: -2_082_844_801)),
    ])
    func validateRefusesWhatCannotBeWritten(metadata: MovieMetadata) {
        #expect(throws: FlipbookError.self) { try metadata.validate() }
    }

    @Test func rotationTakesQuarterTurnsOnly() {
        #expect(Rotation.allCases.map(\.degrees) == [0, 90, 180, 270])
        #expect(Rotation(degrees: 45) == nil && Rotation(degrees: -90) == nil)
    }
}
