import MediaModel

@testable import ISOBMFF

/// Concatenates byte arrays; spelled as a call because long `+` chains of literals are slow to type-check.
func bytes(_ parts: [UInt8]...) -> [UInt8] {
    parts.flatMap { $0 }
}

/// The bytes of an ASCII string, for spelling box types and brands in expected byte literals.
func ascii(_ text: String) -> [UInt8] {
    Array(text.utf8)
}

/// A fake High-profile (100) level 3.1 SPS: NAL header, profile_idc, constraint flags, level_idc, payload.
let fakeSPS: [UInt8] = [0x67, 0x64, 0x00, 0x1F, 0xAC, 0xD9, 0x40]
/// A fake PPS.
let fakePPS: [UInt8] = [0x68, 0xEB, 0xE3, 0xCB]

func makeEntry(width: Int = 64, height: Int = 48) -> VideoSampleEntry {
    VideoSampleEntry.avc(
        width: width, height: height,
        decoderConfiguration: AVCDecoderConfiguration(sequenceParameterSets: [fakeSPS], pictureParameterSets: [fakePPS])
    )
}

func makeTrack(
    width: Int = 64, height: Int = 48, timescale: UInt32 = 30, trackID: UInt32 = 1, editList: [EditListEntry] = []
) -> Track {
    Track(
        trackID: trackID, timescale: timescale, codec: makeEntry(width: width, height: height), editList: editList
    )
}

/// A one-track sample table with its chunks placed by ``MediaDataInterleaver``, as a movie file
/// places them.
func chunkedTable(_ samples: [Sample], timescale: UInt32, maximumChunkSize: UInt64 = 1 << 20) -> SampleTable {
    var table = SampleTable(timescale: timescale)
    for sample in samples { table.append(sample) }
    return chunked(table, maximumChunkSize: maximumChunkSize)
}

/// The table with its chunks placed by ``MediaDataInterleaver`` from its samples' sizes and
/// durations, when it has none yet. Each stand-in sample's bytes live only until its chunk is placed.
func chunked(_ table: SampleTable, maximumChunkSize: UInt64 = 1 << 20) -> SampleTable {
    guard table.chunkCount == 0 else { return table }
    var table = table
    var interleaver = MediaDataInterleaver(timescales: [table.timescale], maximumChunkSize: maximumChunkSize)
    var offset: UInt64 = 0
    func place(_ chunks: [MediaDataInterleaver.Chunk]) {
        for chunk in chunks {
            table.appendChunk(offset: offset, sampleCount: chunk.samples.count)
            offset += chunk.byteCount
        }
    }
    let durations = table.timeToSampleBox.entries.flatMap {
        Array(repeating: $0.sampleDelta, count: Int($0.sampleCount))
    }
    for (size, duration) in zip(table.sizes, durations) {
        place(interleaver.add(MediaSample(data: [UInt8](repeating: 0, count: Int(size)), duration: duration), track: 0))
    }
    place(interleaver.finish())
    return table
}

extension MediaSample {
    init(data: [UInt8], duration: UInt32) {
        self.init(data: data, duration: duration, isSync: true)
    }
}

extension MovieLayout {
    /// A one-track movie, as the tests describe most movies.
    init(
        brand: FileBrand, track: Track, sampleTable: SampleTable, editList: [EditListEntry]? = nil,
        extensions: [MovieExtension] = [], alignment: Int = 1
    ) throws {
        var track = track
        if let editList { track.editList = editList }
        try self.init(
            brand: brand, tracks: [track], sampleTables: [chunked(sampleTable)], extensions: extensions,
            alignment: alignment)
    }
}

extension FragmentedMovieHeader {
    /// A one-track fragmented movie.
    init(brand: FileBrand, track: Track, editList: [EditListEntry] = [], duration: UInt64 = 0) throws {
        var track = track
        track.editList = editList
        try self.init(brand: brand, tracks: [track], duration: duration)
    }

    var editList: [EditListEntry] { tracks[0].editList }

    func finalized(duration: UInt64, editList: [EditListEntry]) -> FragmentedMovieHeader? {
        finalized(duration: duration, editLists: [editList])
    }
}

extension MovieFragment {
    /// A fragment of one track.
    init(sequenceNumber: UInt32, baseMediaDecodeTime: UInt64, samples: [Sample], trackID: UInt32 = 1) {
        self.init(
            sequenceNumber: sequenceNumber,
            runs: [TrackRun(trackID: trackID, baseMediaDecodeTime: baseMediaDecodeTime, samples: samples)])
    }

    var samples: [Sample] { runs[0].samples }
    var baseMediaDecodeTime: UInt64 { runs[0].baseMediaDecodeTime }

    func randomAccessEntry(moofOffset: UInt64) -> TrackFragmentRandomAccessBox.Entry {
        randomAccessEntries(moofOffset: moofOffset)[0].entry
    }
}

/// Writes one box with a `write(to:)` method and returns its bytes.
func written(_ write: (inout ByteWriter) -> Void) -> [UInt8] {
    var writer = ByteWriter()
    write(&writer)
    return writer.bytes
}

/// A synthetic movie whose sample payloads are identifiable: sample `i` starts with `i` as a
/// big-endian UInt32 and is filled with `UInt8(i & 0xFF)`.
struct SyntheticMovie {
    var samples: [Sample]
    var table: SampleTable
    var layout: MovieLayout
    var file: [UInt8]

    init(
        count: Int = 100, brand: FileBrand = .mp4, timescale: UInt32 = 15360, maximumChunkSize: UInt64 = 1 << 20,
        editList: [EditListEntry]? = nil
    ) throws {
        let offsets: [UInt32] = [1024, 0, 512]
        samples = (0..<count).map { (i: Int) -> Sample in
            let size = UInt32(100 + (i * 37) % 900)
            let duration: UInt32 = i % 7 == 6 ? 1024 : 512
            return Sample(size: size, duration: duration, compositionOffset: offsets[i % 3], isSync: i % 10 == 0)
        }
        table = chunkedTable(samples, timescale: timescale, maximumChunkSize: maximumChunkSize)
        layout = try MovieLayout(
            brand: brand, track: makeTrack(timescale: timescale), sampleTable: table, editList: editList)
        file = layout.header
        for (i, sample) in samples.enumerated() {
            file += withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) }
            file += Array(repeating: UInt8(i & 0xFF), count: Int(sample.size) - 4)
        }
    }
}
