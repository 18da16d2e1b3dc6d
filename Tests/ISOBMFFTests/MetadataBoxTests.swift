import MediaModel
import Testing

@testable import ISOBMFF

/// The tags (`udta`, `meta`, `ilst`, `keys`) and the rotation matrix, byte for byte and read back.
@Suite struct MetadataBoxTests {
    /// The `data` atom of UTF-8 text: size, type, well-known type 1, locale 0, the text.
    func data(_ text: String) -> [UInt8] {
        bytes([0, 0, 0, UInt8(16 + text.utf8.count)], ascii("data"), [0, 0, 0, 1, 0, 0, 0, 0], ascii(text))
    }

    @Test func mp4TagsAreItunesItemsAndTheLocationAUserDataString() {
        let tags = MovieTags(items: [
            .init(name: "title", value: "Hi"), .init(name: "location", value: "+01.0000+002.0000/"),
        ])
        let written = written { MetadataBoxes(tags: tags, isQuickTime: false).write(to: &$0) }
        let xyz = bytes([0, 0, 0, 30, 0xA9], ascii("xyz"), [0, 18, 0x15, 0xC7], ascii("+01.0000+002.0000/"))
        let hdlr = bytes(
            [0, 0, 0, 33], ascii("hdlr"), [0, 0, 0, 0, 0, 0, 0, 0], ascii("mdirappl"), [UInt8](repeating: 0, count: 9))
        let item = bytes([0, 0, 0, 26, 0xA9], ascii("nam"), data("Hi"))
        let ilst = bytes([0, 0, 0, 34], ascii("ilst"), item)
        let meta = bytes([0, 0, 0, 79], ascii("meta"), [0, 0, 0, 0], hdlr, ilst)
        #expect(written == bytes([0, 0, 0, 117], ascii("udta"), xyz, meta))
    }

    @Test func anUnknownNameIsAFreeformItemInMP4() {
        let tags = MovieTags(items: [.init(name: "foo", value: "bar")])
        let written = written { MetadataBoxes(tags: tags, isQuickTime: false).write(to: &$0) }
        let mean = bytes([0, 0, 0, 28], ascii("mean"), [0, 0, 0, 0], ascii("com.apple.iTunes"))
        let name = bytes([0, 0, 0, 15], ascii("name"), [0, 0, 0, 0], ascii("foo"))
        let freeform = bytes([0, 0, 0, 8 + 28 + 15 + 19], ascii("----"), mean, name, data("bar"))
        #expect(written.suffix(freeform.count) == freeform[...])
    }

    @Test func quickTimeTagsAreUserDataStringsAndMdtaKeys() {
        let tags = MovieTags(items: [.init(name: "title", value: "Hi"), .init(name: "foo", value: "bar")])
        let written = written { MetadataBoxes(tags: tags, isQuickTime: true).write(to: &$0) }
        let udta = bytes(
            [0, 0, 0, 22], ascii("udta"), [0, 0, 0, 14, 0xA9], ascii("nam"), [0, 2, 0x55, 0xC4], ascii("Hi"))
        let hdlr = bytes(
            [0, 0, 0, 33], ascii("hdlr"), [0, 0, 0, 0, 0, 0, 0, 0], ascii("mdta"), [UInt8](repeating: 0, count: 13))
        let title = "com.apple.quicktime.title"
        let keys = bytes(
            [0, 0, 0, UInt8(16 + 8 + title.utf8.count + 8 + 3)], ascii("keys"), [0, 0, 0, 0, 0, 0, 0, 2],
            [0, 0, 0, UInt8(8 + title.utf8.count)], ascii("mdta" + title), [0, 0, 0, 11], ascii("mdtafoo"))
        let ilst = bytes(
            [0, 0, 0, 8 + 26 + 27], ascii("ilst"), [0, 0, 0, 26, 0, 0, 0, 1], data("Hi"), [0, 0, 0, 27, 0, 0, 0, 2],
            data("bar"))
        let meta = bytes([0, 0, 0, UInt8(8 + hdlr.count + keys.count + ilst.count)], ascii("meta"), hdlr, keys, ilst)
        #expect(written == bytes(udta, meta))
    }

    @Test func noTagsWriteNothing() {
        #expect(written { MetadataBoxes(tags: MovieTags(creationTime: 5), isQuickTime: false).write(to: &$0) }.isEmpty)
    }

    @Test(arguments: [FileBrand.mp4, .quickTime])
    func tagsAndCreationTimeReadBackFromTheMovie(brand: FileBrand) throws {
        let items: [MovieTags.Item] = [
            .init(name: "title", value: "Tëst"), .init(name: "artist", value: "Me"), .init(name: "date", value: "2024"),
            .init(name: "location", value: "+48.8584+002.2945/"), .init(name: "album", value: "Al"),
            .init(name: "make", value: "Flipbook"), .init(name: "foo", value: "bar"),
        ]
        let tags = MovieTags(creationTime: 3_797_000_000, items: items)
        let layout = try MovieLayout(
            brand: brand, tracks: [makeTrack()], sampleTables: [SampleTable(timescale: 30)], tags: tags)
        let boxes = try BoxReader.parse(layout.header, fileSize: layout.header.count)
        let moov = try #require(boxes.first("moov"))
        let read = MovieTags(reading: moov, in: layout.header)
        #expect(read.creationTime == 3_797_000_000)
        #expect(Set(read.items.map(\.name)) == Set(items.map(\.name)))
        for item in items { #expect(read[item.name] == item.value, "\(item.name)") }
        let mdhd = try #require(moov.descendant(["trak", "mdia", "mdhd"]))
        #expect(try MediaHeaderBox(reading: mdhd, in: layout.header).creationTime == 3_797_000_000)
        let tkhd = try #require(moov.descendant(["trak", "tkhd"]))
        #expect(try TrackHeaderBox(reading: tkhd, in: layout.header).creationTime == 3_797_000_000)
    }

    @Test func aMovieWithoutTagsHasNoUserData() throws {
        let layout = try MovieLayout(brand: .mp4, tracks: [makeTrack()], sampleTables: [SampleTable(timescale: 30)])
        let moov = try #require(try BoxReader.parse(layout.header, fileSize: layout.header.count).first("moov"))
        #expect(moov.child("udta") == nil && moov.child("meta") == nil)
        #expect(MovieTags(reading: moov, in: layout.header) == MovieTags())
    }

    /// ffmpeg's movenc matrices for rotate=90/180/270: `a b u c d v x y w`, moved back into view.
    @Test(
        arguments: [
            (90, [0, 0x10000, 0, 0xFFFF_0000, 0, 0, 48 << 16, 0, 0x4000_0000]),
            (180, [0xFFFF_0000, 0, 0, 0, 0xFFFF_0000, 0, 64 << 16, 48 << 16, 0x4000_0000]),
            (270, [0, 0xFFFF_0000, 0, 0x10000, 0, 0, 0, 64 << 16, 0x4000_0000]),
            (0, [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000]),
        ] as [(Int, [UInt32])])
    func rotationIsTheTrackHeadersMatrix(degrees: Int, matrix: [UInt32]) throws {
        let header = TrackHeaderBox(duration: 1, width: 64, height: 48, rotation: degrees)
        #expect(header.matrix == matrix)
        let bytes = written { header.write(to: &$0) }
        let box = try #require(try BoxReader.parse(bytes).first)
        let read = try TrackHeaderBox(reading: box, in: bytes)
        #expect(read.rotation == degrees)
        #expect(read.width == 64 && read.height == 48)
    }

    @Test func aMirroringMatrixIsNoRotation() {
        var header = TrackHeaderBox(duration: 1, width: 64, height: 48)
        header.matrix[0] = 0xFFFF_0000
        #expect(header.rotation == nil)
    }

    @Test func aTrackTurnedByAnotherAngleIsRefused() {
        var track = makeTrack()
        track.rotation = 45
        #expect(throws: MuxingError.invalidTrack("a rotation of 45 degrees; a track turns by 0, 90, 180 or 270")) {
            try MovieLayout(brand: .mp4, tracks: [track], sampleTables: [SampleTable(timescale: 30)])
        }
    }
}
