import MediaModel

/// The muxing session of a Matroska or WebM file: the EBML header, a `Segment` with `SeekHead`,
/// `Info` and `Tracks`, then `Cluster`s of about a second that start at keyframes, and `Cues` (and
/// `Tags`) when the movie is finished.
///
/// The file is written front to back. Each cluster is handed out whole once the next one starts, so
/// the session holds at most one cluster of frames. What is known only at the end (the `Segment`'s
/// size, the `Duration`, where the `Cues` are) is written over space kept for it: until then the
/// `Segment` has an unknown size and the `Duration` is a `Void`, so whatever has been written at any
/// moment is a file players read. With `isDurable` (`--fragmented`) each cluster is made durable as
/// soon as it is written, and a crash keeps every finished cluster.
///
/// Times are ticks of ``MatroskaClock``. A frame's time is its presentation time on the movie's
/// timeline (the tracks' edit lists applied), rounded to the nearest tick from the exact time.
/// Sound that the decoder discards at the start (encoder delay, Opus pre-skip) is the track's
/// `CodecDelay`, and sound past the pictures' end is the last block's `DiscardPadding`.
package struct MatroskaSession: MuxingSession {
    /// The kind of file: WebM (its subset of codecs) or Matroska.
    package enum DocType: String, Sendable {
        case webm
        case matroska
    }

    package let docType: DocType
    /// Whether every cluster is made durable as soon as it is written (a fragmented movie).
    package let isDurable: Bool
    /// The length a cluster gathers before a keyframe starts the next, in ticks.
    package let clusterDuration: Int64
    /// The creation time and tags.
    package private(set) var tags: MovieTags
    /// A picture's nominal length in nanoseconds (the video track's `DefaultDuration`), or `nil`.
    package let frameDuration: UInt64?

    /// The most a block's time may lie from its cluster's: a signed 16-bit number of ticks.
    static let blockReach = Int64(Int16.max)
    /// The bytes a cluster gathers before the next keyframe starts another, whatever its length.
    static let clusterBytes = 16 << 20
    /// The bytes kept for the `SeekHead` and the `Void` after it.
    static let seekHeadSpace = 96

    private var head: MatroskaHead?
    private var timings: [MatroskaTiming?] = []
    private var decodeTimes: [Int64] = []
    private var previousTimes: [Int64?] = []
    private var cluster: [MatroskaBlock] = []
    private var clusterBytes = 0
    private var clusterVideoStart: Int64?
    private var clusterRange: ClosedRange<Int64>?
    /// The latest picture's time, and where a `BlockDuration` written over lies for it.
    private var latestVideoTime: Int64?
    private var writtenOverDuration: (time: Int64, offset: UInt64)?
    private var cues: [MatroskaCue] = []
    /// What the actions handed out so far have written.
    package private(set) var fileSize: UInt64 = 0

    /// Creates the session.
    ///
    /// - Parameters:
    ///   - docType: WebM or Matroska.
    ///   - isDurable: Whether each cluster is made durable when written (`--fragmented`).
    ///   - clusterSeconds: The length a cluster gathers before a keyframe starts the next; a second by default.
    ///   - frameDuration: A picture's nominal length in nanoseconds, or `nil` for none.
    ///   - tags: The title, creation time and other tags.
    package init(
        docType: DocType, isDurable: Bool, clusterSeconds: Double = 1, frameDuration: UInt64? = nil,
        tags: MovieTags = MovieTags()
    ) {
        self.docType = docType
        self.frameDuration = frameDuration
        self.isDurable = isDurable
        self.tags = tags
        clusterDuration = max(1, Int64((clusterSeconds * Double(MatroskaClock.ticksPerSecond)).rounded()))
    }

    package mutating func add(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws -> [WriteAction] {
        var actions: [WriteAction] = []
        if head == nil { actions += try start(tracks: tracks()) }
        guard let head, track < head.tracks.count else {
            throw MuxingError.noSuchTrack(track)
        }
        if timings[track] == nil {
            let all = tracks()
            timings[track] = MatroskaTiming(
                all[track], movieTimescale: all[TrackKind.video.index].timescale,
                isVideo: track == TrackKind.video.index)
        }
        let timing = timings[track]!
        let mediaTime = decodeTimes[track] + Int64(sample.compositionOffset)
        decodeTimes[track] += Int64(sample.duration)
        let time = timing.blockTime(mediaTime)

        var frame = sample
        let prefix = head.tracks[track].strippedPrefix
        if prefix > 0, frame.size > prefix {
            if let range = frame.sourceBytes {
                frame = frame.withBytes(
                    inSource: range.source, at: range.offset + UInt64(prefix), count: range.count - UInt32(prefix))
            } else {
                frame.data.removeFirst(prefix)
            }
        }

        let startsCluster =
            track == TrackKind.video.index && sample.isSync
            && (clusterVideoStart.map { time - $0 >= clusterDuration } ?? false || clusterBytes >= Self.clusterBytes)
        let wouldReach = clusterRange.map { max($0.upperBound, time) - min($0.lowerBound, time) > Self.blockReach }
        if startsCluster || wouldReach == true {
            actions += emitCluster(closedByPicture: startsCluster)
        }
        var block = MatroskaBlock(
            track: track, time: time, sample: frame, mediaTime: mediaTime, mediaDuration: Int64(sample.duration))
        if track == TrackKind.video.index {
            block.previousTime = previousTimes[TrackKind.video.index]
            if clusterVideoStart == nil { clusterVideoStart = time }
            latestVideoTime = max(latestVideoTime ?? time, time)
        }
        previousTimes[track] = time
        cluster.append(block)
        clusterBytes += frame.size + (frame.alpha?.count ?? 0)
        clusterRange = clusterRange.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
        return actions
    }

    /// `Tags` is written after the last cluster, so tags added before ``finish(tracks:extensions:)`` go in it.
    package mutating func addClosingTags(_ items: [MovieTags.Item]) -> Bool {
        tags.set(items)
        return true
    }

    package mutating func finish(tracks: [Track], extensions: [MovieExtension]) throws -> [WriteAction] {
        guard let head else { throw MuxingError.noSamples() }
        let movieTimescale = tracks[TrackKind.video.index].timescale
        let pictureEnd = Self.presentedEnd(
            of: tracks[TrackKind.video.index], decodeTime: decodeTimes[TrackKind.video.index])
        let endTicks = MatroskaClock.ticks(pictureEnd, timescale: movieTimescale)
        var actions: [WriteAction] = []

        // The last picture lasts until the movie's end, to the tick.
        if let last = cluster.indices.filter({ cluster[$0].track == TrackKind.video.index }).max(by: {
            cluster[$0].time < cluster[$1].time
        }
        ),
            cluster[last].time == latestVideoTime
        {
            cluster[last].duration = max(0, endTicks - cluster[last].time)
        } else if let written = writtenOverDuration, written.time == latestVideoTime {
            let value = UInt64(max(0, endTicks - written.time))
            actions.append(
                .overwrite(
                    (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }, at: written.offset)
            )
        }
        // Sound past the pictures' end is left out, and the last block's overhang discarded.
        for index in tracks.indices.dropFirst() where index < head.tracks.count {
            trimSound(ofTrack: index, to: tracks[index], movieTimescale: movieTimescale)
        }
        actions += emitCluster(closedByPicture: true)

        var tail = EBMLWriter()
        let cuesPosition: UInt64? = cues.isEmpty ? nil : fileSize - head.segmentDataStart
        MatroskaCue.write(cues, to: &tail)
        var tagsPosition: UInt64?
        let described = MatroskaTags(tags: tags, extensions: extensions)
        if described.hasContent {
            tagsPosition = fileSize - head.segmentDataStart + UInt64(tail.count)
            described.write(to: &tail)
        }
        actions.append(.append(tail.bytes))
        fileSize += UInt64(tail.count)

        let duration = MatroskaClock.exactTicks(pictureEnd, timescale: movieTimescale)
        // MaxCLL and MaxFALL measured from the pictures, over the room kept for them.
        if let offset = head.contentLightOffset, let light = tracks.first?.codec.picture?.colour.contentLight {
            actions.append(.overwrite(MatroskaTrack.contentLight(light), at: offset))
        }
        actions += head.finalActions(
            segmentSize: fileSize - head.segmentDataStart, duration: duration, cuesPosition: cuesPosition,
            tagsPosition: tagsPosition)
        if isDurable { actions.append(.syncData) }
        return actions
    }

    /// The EBML header, the `Segment`'s start, `SeekHead`, `Info` and `Tracks`.
    private mutating func start(tracks: [Track]) throws -> [WriteAction] {
        guard let first = tracks.first, case .video = first.codec.media else {
            throw MuxingError.invalidTrack("a Matroska movie starts with its video track")
        }
        var described: [MatroskaTrack] = []
        for (index, track) in tracks.enumerated() {
            try track.validate()
            var entry = try MatroskaTrack(track, number: index + 1)
            if docType == .webm, !entry.codec.inWebM {
                throw MuxingError.invalidTrack(
                    "\(entry.codecID) is not one of WebM's codecs (\(MatroskaCodecs.webMNames))")
            }
            if index > 0 {
                let timing = MatroskaTiming(track, movieTimescale: first.timescale, isVideo: false)
                entry.decoderDelay = UInt64(MatroskaClock.nanoseconds(timing.decoderDelay, timescale: track.timescale))
            }
            described.append(entry)
        }
        let made = MatroskaHead(
            docType: docType, tracks: tracks, described: described, tags: tags, frameDuration: frameDuration)
        head = made
        timings = Array(repeating: nil, count: tracks.count)
        decodeTimes = Array(repeating: 0, count: tracks.count)
        previousTimes = Array(repeating: nil, count: tracks.count)
        fileSize = UInt64(made.bytes.count)
        return [.append(made.bytes)]
    }

    /// The gathered blocks as one cluster, in one write.
    ///
    /// - Parameter closedByPicture: Whether a picture starts the next cluster; when it does not (a
    ///   block would lie too far from the cluster's time), the cluster's latest picture may be the
    ///   movie's last, and its `BlockDuration` is written to be written over.
    private mutating func emitCluster(closedByPicture: Bool) -> [WriteAction] {
        guard let head, let range = clusterRange, !cluster.isEmpty else { return [] }
        let clusterTime = range.lowerBound
        if !closedByPicture, let latest = latestVideoTime,
            let index = cluster.lastIndex(where: { $0.track == TrackKind.video.index && $0.time == latest })
        {
            let block = cluster[index]
            cluster[index].duration = MatroskaClock.ticks(block.mediaDuration, timescale: timings[0]!.timescale)
            cluster[index].durationWrittenOver = true
        }
        var timestamp = EBMLWriter()
        timestamp.unsigned(.timestamp, UInt64(max(0, clusterTime)))
        let framings = cluster.map { $0.framing(trackNumber: $0.track + 1, clusterTime: clusterTime) }
        let blocksSize = zip(cluster, framings).reduce(0) {
            $0 + $1.1.before.count + $1.0.sample.size + $1.1.after.count
        }
        let dataSize = UInt64(timestamp.count + blocksSize)
        var header = EBMLWriter()
        header.header(.cluster, dataSize: dataSize)
        let clusterStart = fileSize
        let dataStart = clusterStart + UInt64(header.count)

        var actions: [WriteAction] = [.append(header.bytes + timestamp.bytes)]
        var position = dataStart + UInt64(timestamp.count)
        var cued = false
        for (block, framing) in zip(cluster, framings) {
            if !cued, block.track == TrackKind.video.index, block.sample.isSync {
                cues.append(
                    MatroskaCue(
                        time: block.time, track: Int(TrackKind.video.trackID),
                        clusterPosition: clusterStart - head.segmentDataStart,
                        relativePosition: position - dataStart))
                cued = true
            }
            if block.durationWrittenOver, let at = framing.durationAt {
                writtenOverDuration = (
                    block.time, position + UInt64(framing.before.count + block.sample.size + at)
                )
            }
            actions.appendData(framing.before)
            actions.appendBytes(of: block.sample, merging: true)
            if !framing.after.isEmpty { actions.appendData(framing.after) }
            position += UInt64(framing.before.count + block.sample.size + framing.after.count)
        }
        if isDurable { actions.append(.syncData) }
        fileSize = position
        cluster.removeAll(keepingCapacity: true)
        clusterBytes = 0
        clusterVideoStart = nil
        clusterRange = nil
        return actions
    }

    /// Leaves out the sound blocks that start at or past where track `index`'s edit list stops
    /// presenting it, and discards the overhang of the last one.
    private mutating func trimSound(ofTrack index: Int, to track: Track, movieTimescale: UInt32) {
        guard let timing = timings[index], let edit = track.editList.last, edit.mediaTime >= 0 else { return }
        let span = edit.segmentDuration.multipliedFullWidth(by: UInt64(track.timescale))
        guard span.high < UInt64(movieTimescale) else { return }
        let (whole, remainder) = UInt64(movieTimescale).dividingFullWidth(span)
        let mediaEnd = edit.mediaTime + Int64(whole) + (remainder > 0 ? 1 : 0)
        cluster.removeAll { $0.track == index && $0.mediaTime >= mediaEnd }
        guard let last = cluster.lastIndex(where: { $0.track == index }) else { return }
        let overhang = cluster[last].mediaTime + cluster[last].mediaDuration - mediaEnd
        guard head?.tracks[index].takesDiscardPadding == true else { return }
        if overhang > 0 {
            cluster[last].discardPadding = MatroskaClock.nanoseconds(overhang, timescale: timing.timescale)
        }
    }

    /// Where a track's edit list stops presenting it on the movie's timeline, in movie ticks; its
    /// whole media when it has no edits.
    static func presentedEnd(of track: Track, decodeTime: Int64) -> Int64 {
        guard !track.editList.isEmpty else { return decodeTime }
        return Int64(clamping: track.editList.reduce(UInt64(0)) { $0 + $1.segmentDuration })
    }
}
