import MediaModel

/// The boxes inside `moov` that carry a movie's tags (``MovieTags``), where ffmpeg, MediaInfo,
/// ExifTool and Apple's players read them.
///
/// In an MP4 (ffmpeg's and iTunes' layout, the location as phones write it):
/// ```
/// udta
///   ©xyz                    location, a user data string (ISO 6709)
///   meta (full box)
///     hdlr                  handler mdir, manufacturer appl
///     ilst
///       ©nam ©ART ©cmt ...  one item per tag, each holding a data atom (UTF-8)
///       ----                a freeform item: mean com.apple.iTunes, name, data
/// ```
/// In a QuickTime movie (Apple's layout):
/// ```
/// udta
///   ©nam ©ART ©cmt ©day ©xyz ...   user data strings (16-bit length, 16-bit language, text)
/// meta (a plain atom)
///   hdlr                           handler mdta
///   keys                           com.apple.quicktime.title, ... and names of the caller's own
///   ilst                           items typed by their key's index from 1, each holding a data atom
/// ```
package struct MetadataBoxes: Sendable, Equatable {
    /// The tags to write.
    package var tags: MovieTags
    /// Whether to use the QuickTime layout.
    package var isQuickTime: Bool

    /// The language of a user data string: `und`, packed as ISO 639-2/T letters.
    static let undeterminedLanguage: UInt16 = 0x55C4
    /// The language phones and ffmpeg give the location string: `eng`.
    static let locationLanguage: UInt16 = 0x15C7
    /// The well-known type of a `data` atom's UTF-8 text.
    static let utf8Type: UInt32 = 1

    /// Creates the boxes of `tags` for an MP4 or a QuickTime movie.
    package init(tags: MovieTags, isQuickTime: Bool) {
        self.tags = tags
        self.isQuickTime = isQuickTime
    }

    /// Writes the boxes, or nothing when there are no tags.
    package func write(to w: inout ByteWriter) {
        guard tags.hasItems else { return }
        if isQuickTime { writeQuickTime(to: &w) } else { writeMP4(to: &w) }
    }

    private func writeMP4(to w: inout ByteWriter) {
        let listed = tags.items.filter { $0.name != "location" }
        w.box("udta") { w in
            if let location = tags["location"] {
                Self.putUserDataString("\u{A9}xyz", location, language: Self.locationLanguage, to: &w)
            }
            guard !listed.isEmpty else { return }
            w.fullBox("meta", version: 0, flags: 0) { w in
                Self.putHandler("mdir", manufacturer: "appl", to: &w)
                w.box("ilst") { w in
                    for item in listed {
                        if let atom = MovieTagKey.named(item.name)?.itunesItem {
                            w.box(atom) { w in Self.putData(item.value, to: &w) }
                        } else {
                            w.box("----") { w in
                                w.fullBox("mean", version: 0, flags: 0) { w in w.putBytes("com.apple.iTunes".utf8) }
                                w.fullBox("name", version: 0, flags: 0) { w in w.putBytes(item.name.utf8) }
                                Self.putData(item.value, to: &w)
                            }
                        }
                    }
                }
            }
        }
    }

    private func writeQuickTime(to w: inout ByteWriter) {
        let strings = tags.items.compactMap { item in
            MovieTagKey.named(item.name)?.userDataAtom.map { (atom: $0, value: item.value) }
        }
        if !strings.isEmpty {
            w.box("udta") { w in
                for (atom, value) in strings {
                    let language = atom == "\u{A9}xyz" ? Self.locationLanguage : Self.undeterminedLanguage
                    Self.putUserDataString(atom, value, language: language, to: &w)
                }
            }
        }
        w.box("meta") { w in
            Self.putHandler("mdta", manufacturer: FourCC(rawValue: 0), to: &w)
            w.fullBox("keys", version: 0, flags: 0) { w in
                w.putUInt32(UInt32(tags.items.count))
                for item in tags.items {
                    // Each key is laid out as a box: its size, the namespace mdta, the key's bytes.
                    w.box("mdta") { w in w.putBytes((MovieTagKey.named(item.name)?.appleKey ?? item.name).utf8) }
                }
            }
            w.box("ilst") { w in
                for (index, item) in tags.items.enumerated() {
                    w.box(FourCC(rawValue: UInt32(index + 1))) { w in Self.putData(item.value, to: &w) }
                }
            }
        }
    }

    /// A `hdlr` naming what a `meta` box holds, with an empty name.
    private static func putHandler(_ type: FourCC, manufacturer: FourCC, to w: inout ByteWriter) {
        w.fullBox("hdlr", version: 0, flags: 0) { w in
            w.putUInt32(0)  // pre_defined
            w.putFourCC(type)
            w.putFourCC(manufacturer)
            w.putZeros(8)  // reserved
            w.putUInt8(0)  // an empty name
        }
    }

    /// A `data` atom holding UTF-8 text, with no locale.
    private static func putData(_ text: String, to w: inout ByteWriter) {
        w.box("data") { w in
            w.putUInt32(utf8Type)
            w.putUInt32(0)  // locale
            w.putBytes(text.utf8)
        }
    }

    /// A QuickTime user data string: its length in bytes, its language, then the UTF-8 text.
    private static func putUserDataString(_ type: FourCC, _ text: String, language: UInt16, to w: inout ByteWriter) {
        let bytes = Array(text.utf8.prefix(Int(UInt16.max)))
        w.box(type) { w in
            w.putUInt16(UInt16(bytes.count))
            w.putUInt16(language)
            w.putBytes(bytes)
        }
    }
}

extension MovieTags {
    /// Reads the tags of a movie's `moov` in either layout (an MP4's `udta`, `©xyz` and iTunes items,
    /// a QuickTime movie's user data strings and `mdta` keys), and the creation time of its `mvhd`.
    ///
    /// Never throws: a tag that cannot be read is left out. A name read twice keeps its first text.
    package init(reading moov: Box, in bytes: [UInt8]) {
        self.init()
        if let mvhd = moov.child("mvhd"), let header = try? MovieHeaderBox(reading: mvhd, in: bytes) {
            creationTime = header.creationTime
        }
        for udta in moov.children("udta") {
            for box in udta.children {
                if box.type == "meta" {
                    readItunesItems(meta: box, in: bytes)
                } else if let name = MovieTagKey.name(ofUserDataAtom: box.type),
                    let text = Self.userDataString(box, bytes)
                {
                    add(name, text)
                }
            }
        }
        for meta in moov.children("meta") { readAppleKeys(meta: meta, in: bytes) }
    }

    private mutating func add(_ name: String, _ value: String) {
        guard self[name] == nil, !name.isEmpty else { return }
        items.append(Item(name: name, value: value))
    }

    /// The children of a `meta` box, a full box in MP4 and a plain atom in QuickTime.
    private static func children(ofMeta meta: Box, in bytes: [UInt8]) -> [Box] {
        let start = meta.payloadRange.lowerBound
        let isFullBox = start + 8 <= bytes.count && FourCC.string(from: bytes[start + 4..<start + 8]) != "hdlr"
        return (try? BoxReader.parseChildren(of: meta, in: bytes, after: isFullBox ? 4 : 0)) ?? []
    }

    private mutating func readItunesItems(meta: Box, in bytes: [UInt8]) {
        guard let ilst = Self.children(ofMeta: meta, in: bytes).first("ilst") else { return }
        for item in (try? BoxReader.parseChildren(of: ilst, in: bytes)) ?? [] {
            let parts = (try? BoxReader.parseChildren(of: item, in: bytes)) ?? []
            guard let text = parts.first("data").flatMap({ Self.dataText($0, bytes) }) else { continue }
            if item.type == "----" {
                if let name = parts.first("name").flatMap({ Self.fullBoxText($0, bytes) }) { add(name, text) }
            } else if let name = MovieTagKey.name(ofItunesItem: item.type) {
                add(name, text)
            }
        }
    }

    private mutating func readAppleKeys(meta: Box, in bytes: [UInt8]) {
        let parts = Self.children(ofMeta: meta, in: bytes)
        guard let keysBox = parts.first("keys"), let ilst = parts.first("ilst") else { return }
        let keys = ((try? BoxReader.parseChildren(of: keysBox, in: bytes, after: 8)) ?? []).map {
            String(decoding: bytes[$0.payloadRange.clamped(to: 0..<bytes.count)], as: UTF8.self)
        }
        for item in (try? BoxReader.parseChildren(of: ilst, in: bytes)) ?? [] {
            let start = item.offset + 4
            guard start + 4 <= bytes.count else { continue }
            let index = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
            guard index >= 1, index <= keys.count,
                let data = ((try? BoxReader.parseChildren(of: item, in: bytes)) ?? []).first("data"),
                let text = Self.dataText(data, bytes)
            else { continue }
            add(MovieTagKey.name(ofAppleKey: keys[index - 1]), text)
        }
    }

    /// The text of a `data` atom typed UTF-8; `nil` for another type.
    private static func dataText(_ data: Box, _ bytes: [UInt8]) -> String? {
        var r = ByteReader(payloadOf: data, in: bytes)
        guard (try? r.readUInt32()) == utf8Type, (try? r.skip(4)) != nil else { return nil }
        return String(decoding: r.readRest(), as: UTF8.self)
    }

    /// The text after a full box's version and flags (`name` of a freeform item).
    private static func fullBoxText(_ box: Box, _ bytes: [UInt8]) -> String? {
        var r = ByteReader(payloadOf: box, in: bytes)
        guard (try? r.skip(4)) != nil else { return nil }
        return String(decoding: r.readRest(), as: UTF8.self)
    }

    /// The text of a QuickTime user data string (length, language, text), or of an iTunes-style
    /// item written into `udta` by some tools (a `data` atom inside).
    private static func userDataString(_ box: Box, _ bytes: [UInt8]) -> String? {
        var r = ByteReader(payloadOf: box, in: bytes)
        guard let length = try? r.readUInt16(), (try? r.skip(2)) != nil else { return nil }
        guard let text = try? r.readBytes(Int(length)) else {
            return ((try? BoxReader.parseChildren(of: box, in: bytes)) ?? []).first("data").flatMap {
                dataText($0, bytes)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let utf8Type = MetadataBoxes.utf8Type
}
