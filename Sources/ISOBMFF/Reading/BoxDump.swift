import MediaModel

/// Renders a box tree as text: one line per box, two spaces of indent per level, the type, the
/// size, and the key fields of the boxes Flipbook writes.
///
/// The output is deterministic, so it serves golden tests, `flipbook probe` and debugging:
///
/// ```text
/// ftyp size=32 major=isom minor=512 compatible=isom,iso2,avc1,mp41
/// moov size=...
///   mvhd size=108 version=0 timescale=30 duration=90
/// ```
///
/// A box whose fields cannot be decoded gets `unreadable: <reason>` instead of fields; rendering never throws.
package enum BoxDump {
    /// How many table entries to show for `stts`, `ctts` and `elst`.
    package static let shownEntries = 3

    /// Parses and renders a file, or the start of one.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes, or its first bytes.
    ///   - fileSize: The full file's size when `bytes` is only its start.
    /// - Throws: ``MediaReadingError`` when the box tree cannot be parsed.
    package static func render(_ bytes: [UInt8], fileSize: Int? = nil) throws -> String {
        render(try BoxReader.parse(bytes, fileSize: fileSize), in: bytes)
    }

    /// Renders parsed boxes.
    ///
    /// - Parameters:
    ///   - boxes: Boxes from ``BoxReader/parse(_:fileSize:)``.
    ///   - bytes: The bytes they were parsed from.
    /// - Returns: One line per box, each ending in a newline.
    package static func render(_ boxes: [Box], in bytes: [UInt8]) -> String {
        var text = ""
        for box in boxes { render(box, in: bytes, depth: 0, into: &text) }
        return text
    }

    private static func render(_ box: Box, in bytes: [UInt8], depth: Int, into text: inout String) {
        text += String(repeating: "  ", count: depth) + "\(box.type) size=\(box.size)"
        do {
            let fields = try describe(box, in: bytes)
            if !fields.isEmpty { text += " " + fields }
        } catch let error as MediaReadingError {
            text += " unreadable: \(error.message)"
        } catch {
            text += " unreadable: \(error)"
        }
        text += "\n"
        for child in box.children { render(child, in: bytes, depth: depth + 1, into: &text) }
    }

    /// The key fields of a box, or an empty string for boxes without decoded fields.
    static func describe(_ box: Box, in bytes: [UInt8]) throws -> String {
        switch box.type {
        case "ftyp":
            let ftyp = try FileTypeBox(reading: box, in: bytes)
            let compatible = ftyp.compatibleBrands.map(\.description).joined(separator: ",")
            return "major=\(ftyp.majorBrand) minor=\(ftyp.minorVersion) compatible=\(compatible)"
        case "mvhd":
            let mvhd = try MovieHeaderBox(reading: box, in: bytes)
            return "version=\(try version(of: box, in: bytes)) timescale=\(mvhd.timescale) duration=\(mvhd.duration)"
                + " next_track=\(mvhd.nextTrackID)"
        case "tkhd":
            let tkhd = try TrackHeaderBox(reading: box, in: bytes)
            return "version=\(try version(of: box, in: bytes)) flags=\(tkhd.flags) track=\(tkhd.trackID)"
                + " duration=\(tkhd.duration) width=\(tkhd.width) height=\(tkhd.height)"
        case "mdhd":
            let mdhd = try MediaHeaderBox(reading: box, in: bytes)
            return "version=\(try version(of: box, in: bytes)) timescale=\(mdhd.timescale) duration=\(mdhd.duration)"
                + " language=\(mdhd.languageCode)"
        case "hdlr":
            let hdlr = try HandlerBox(reading: box, in: bytes)
            return "handler=\(hdlr.handlerType) name=\"\(hdlr.name)\""
        case "elst":
            let elst = try EditListBox(reading: box, in: bytes)
            let shown = elst.entries.prefix(shownEntries).map { "\($0.segmentDuration)@\($0.mediaTime)" }
            return "version=\(try version(of: box, in: bytes)) entries=\(elst.entries.count)"
                + list(shown, total: elst.entries.count)
        case _ where VisualCodecs.record(forEntryType: box.type) != nil:
            let entry = try VisualSampleEntry(reading: box, in: bytes)
            return "width=\(entry.width) height=\(entry.height) compressor=\"\(entry.compressorName)\""
        case "avcC":
            let c = try AVCConfigurationBox(reading: box, in: bytes).configuration
            var fields =
                "profile=\(c.profileIndication) compatibility=\(c.profileCompatibility)"
                + " level=\(c.levelIndication) sps=\(c.sequenceParameterSets.count) pps=\(c.pictureParameterSets.count)"
            if c.hasHighProfileExtension {
                fields += " chroma=\(c.chromaFormat) depth=\(c.bitDepthLuma)/\(c.bitDepthChroma)"
            }
            return fields
        case "av1C":
            // marker/version, then the fields of AV1-ISOBMFF §2.3.3; the sequence header OBU follows.
            var r = ByteReader(payloadOf: box, in: bytes)
            _ = try r.readUInt8()
            let first = try r.readUInt8()
            let second = try r.readUInt8()
            let depth = second & 0x40 == 0 ? 8 : second & 0x20 == 0 ? 10 : 12
            return "profile=\(first >> 5) level=\(first & 0x1F) tier=\(second >> 7) depth=\(depth)"
                + " subsampling=\(second >> 3 & 1)\(second >> 2 & 1) configOBUs=\(max(0, r.readRest().count - 1)) bytes"
        case "vpcC":
            // version and flags, then the fields of the VP9 binding §2.3.
            var r = ByteReader(payloadOf: box, in: bytes)
            _ = try r.readUInt32()
            let profile = try r.readUInt8()
            let level = try r.readUInt8()
            let packed = try r.readUInt8()
            return "profile=\(profile) level=\(level) depth=\(packed >> 4) subsampling=\(packed >> 1 & 7)"
                + " range=\(packed & 1 == 1 ? "full" : "limited")"
        case "colr":
            let colr = try ColourInformationBox(reading: box, in: bytes)
            guard let c = colr.colour else { return "kind=\(colr.colourType)" }
            let range = colr.colourType == "nclx" ? (c.fullRange ? " range=full" : " range=limited") : ""
            return "kind=\(colr.colourType) primaries=\(c.colourPrimaries) transfer=\(c.transferCharacteristics)"
                + " matrix=\(c.matrixCoefficients)" + range
        case "pasp":
            var r = ByteReader(payloadOf: box, in: bytes)
            return "ratio=\(try r.readUInt32()):\(try r.readUInt32())"
        case "stts":
            let stts = try TimeToSampleBox(reading: box, in: bytes)
            let shown = stts.entries.prefix(shownEntries).map { "\($0.sampleCount)x\($0.sampleDelta)" }
            return "entries=\(stts.entries.count)" + list(shown, total: stts.entries.count)
        case "ctts":
            let ctts = try CompositionOffsetBox(reading: box, in: bytes)
            let shown = ctts.entries.prefix(shownEntries).map { "\($0.sampleCount)x\($0.sampleOffset)" }
            return "version=\(try version(of: box, in: bytes)) entries=\(ctts.entries.count)"
                + list(shown, total: ctts.entries.count)
        case "stss":
            return "entries=\(try SyncSampleBox(reading: box, in: bytes).sampleNumbers.count)"
        case "stsc":
            return "entries=\(try SampleToChunkBox(reading: box, in: bytes).entries.count)"
        case "stsz":
            let stsz = try SampleSizeBox(reading: box, in: bytes)
            return "samples=\(stsz.sampleCount) constant_size=\(stsz.sampleSize)"
        case "stco", "co64":
            return "entries=\(try ChunkOffsetBox(reading: box, in: bytes).chunkOffsets.count)"
        default:
            return try describeFragmentBox(box, in: bytes)
        }
    }

    /// The key fields of the boxes of fragmented movies.
    private static func describeFragmentBox(_ box: Box, in bytes: [UInt8]) throws -> String {
        switch box.type {
        case "mehd":
            return "duration=\(try MovieExtendsHeaderBox(reading: box, in: bytes).fragmentDuration)"
        case "trex":
            let trex = try TrackExtendsBox(reading: box, in: bytes)
            return "track=\(trex.trackID) description=\(trex.defaultSampleDescriptionIndex)"
        case "mfhd":
            return "sequence=\(try MovieFragmentHeaderBox(reading: box, in: bytes).sequenceNumber)"
        case "tfhd":
            let tfhd = try TrackFragmentHeaderBox(reading: box, in: bytes)
            return "track=\(tfhd.trackID) flags=0x\(String(tfhd.flags, radix: 16))"
        case "tfdt":
            return "base_decode_time=\(try TrackFragmentDecodeTimeBox(reading: box, in: bytes).baseMediaDecodeTime)"
        case "trun":
            let trun = try TrackRunBox(reading: box, in: bytes)
            let sync = trun.entries.filter(\.isSync).count
            return "samples=\(trun.entries.count) sync=\(sync) data_offset=\(trun.dataOffset)"
        case "tfra":
            let tfra = try TrackFragmentRandomAccessBox(reading: box, in: bytes)
            return "track=\(tfra.trackID) entries=\(tfra.entries.count)"
        case "mfro":
            return "mfra_size=\(try movieFragmentRandomAccessSize(reading: box, in: bytes))"
        default:
            return ""
        }
    }

    private static func version(of box: Box, in bytes: [UInt8]) throws -> UInt8 {
        var r = ByteReader(payloadOf: box, in: bytes)
        return try r.readVersionAndFlags().version
    }

    private static func list(_ shown: [String], total: Int) -> String {
        guard !shown.isEmpty else { return "" }
        return " [" + shown.joined(separator: ", ") + (total > shown.count ? ", ..." : "") + "]"
    }
}

extension Box {
    /// Renders this box and its descendants as ``BoxDump`` does.
    ///
    /// - Parameter bytes: The bytes the box was parsed from.
    package func dump(in bytes: [UInt8]) -> String {
        BoxDump.render([self], in: bytes)
    }
}
