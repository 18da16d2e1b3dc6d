import MediaModel

/// The start of a Matroska file, as written before the first cluster, and where the values known
/// only at the end lie in it: the `Segment`'s size, the `Duration` (a `Void` until then) and the
/// `SeekHead` (kept space, written again with the `Cues` and `Tags`).
struct MatroskaHead {
    /// The bytes: EBML header, `Segment` start, `SeekHead` space, `Info`, `Tracks`.
    let bytes: [UInt8]
    /// The tracks as blocks refer to them.
    let tracks: [MatroskaTrack]
    /// Where the `Segment`'s data starts: every position in the file's index counts from here.
    let segmentDataStart: UInt64
    private let segmentSizeOffset: UInt64
    private let durationOffset: UInt64
    private let infoPosition: UInt64
    private let tracksPosition: UInt64
    /// Where MaxCLL and MaxFALL are kept for a video track that measures them; `nil` when none does.
    let contentLightOffset: UInt64?

    /// Seconds from 1904-01-01 (MP4's epoch) to 2001-01-01 (Matroska's `DateUTC` epoch).
    static let secondsFrom1904To2001: UInt64 = 3_061_152_000

    init(
        docType: MatroskaSession.DocType, tracks: [Track], described: [MatroskaTrack], tags: MovieTags,
        frameDuration: UInt64?
    ) {
        self.tracks = described
        var w = EBMLWriter()
        w.master(.ebml) { w in
            w.unsigned(.ebmlVersion, 1)
            w.unsigned(.ebmlReadVersion, 1)
            w.unsigned(.ebmlMaxIDLength, 4)
            w.unsigned(.ebmlMaxSizeLength, 8)
            w.string(.docType, docType.rawValue)
            w.unsigned(.docTypeVersion, 4)
            w.unsigned(.docTypeReadVersion, 2)
        }
        w.unknownSizeHeader(.segment)
        segmentSizeOffset = UInt64(w.count - 8)
        segmentDataStart = UInt64(w.count)
        w.append(Self.seekHead(info: nil, tracks: nil, cues: nil, tags: nil))

        infoPosition = UInt64(w.count) - segmentDataStart
        var info = EBMLWriter()
        info.unsigned(.timestampScale, MatroskaClock.nanosecondsPerTick)
        info.string(.muxingApp, "Flipbook")
        info.string(.writingApp, "Flipbook")
        if let title = tags["title"] { info.string(.title, title) }
        // Nanoseconds from 2001 in 64 bits reach the year 2293; a later creation time is left out.
        if tags.creationTime > 0 {
            let seconds = Int64(clamping: tags.creationTime) - Int64(Self.secondsFrom1904To2001)
            let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            if !overflow { info.signed(.dateUTC, nanoseconds, width: 8) }
        }
        let durationInInfo = info.count
        info.void(length: 11)
        var infoHeader = EBMLWriter()
        infoHeader.header(.info, dataSize: UInt64(info.count))
        durationOffset = UInt64(w.count + infoHeader.count + durationInInfo)
        w.append(infoHeader.bytes + info.bytes)

        tracksPosition = UInt64(w.count) - segmentDataStart
        w.master(.tracks) { w in
            for (track, entry) in zip(tracks, described) {
                entry.write(track, frameDuration: entry.isVideo ? frameDuration : nil, to: &w)
            }
        }
        let written = w.bytes
        bytes = written
        // The kept MaxCLL and MaxFALL (``MatroskaTrack/contentLightToCome``), found in the Tracks written.
        let start = Int(tracksPosition + segmentDataStart)
        let kept = MatroskaTrack.contentLightToCome
        let colour = tracks.first?.codec.picture?.colour
        if colour?.contentLightComesLast == true, colour?.contentLight == nil, written.count >= start + kept.count {
            contentLightOffset = (start...(written.count - kept.count)).first {
                written[$0..<$0 + kept.count].elementsEqual(kept)
            }.map(UInt64.init)
        } else {
            contentLightOffset = nil
        }
    }

    /// The `SeekHead` naming where the top-level elements are (those known), in the space kept for
    /// it: positions in 8 bytes, so the element is as long whichever are known, and a `Void` after.
    static func seekHead(info: UInt64?, tracks: UInt64?, cues: UInt64?, tags: UInt64?) -> [UInt8] {
        var w = EBMLWriter()
        let entries: [(EBMLID, UInt64?)] = [(.info, info), (.tracks, tracks), (.cues, cues), (.tags, tags)]
        let known = entries.compactMap { entry in entry.1.map { (entry.0, $0) } }
        if !known.isEmpty {
            w.master(.seekHead) { w in
                for (id, position) in known {
                    w.master(.seek) { w in
                        w.binary(.seekID, id.bytes)
                        w.unsigned(.seekPosition, position, width: 8)
                    }
                }
            }
        }
        w.void(length: MatroskaSession.seekHeadSpace - w.count)
        return w.bytes
    }

    /// What writes the values known at the end over the space kept for them.
    func finalActions(segmentSize: UInt64, duration: Double, cuesPosition: UInt64?, tagsPosition: UInt64?)
        -> [WriteAction]
    {
        var durationElement = EBMLWriter()
        durationElement.float(.duration, duration)
        return [
            .overwrite(EBMLWriter.sizeBytes(segmentSize, width: 8), at: segmentSizeOffset),
            .overwrite(durationElement.bytes, at: durationOffset),
            .overwrite(
                Self.seekHead(info: infoPosition, tracks: tracksPosition, cues: cuesPosition, tags: tagsPosition),
                at: segmentDataStart),
        ]
    }
}
