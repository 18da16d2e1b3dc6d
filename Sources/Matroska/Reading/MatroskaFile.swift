import MediaModel

/// A Matroska or WebM file as a reader finds it: `Info`, `Tracks`, every block of every cluster
/// (where its frame lies, not the frame), and `Tags`.
///
/// The frames stay in the file: a block records its frame's offset and size, so a movie of any
/// length is read in memory proportional to its number of frames. A file whose writer was killed
/// (a `Segment` of unknown size, a cluster cut off by the end of the file, no `Cues`) is read as far
/// as it goes, and what is missing is said in ``problems``; anything malformed before that throws.
///
/// ```swift
/// let movie = try MatroskaFile(path: "movie.webm")
/// let video = movie.tracks.first { $0.isVideo }!
/// let frames = movie.blocks.filter { $0.track == video.number }
/// ```
package struct MatroskaFile: Sendable {
    /// `webm` or `matroska` (the EBML header's `DocType`).
    package var docType = ""
    /// Nanoseconds a tick (`TimestampScale`); 1 000 000 when not stated.
    package var timestampScale: UInt64 = 1_000_000
    /// The segment's length in ticks (`Duration`, a float), when stated.
    package var duration: Double?
    /// The `Title`, when stated.
    package var title: String?
    /// Nanoseconds since 2001-01-01 UTC when the movie was made (`DateUTC`), when stated.
    package var dateUTC: Int64?
    /// The tracks, in file order.
    package var tracks: [MatroskaTrackEntry] = []
    /// Every block of every cluster, in file order.
    package var blocks: [MatroskaBlockEntry] = []
    /// Text tags (`SimpleTag` with a `TagString`) of the whole movie, names as written.
    package var tags: [(name: String, value: String)] = []
    /// Binary tags (`SimpleTag` with a `TagBinary`) of the whole movie, by name.
    package var binaryTags: [String: [UInt8]] = [:]
    /// Whether the file has `Cues`, and whether they come before the first cluster.
    package var hasCues = false
    package var cuesFirst = false
    /// Whether the `Segment`'s size is stated: the writer finished it.
    package var segmentSizeKnown = false
    /// What is missing or cut short in a file read as far as it goes.
    package var problems: [String] = []
    /// The file's length in bytes.
    package var fileSize: UInt64 = 0

    /// Reads the file at `path`.
    ///
    /// - Throws: ``MediaReadingError`` for a file that is not Matroska or WebM, or is malformed; Foundation's
    ///   error when it cannot be opened or read.
    package init(path: String) throws {
        try self.init(source: try EBMLFileSource(path: path))
    }

    /// Reads a file held in memory.
    package init(bytes: [UInt8]) throws {
        try self.init(source: EBMLMemorySource(bytes))
    }

    /// Reads the file `source` serves.
    package init(source: any EBMLByteSource) throws {
        let reader = EBMLReader(source)
        fileSize = source.size
        guard fileSize >= 4, Array(try source.read(at: 0, count: 4)) == EBMLID.ebml.bytes else {
            throw MediaReadingError.matroska(
                .otherFormat, "the file does not start with an EBML header: not a Matroska or WebM file")
        }
        let header = try reader.node(try reader.element(at: 0, before: fileSize), before: fileSize)
        docType = header.string(.docType) ?? "matroska"
        guard docType == "matroska" || docType == "webm" else {
            throw MediaReadingError.matroska(
                .otherFormat, "the document type is \"\(docType)\", not matroska or webm", offset: 0, element: .docType)
        }
        var position = header.element.end!
        while position < fileSize {
            let element = try reader.element(at: position, before: fileSize)
            if element.id == .segment {
                try readSegment(element, reader: reader)
                break
            }
            position = try reader.checked(element, before: fileSize).end!
        }
        guard !tracks.isEmpty else {
            throw MediaReadingError.matroska(.missing, "the file has no Segment with Tracks: it holds no movie")
        }
    }

    /// The payload of the private description with the 16-byte `userType` (written as a binary tag
    /// named `FLIPBOOK_` and the type's hex), if the file has one.
    package func extensionPayload(userType: [UInt8]) -> [UInt8]? {
        binaryTags[MatroskaTags.name(ofExtension: userType)]
    }

    /// Reads the segment's elements; clusters block by block.
    private mutating func readSegment(_ segment: EBMLElement, reader: EBMLReader) throws {
        segmentSizeKnown = segment.size != nil
        var end = segment.end ?? fileSize
        if end > fileSize || end < segment.dataOffset {
            problems.append("the file ends \(end &- fileSize) bytes before its Segment does: it was cut short")
            end = fileSize
        }
        let clusters = MatroskaClusterReader(reader: reader)
        var seenCluster = false
        var position = segment.dataOffset
        while position < end {
            let element: EBMLElement
            do {
                element = try reader.element(at: position, before: end)
            } catch let error as MediaReadingError where error.code == .truncated && seenCluster {
                problems.append("the file ends inside an element header at offset \(position)")
                break
            }
            if element.id != .cluster, seenCluster, element.end.map({ $0 > end }) ?? false {
                problems.append("the file ends inside the \(element.id.name ?? "element") at offset \(element.offset)")
                break
            }
            if element.id == .cluster {
                seenCluster = true
                let outcome = try clusters.read(element, segmentEnd: end, lenient: true, into: &blocks)
                if outcome.cutShort {
                    problems.append(
                        "the file ends inside the Cluster at offset \(element.offset); its whole blocks are read")
                    break
                }
                position = outcome.end
                continue
            }
            try readTopLevel(element, reader: reader, before: end, afterClusters: seenCluster)
            position = try reader.checked(element, before: end).end!
        }
        if !segmentSizeKnown {
            problems.append("the Segment's size is unknown: the movie was not finished")
        } else if !hasCues {
            problems.append("the movie has no Cues (no index for seeking)")
        }
    }

    /// Reads an element of the segment other than a cluster.
    private mutating func readTopLevel(
        _ element: EBMLElement, reader: EBMLReader, before end: UInt64, afterClusters: Bool
    ) throws {
        switch element.id {
        case .info:
            try readInfo(try reader.node(element, before: end))
        case .tracks:
            let entries = try reader.node(element, before: end).children(.trackEntry)
            tracks = try entries.map(MatroskaTrackEntry.init(reading:))
        case .tags:
            readTags(try reader.node(element, before: end))
        case .cues:
            hasCues = true
            cuesFirst = !afterClusters
        default:
            break
        }
    }

    private mutating func readInfo(_ info: EBMLNode) throws {
        if let scale = try info.unsigned(.timestampScale) {
            guard scale > 0 else {
                throw MediaReadingError.matroska(
                    .malformed, "a TimestampScale of 0", offset: info.element.offset, element: .info)
            }
            timestampScale = scale
        }
        duration = try info.float(.duration)
        if let value = duration, !value.isFinite || value < 0 {
            throw MediaReadingError.matroska(
                .malformed, "a Duration of \(value)", offset: info.element.offset, element: .info)
        }
        title = info.string(.title)
        dateUTC = try info.child(.dateUTC)?.signed()
    }

    /// Keeps the tags that apply to the whole movie (no track, edition or chapter in `Targets`).
    private mutating func readTags(_ node: EBMLNode) {
        for tag in node.children(.tag) {
            let targets = tag.child(.targets)
            guard targets?.children.allSatisfy({ $0.id == .targetTypeValue || $0.id == .targetType }) ?? true
            else { continue }
            for simple in tag.children(.simpleTag) {
                guard let name = simple.string(.tagName) else { continue }
                if let value = simple.string(.tagString) {
                    tags.append((name, value))
                } else if let binary = simple.child(.tagBinary) {
                    binaryTags[name] = Array(binary.data)
                }
            }
        }
    }
}
