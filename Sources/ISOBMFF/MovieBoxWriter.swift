import MediaModel

/// Writes `ftyp`, `moov` and the `mdat` header for one layout attempt; also the `ftyp` and `moov`
/// of a fragmented movie (with `mvex`, empty sample tables and no `mdat`).
struct MovieBoxWriter {
    let brand: FileBrand
    let tracks: [Track]
    /// The tracks' sample entries, in the same order.
    let entries: [any SampleEntry]
    let sampleTables: [SampleTable]
    /// The creation time and tags.
    let tags: MovieTags
    var extensions: [MovieExtension] = []
    /// The `mvex` of a fragmented movie; `nil` for a progressive one.
    var movieExtends: MovieExtendsBox? = nil
    /// The `mvhd`/`tkhd` duration when it is not the edit list's or the sample table's.
    var durationOverride: UInt64? = nil

    init(
        brand: FileBrand, tracks: [Track], sampleTables: [SampleTable], tags: MovieTags,
        extensions: [MovieExtension] = [], movieExtends: MovieExtendsBox? = nil, durationOverride: UInt64? = nil
    ) throws {
        guard !tracks.isEmpty, tracks.count == sampleTables.count else {
            throw MuxingError.invalidTrack(
                "\(tracks.count) tracks with \(sampleTables.count) sample tables; a movie needs one each"
            )
        }
        var entries: [any SampleEntry] = []
        for (track, table) in zip(tracks, sampleTables) {
            try track.validate()
            entries.append(try track.sampleEntry())
            guard track.timescale == table.timescale else {
                throw MuxingError.invalidTrack(
                    "track \(track.trackID) timescale \(track.timescale) differs from its sample table's \(table.timescale)"
                )
            }
        }
        guard Set(tracks.map(\.trackID)).count == tracks.count else {
            throw MuxingError.invalidTrack("track IDs \(tracks.map(\.trackID)) repeat; each track needs its own")
        }
        self.brand = brand
        self.tracks = tracks
        self.entries = entries
        self.sampleTables = sampleTables
        self.tags = tags
        self.extensions = extensions
        self.movieExtends = movieExtends
        self.durationOverride = durationOverride
    }

    var isQuickTime: Bool { brand == .quickTime }
    /// The movie's timescale: the first track's.
    var movieTimescale: UInt32 { tracks[TrackKind.video.index].timescale }
    /// Seconds since 1904 for every creation and modification time.
    var creationTime: UInt64 { tags.creationTime }

    /// A track's presented duration in the movie's timescale.
    func duration(of index: Int) -> UInt64 {
        if let durationOverride { return durationOverride }
        let track = tracks[index]
        if !track.editList.isEmpty { return EditListBox(entries: track.editList).duration }
        let media = sampleTables[index].mediaDuration
        guard track.timescale != movieTimescale else { return media }
        // Rounded up, so the movie is never shorter than its longest track.
        let scaled = media.multipliedFullWidth(by: UInt64(movieTimescale))
        let (quotient, remainder) = UInt64(track.timescale).dividingFullWidth(scaled)
        return quotient + (remainder > 0 ? 1 : 0)
    }

    func header(base: UInt64, largeOffsets: Bool, largeMediaData: Bool, payloadSize: UInt64, padding: Int = 0)
        -> [UInt8]
    {
        let entries = sampleTables.reduce(0) { $0 + $1.sampleCount * 4 + $1.chunkCount * 12 }
        var w = ByteWriter(capacity: 4096 + entries + padding)
        writeMovie(to: &w, base: base, largeOffsets: largeOffsets)
        if padding > 0 { w.box("free") { w in w.putZeros(padding - 8) } }
        w.boxHeader("mdat", payloadSize: payloadSize)
        return w.bytes
    }

    /// Writes `ftyp` and `moov`.
    func writeMovie(to w: inout ByteWriter, base: UInt64, largeOffsets: Bool) {
        var codecBrands: [FourCC] = []
        for brand in entries.compactMap(\.compatibleBrand) where !codecBrands.contains(brand) {
            codecBrands.append(brand)
        }
        FileTypeBox(brand: brand, codecBrands: codecBrands).write(to: &w)
        w.box("moov") { w in
            MovieHeaderBox(
                creationTime: creationTime, modificationTime: creationTime, timescale: movieTimescale,
                duration: tracks.indices.map(duration(of:)).max() ?? 0,
                nextTrackID: (tracks.map(\.trackID).max() ?? 0) + 1
            ).write(to: &w)
            for index in tracks.indices { writeTrack(index, to: &w, base: base, largeOffsets: largeOffsets) }
            MetadataBoxes(tags: tags, isQuickTime: isQuickTime).write(to: &w)
            for box in extensions { box.write(to: &w) }
            movieExtends?.write(to: &w)
        }
    }

    private func writeTrack(_ index: Int, to w: inout ByteWriter, base: UInt64, largeOffsets: Bool) {
        let track = tracks[index]
        let table = sampleTables[index]
        let media = entries[index].media
        w.box("trak") { w in
            var size = (width: 0, height: 0)
            if case .video(let width, let height) = media { size = (width, height) }
            TrackHeaderBox(
                creationTime: creationTime, modificationTime: creationTime, trackID: track.trackID,
                duration: duration(of: index), width: UInt32(size.width), height: UInt32(size.height),
                volume: media == .audio ? 0x0100 : 0, rotation: track.rotation
            ).write(to: &w)
            if !track.editList.isEmpty { EditListBox(entries: track.editList).write(to: &w) }
            if let timecode = track.timecodeTrackID {
                w.box("tref") { w in w.box("tmcd") { w in w.putUInt32(timecode) } }
            }
            w.box("mdia") { w in
                MediaHeaderBox(
                    creationTime: creationTime, modificationTime: creationTime, timescale: track.timescale,
                    duration: table.mediaDuration
                ).write(to: &w)
                HandlerBox(handlerType: media.handlerType, name: media.handlerName, isQuickTime: isQuickTime)
                    .write(to: &w)
                w.box("minf") { w in
                    switch media {
                    case .video: VideoMediaHeaderBox().write(to: &w)
                    case .audio: SoundMediaHeaderBox().write(to: &w)
                    case .timecode: TimecodeMediaHeaderBox(isQuickTime: isQuickTime).write(to: &w)
                    }
                    DataInformationBox().write(to: &w)
                    w.box("stbl") { w in
                        SampleDescriptionBox(entry: entries[index], isQuickTime: isQuickTime).write(to: &w)
                        table.write(to: &w, base: base, usesLargeOffsets: largeOffsets)
                    }
                }
            }
        }
    }
}
