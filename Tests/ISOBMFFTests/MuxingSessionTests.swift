import MediaModel
import Testing

@testable import ISOBMFF

/// Performs a session's actions on bytes in memory, as the writer's file sink does on a file.
struct MemorySink {
    var file: [UInt8] = []
    /// The files samples' bytes are copied from, by number.
    var sources: [[UInt8]] = []
    /// Whether the header may be inserted in front of the media (ext4, XFS) or must be copied.
    var canInsert = true
    /// The file's size at each ``WriteAction/syncData``.
    var syncedSizes: [Int] = []

    mutating func perform(_ actions: [WriteAction]) {
        for action in actions {
            switch action {
            case .append(let bytes): file += bytes
            case .copy(let source, let offset, let count): file += sources[source][Int(offset)..<Int(offset + count)]
            case .overwrite(let bytes, let offset):
                precondition(Int(offset) + bytes.count <= file.count, "an overwrite past the end")
                file.replaceSubrange(Int(offset)..<Int(offset) + bytes.count, with: bytes)
            case .syncData: syncedSizes.append(file.count)
            case .prependHeader(let inserted, let copied):
                file = ((canInsert ? inserted : nil) ?? copied) + file
            }
        }
    }
}

/// A sound track's entry, for a second track: 16-bit stereo PCM (`sowt`).
struct SoundEntry: SampleEntry {
    var media: MediaKind { .audio }
    var codecName: String { "pcm_s16le" }
    func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box("sowt") { w in
            w.putZeros(6)
            w.putUInt16(1)  // data_reference_index
            w.putZeros(8)  // version, revision, vendor
            w.putUInt16(2)  // channelcount
            w.putUInt16(16)  // samplesize
            w.putZeros(4)  // compression ID, packet size
            w.putUInt32(100 << 16)
        }
    }
}

/// A sample whose bytes say which it is: `count` bytes of `tag`.
func tagged(_ tag: UInt8, count: Int = 3, duration: UInt32, isSync: Bool = true) -> MediaSample {
    MediaSample(data: Array(repeating: tag, count: count), duration: duration, isSync: isSync)
}

/// What the appends and copies of `actions` write, in order, without the headers.
func sampleTags(_ actions: [WriteAction]) -> [UInt8] {
    actions.flatMap { action -> [UInt8] in
        guard case .append(let bytes) = action else { return [] }
        return bytes.count == 3 && Set(bytes).count == 1 ? [bytes[0]] : []
    }
}

/// The muxing sessions on their own, in memory: what they ask to write for each sample and at the
/// end, and the files those actions make, read back box by box.
@Suite struct ProgressiveMovieSessionTests {
    @Test func eachChunkIsHandedOutOnceItIsCompleteSampleBySample() throws {
        // Half-second samples: a chunk closes once it spans a second, when the next sample comes.
        var session = ProgressiveMovieSession(brand: .mp4, timescales: [10])
        let track = makeTrack(timescale: 10)
        var handedOut: [[WriteAction]] = []
        for index in 0..<5 {
            handedOut.append(try session.add(tagged(UInt8(index), duration: 5), track: 0, tracks: { [track] }))
        }
        #expect(handedOut[0].isEmpty && handedOut[1].isEmpty && handedOut[3].isEmpty)
        #expect(handedOut[2] == [.append([0, 0, 0]), .append([1, 1, 1])])
        #expect(handedOut[4] == [.append([2, 2, 2]), .append([3, 3, 3])])
        let end = try session.finish(tracks: [track], extensions: [])
        #expect(end.count == 2)
        #expect(end[0] == .append([4, 4, 4]))
        guard case .prependHeader(let inserted?, let copied) = end[1] else {
            Issue.record("the last action is the header: \(end[1])")
            return
        }
        #expect(inserted == copied, "alignment 1 pads nothing")
        #expect(session.payloadSize == 15)
        #expect(session.sampleTables[0].chunkOffsets == [0, 6, 12])
    }

    @Test(arguments: [true, false])
    func theHeaderIsInsertedOnWholeBlocksOrCopiedWithoutPadding(canInsert: Bool) throws {
        var session = ProgressiveMovieSession(brand: .mp4, timescales: [30], alignment: 4096)
        var sink = MemorySink(canInsert: canInsert)
        let track = makeTrack(timescale: 30)
        let samples = (0..<40).map { tagged(UInt8($0), count: 10 + $0, duration: 1, isSync: $0 % 10 == 0) }
        for sample in samples { sink.perform(try session.add(sample, track: 0, tracks: { [track] })) }
        let end = try session.finish(tracks: [track], extensions: [])
        guard case .prependHeader(let inserted?, let copied) = end.last else {
            Issue.record("the last action is the header: \(String(describing: end.last))")
            return
        }
        #expect(inserted.count % 4096 == 0, "\(inserted.count) bytes is not whole blocks")
        let insertedBoxes = BoxReader.parseCompleteBoxes(inserted).map(\.type)
        // The mdat header ends each header; its payload is the media already written.
        #expect(insertedBoxes == ["ftyp", "moov", "free"], "\(insertedBoxes)")
        #expect(BoxReader.parseCompleteBoxes(copied).map(\.type) == ["ftyp", "moov"])
        #expect(Array(inserted.suffix(4)) == ascii("mdat") && Array(copied.suffix(4)) == ascii("mdat"))
        sink.perform(end)
        #expect(sink.file.count == (canInsert ? inserted.count : copied.count) + Int(session.payloadSize))
        // Every sample is where the file's own tables say, with its own bytes.
        let table = try SampleTableReader(bytes: sink.file)
        #expect(table.validate().isEmpty, "\(table.validate())")
        #expect(table.samples.count == samples.count)
        for (read, sample) in zip(table.samples, samples) {
            #expect(Array(sink.file[Int(read.offset)..<Int(read.offset) + Int(read.size)]) == sample.data)
            #expect(read.isSync == sample.isSync)
        }
    }

    @Test func twoTracksChunksComeInTimeOrderTheLowerTrackFirstOnATie() throws {
        // Video: half-second samples (chunks of two); sound: quarter-second samples (chunks of four).
        var session = ProgressiveMovieSession(brand: .mp4, timescales: [1000, 100])
        var sink = MemorySink()
        let tracks = [makeTrack(timescale: 1000), Track(trackID: 2, timescale: 100, codec: SoundEntry())]
        var actions: [WriteAction] = []
        var sound = 0
        for index in 0..<6 {
            // Before each picture, the sound that starts by its decode time.
            while sound < 12 && sound * 25 * 10 <= index * 500 {
                actions += try session.add(tagged(0x80 + UInt8(sound), duration: 25), track: 1, tracks: { tracks })
                sound += 1
            }
            actions += try session.add(tagged(UInt8(index), duration: 500), track: 0, tracks: { tracks })
        }
        while sound < 12 {
            actions += try session.add(tagged(0x80 + UInt8(sound), duration: 25), track: 1, tracks: { tracks })
            sound += 1
        }
        actions += try session.finish(tracks: tracks, extensions: [])
        #expect(
            sampleTags(actions) == [
                0, 1, 0x80, 0x81, 0x82, 0x83, 2, 3, 0x84, 0x85, 0x86, 0x87, 4, 5, 0x88, 0x89, 0x8A, 0x8B,
            ])
        sink.perform(actions)
        let video = try SampleTableReader(bytes: sink.file)
        let audio = try SampleTableReader(bytes: sink.file, handlerType: "soun")
        #expect(video.samples.map { sink.file[Int($0.offset)] } == Array(0..<6))
        #expect(audio.samples.map { sink.file[Int($0.offset)] } == (0..<12).map { 0x80 + UInt8($0) })
    }

    @Test func copiedSamplesBecomeOneCopyForEachRunOfAdjacentBytes() throws {
        // A join: samples whose bytes lie in two segment files, copied file to file.
        var session = ProgressiveMovieSession(brand: .mp4, timescales: [10])
        var sink = MemorySink(sources: [Array(0..<100), Array(100..<200)])
        let track = makeTrack(timescale: 10)
        let places: [(source: Int, offset: UInt64, count: UInt32)] = [
            (0, 0, 10), (0, 10, 5), (0, 40, 5), (1, 45, 5), (1, 50, 20),
        ]
        var actions: [WriteAction] = []
        for place in places {
            let sample = MediaSample(data: [], duration: 2, isSync: true)
                .withBytes(inSource: place.source, at: place.offset, count: place.count)
            actions += try session.add(sample, track: 0, tracks: { [track] })
        }
        actions += try session.finish(tracks: [track], extensions: [])
        let copies = actions.filter { if case .copy = $0 { true } else { false } }
        #expect(
            copies == [
                .copy(source: 0, offset: 0, count: 15), .copy(source: 0, offset: 40, count: 5),
                .copy(source: 1, offset: 45, count: 25),
            ])
        sink.perform(actions)
        let table = try SampleTableReader(bytes: sink.file)
        let read = table.samples.map { Array(sink.file[Int($0.offset)..<Int($0.offset) + Int($0.size)]) }
        #expect(read == places.map { Array(sink.sources[$0.source][Int($0.offset)..<Int($0.offset) + Int($0.count)]) })
    }
}

@Suite struct FragmentedMovieSessionTests {
    /// The runs of every track fragment of the `moof` at `offset`: track ID, sample count, durations.
    static func runs(ofFragmentAt moof: Box, in file: [UInt8]) throws -> [(trackID: UInt32, durations: [UInt32])] {
        try moof.children("traf").map { traf in
            let header = try TrackFragmentHeaderBox(reading: traf.child("tfhd")!, in: file)
            let run = try TrackRunBox(
                reading: traf.child("trun")!, in: file, defaults: header.defaults(over: TrackExtendsBox()))
            return (header.trackID, run.entries.map(\.duration))
        }
    }

    @Test func fragmentsStartAtSyncSamplesEachWrittenWholeAndMadeDurable() throws {
        // One-second fragments at 10 ticks a second, a keyframe every third 0.2 s sample: a fragment
        // ends at the first keyframe once it holds half a second.
        var session = FragmentedMovieSession(brand: .mp4, trackCount: 1, fragmentDuration: 10)
        var sink = MemorySink()
        let track = makeTrack(timescale: 10)
        var perSample: [[WriteAction]] = []
        for index in 0..<8 {
            let sample = tagged(UInt8(index), duration: 2, isSync: index % 3 == 0)
            perSample.append(try session.add(sample, track: 0, tracks: { [track] }))
            sink.perform(perSample.last!)
        }
        #expect(perSample.enumerated().filter { !$0.element.isEmpty }.map(\.offset) == [3, 6])
        #expect(perSample[3].count == 3, "the header, the fragment and a sync: \(perSample[3].count)")
        #expect(perSample[3].last == .syncData && perSample[6].last == .syncData)
        guard case .append(let start) = perSample[3][0], case .append(let first) = perSample[3][1] else {
            Issue.record("the movie's start and the fragment are appended")
            return
        }
        #expect(BoxReader.parseCompleteBoxes(start).map(\.type) == ["ftyp", "moov"])
        #expect(BoxReader.parseCompleteBoxes(first).map(\.type) == ["moof", "mdat"])
        #expect(Array(first.suffix(9)) == [0, 0, 0, 1, 1, 1, 2, 2, 2], "the fragment ends with its samples' bytes")
        #expect(sink.syncedSizes == [start.count + first.count, Int(session.fileSize)])

        let moovSize = start.count
        let end = try session.finish(tracks: [track], extensions: [])
        sink.perform(end)
        guard case .overwrite(let final, at: 0) = end.last else {
            Issue.record("the final moov is written over the first: \(String(describing: end.last))")
            return
        }
        #expect(final.count == moovSize)
        let reader = try FragmentedMovieReader(bytes: sink.file)
        #expect(reader.validate().isEmpty, "\(reader.validate())")
        #expect(reader.fragments.map(\.sequenceNumber) == [1, 2, 3])
        #expect(reader.fragments.map { $0.samples.count } == [3, 3, 2])
        #expect(reader.samples.map { sink.file[Int($0.offset)] } == Array(0..<8))
        #expect(reader.randomAccess?.count == 3)
    }

    @Test func provisionalEditListsAreWrittenOverWithTheFinalOnes() throws {
        var session = FragmentedMovieSession(brand: .mp4, trackCount: 1, fragmentDuration: 4)
        var sink = MemorySink()
        // A B-frame delay of 2 ticks hidden by the edit; its length is known only at the end.
        let provisional = makeTrack(timescale: 10, editList: [EditListEntry(segmentDuration: 6, mediaTime: 2)])
        for index in 0..<6 {
            sink.perform(try session.add(tagged(UInt8(index), duration: 2), track: 0, tracks: { [provisional] }))
        }
        func edits() throws -> (elst: [EditListEntry], duration: UInt64) {
            let moov = BoxReader.parseCompleteBoxes(sink.file).first { $0.type == "moov" }!
            let elst = try EditListBox(reading: moov.descendant(["trak", "edts", "elst"])!, in: sink.file).entries
            return (elst, try MovieHeaderBox(reading: moov.child("mvhd")!, in: sink.file).duration)
        }
        #expect(try edits().elst == [EditListEntry(segmentDuration: 0, mediaTime: 2)], "unknown length: 0")
        var final = provisional
        final.editList = [EditListEntry(segmentDuration: 15, mediaTime: 2)]
        sink.perform(try session.finish(tracks: [final], extensions: []))
        #expect(try edits().elst == [EditListEntry(segmentDuration: 15, mediaTime: 2)])
        #expect(try edits().duration == 15)
        // The last sample lasts until the presented length on the decode timeline, so players that
        // measure a fragmented track by its decode times report the edit's length.
        let reader = try FragmentedMovieReader(bytes: sink.file)
        #expect(reader.fragments.last!.endDecodeTime == 15)
        #expect(reader.samples.count == 6)
    }

    /// Three samples of 3 * 10^9 ticks: the final duration needs the 64-bit `mvhd`, `tkhd` and
    /// `elst`, so the final `moov` cannot go over the provisional one and goes in front of the file,
    /// a whole number of blocks when inserted and the same bytes when copied.
    @Test(arguments: [true, false])
    func aDurationPast32BitsPutsTheFinalMoovInFrontAndMovesTheIndex(canInsert: Bool) throws {
        var session = FragmentedMovieSession(brand: .mp4, trackCount: 1, fragmentDuration: 10, alignment: 4096)
        var sink = MemorySink(canInsert: canInsert)
        let track = makeTrack(timescale: 1000)
        for index in 0..<3 {
            sink.perform(try session.add(tagged(UInt8(index), duration: 3_000_000_000), track: 0, tracks: { [track] }))
        }
        let provisional = BoxReader.parseCompleteBoxes(sink.file).prefix(2).reduce(0) { $0 + $1.size }
        let end = try session.finish(tracks: [track], extensions: [])
        guard case .prependHeader(let inserted?, let copied) = end.last else {
            Issue.record("the final moov is put in front: \(String(describing: end.last))")
            return
        }
        #expect(inserted == copied && inserted.count % 4096 == 0)
        sink.perform(end)
        #expect(UInt64(sink.file.count) == session.fileSize)
        let boxes = BoxReader.parseCompleteBoxes(sink.file)
        #expect(boxes.prefix(3).map(\.type) == ["ftyp", "moov", "free"])
        #expect(boxes[2].offset + boxes[2].size == inserted.count + provisional, "free holds the first moov")
        let moov = boxes[1]
        let header = try MovieHeaderBox(reading: moov.child("mvhd")!, in: sink.file)
        #expect(header.version == 1 && header.duration == 9_000_000_000)
        let trackHeader = try TrackHeaderBox(reading: moov.descendant(["trak", "tkhd"])!, in: sink.file)
        #expect(trackHeader.version == 1 && trackHeader.duration == 9_000_000_000)
        let edits = try EditListBox(reading: moov.descendant(["trak", "edts", "elst"])!, in: sink.file)
        #expect(edits.version == 1 && edits.entries == [EditListEntry(segmentDuration: 9_000_000_000, mediaTime: 0)])
        let reader = try FragmentedMovieReader(bytes: sink.file)
        #expect(reader.validate().isEmpty, "\(reader.validate())")
        #expect(reader.randomAccess?.count == 3)
        #expect(reader.samples.map { sink.file[Int($0.offset)] } == [0, 1, 2])
    }

    @Test func theSoundTrackEndsWhereItsEditEndsInTheLastFragment() throws {
        // Video at 10 ticks a second for 1.2 s; sound at 100 a second, 2.5 s of it given.
        var session = FragmentedMovieSession(brand: .mp4, trackCount: 2, fragmentDuration: 100)
        var sink = MemorySink()
        let video = makeTrack(timescale: 10, editList: [EditListEntry(segmentDuration: 12, mediaTime: 0)])
        let sound = makeTrack(timescale: 100, trackID: 2, editList: [EditListEntry(segmentDuration: 12, mediaTime: 0)])
        for index in 0..<10 {
            sink.perform(
                try session.add(tagged(0x80 + UInt8(index), duration: 25), track: 1, tracks: { [video, sound] }))
        }
        for index in 0..<6 {
            sink.perform(try session.add(tagged(UInt8(index), duration: 2), track: 0, tracks: { [video, sound] }))
        }
        sink.perform(try session.finish(tracks: [video, sound], extensions: []))
        let moofs = BoxReader.parseCompleteBoxes(sink.file).filter { $0.type == "moof" }
        #expect(moofs.count == 1)
        let runs = try Self.runs(ofFragmentAt: moofs[0], in: sink.file)
        #expect(runs.map(\.trackID) == [1, 2])
        #expect(runs[0].durations == [2, 2, 2, 2, 2, 2])
        // 1.2 s is 120 sound ticks: five samples start before it, the last lasting until exactly there.
        #expect(runs[1].durations == [25, 25, 25, 25, 20])
    }

    @Test func finishingWithoutASampleIsRefused() throws {
        var session = FragmentedMovieSession(brand: .mp4, trackCount: 1, fragmentDuration: 10)
        #expect(throws: MuxingError.self) { try session.finish(tracks: [makeTrack(timescale: 10)], extensions: []) }
    }
}
