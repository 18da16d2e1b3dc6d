import MediaModel
import Testing

@testable import ISOBMFF

@Suite struct MovieLayoutTests {
    static let brandsAndChunkLimits: [(FileBrand, UInt64)] = [
        (.mp4, 1 << 20), (.mp4, 4096), (.mp4, 1), (.m4v, 1 << 20), (.quickTime, 2000),
    ]

    @Test(arguments: brandsAndChunkLimits)
    func roundTripsEverySample(brand: FileBrand, maximumChunkSize: UInt64) throws {
        let movie = try SyntheticMovie(count: 100, brand: brand, maximumChunkSize: maximumChunkSize)
        let reader = try SampleTableReader(bytes: movie.file)
        #expect(reader.validate() == [])
        #expect(reader.timescale == 15360)
        #expect(reader.mediaDuration == movie.table.mediaDuration)
        try #require(reader.samples.count == movie.samples.count)
        var decodeTime: UInt64 = 0
        for (i, (read, written)) in zip(reader.samples, movie.samples).enumerated() {
            #expect(read.size == written.size, "sample \(i)")
            #expect(read.decodeTime == decodeTime, "sample \(i)")
            #expect(read.compositionOffset == Int64(written.compositionOffset), "sample \(i)")
            #expect(read.isSync == written.isSync, "sample \(i)")
            let at = Int(read.offset)
            let payload = movie.file[at..<at + Int(read.size)]
            #expect(Array(payload.prefix(4)) == withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) }, "sample \(i)")
            #expect(payload.dropFirst(4).allSatisfy { $0 == UInt8(i & 0xFF) }, "sample \(i)")
            decodeTime += UInt64(written.duration)
        }
    }

    @Test func placesFtypThenMoovThenMdatEndingTheHeader() throws {
        let movie = try SyntheticMovie(count: 10)
        let boxes = try BoxReader.parse(movie.file)
        #expect(boxes.map(\.type) == ["ftyp", "moov", "mdat"])
        let mdat = try #require(boxes.first("mdat"))
        #expect(mdat.payloadRange.lowerBound == movie.layout.header.count)
        #expect(UInt64(mdat.payloadRange.count) == movie.table.payloadSize)
        #expect(mdat.end == movie.file.count)
        #expect(!movie.layout.usesLargeChunkOffsets)
        #expect(!movie.layout.usesLargeMediaDataHeader)
    }

    @Test func isDeterministic() throws {
        let first = try SyntheticMovie(count: 30)
        let second = try SyntheticMovie(count: 30)
        #expect(first.layout.header == second.layout.header)
    }

    @Test func movieDurationFollowsTheEditList() throws {
        let edit = EditListEntry(segmentDuration: 1000, mediaTime: 1024)
        let movie = try SyntheticMovie(count: 10, editList: [edit])
        let moov = try #require(try BoxReader.parse(movie.file).first("moov"))
        let mvhd = try MovieHeaderBox(reading: try #require(moov.child("mvhd")), in: movie.file)
        let trak = try #require(moov.child("trak"))
        let tkhd = try TrackHeaderBox(reading: try #require(trak.child("tkhd")), in: movie.file)
        let elst = try EditListBox(reading: try #require(trak.descendant(["edts", "elst"])), in: movie.file)
        let mdhd = try MediaHeaderBox(reading: try #require(trak.descendant(["mdia", "mdhd"])), in: movie.file)
        #expect(mvhd.duration == 1000)
        #expect(tkhd.duration == 1000)
        #expect(elst.entries == [edit])
        #expect(mdhd.duration == movie.table.mediaDuration)
        #expect(trak.children.map(\.type) == ["tkhd", "edts", "mdia"])
    }

    @Test func promotesToCo64AndLargeMdatPast4GiB() throws {
        var table = SampleTable(timescale: 30)
        for i in 0..<5000 { table.append(Sample(size: 1 << 20, duration: 1, isSync: i % 30 == 0)) }
        #expect(table.payloadSize == 5000 << 20)
        let layout = try MovieLayout(brand: .mp4, track: makeTrack(), sampleTable: table)
        #expect(layout.usesLargeChunkOffsets)
        #expect(layout.usesLargeMediaDataHeader)

        let fileSize = layout.header.count + Int(table.payloadSize)
        let boxes = try BoxReader.parse(layout.header, fileSize: fileSize)
        let mdat = try #require(boxes.last)
        #expect(mdat.type == "mdat")
        #expect(mdat.headerSize == 16)
        #expect(mdat.end == fileSize)
        let stbl = try #require(boxes.first("moov")?.descendant(["trak", "mdia", "minf", "stbl"]))
        #expect(stbl.child("co64") != nil)
        #expect(stbl.child("stco") == nil)

        let reader = try SampleTableReader(bytes: layout.header, fileSize: fileSize)
        #expect(reader.validate() == [])
        #expect(reader.samples.last?.offset == UInt64(layout.header.count) + 4999 << 20)
    }

    @Test func promotesToCo64WhileMdatStillFits32Bits() throws {
        var table = SampleTable(timescale: 30)
        table.append(Sample(size: UInt32.max - 9, duration: 1, isSync: true))
        table.append(Sample(size: 1, duration: 1, isSync: true))
        let layout = try MovieLayout(brand: .mp4, track: makeTrack(), sampleTable: table)
        #expect(layout.usesLargeChunkOffsets)
        #expect(!layout.usesLargeMediaDataHeader)
        #expect(Array(layout.header.suffix(8)) == [0xFF, 0xFF, 0xFF, 0xFF] + ascii("mdat"))
    }

    @Test func keepsStcoWhenEveryOffsetFits() throws {
        var table = SampleTable(timescale: 30)
        for _ in 0..<3000 { table.append(Sample(size: 1 << 20, duration: 1, isSync: true)) }
        let layout = try MovieLayout(brand: .mp4, track: makeTrack(), sampleTable: table)
        #expect(!layout.usesLargeChunkOffsets)
        #expect(!layout.usesLargeMediaDataHeader)
    }

    @Test func promotesHeaderBoxesToVersion1ForLongDurations() throws {
        var table = SampleTable(timescale: 90000)
        for _ in 0..<3 { table.append(Sample(size: 10, duration: UInt32.max, isSync: true)) }
        let layout = try MovieLayout(brand: .mp4, track: makeTrack(timescale: 90000), sampleTable: table)
        let bytes = layout.header
        let moov = try #require(try BoxReader.parse(bytes, fileSize: bytes.count + 30).first("moov"))
        let trak = try #require(moov.child("trak"))
        for box in [moov.child("mvhd"), trak.child("tkhd"), trak.descendant(["mdia", "mdhd"])] {
            let box = try #require(box)
            #expect(bytes[box.payloadRange.lowerBound] == 1, "\(box.type) version")
        }
        #expect(
            try MovieHeaderBox(reading: try #require(moov.child("mvhd")), in: bytes).duration == 3 * UInt64(UInt32.max))
        #expect(
            try TrackHeaderBox(reading: try #require(trak.child("tkhd")), in: bytes).duration == 3 * UInt64(UInt32.max))
        let reader = try SampleTableReader(bytes: bytes, fileSize: bytes.count + 30)
        #expect(reader.mediaDuration == 3 * UInt64(UInt32.max))
        #expect(reader.samples.map(\.decodeTime) == [0, UInt64(UInt32.max), 2 * UInt64(UInt32.max)])
    }

    @Test func rejectsATrackItCannotDescribe() {
        var entry = makeEntry()
        entry.configuration =
            AVCDecoderConfiguration(sequenceParameterSets: [], pictureParameterSets: [fakePPS]).codecConfiguration
        let track = Track(timescale: 30, codec: entry)
        #expect(throws: MuxingError.self) {
            try MovieLayout(brand: .mp4, track: track, sampleTable: SampleTable(timescale: 30))
        }
        #expect(throws: MuxingError.self) {
            try MovieLayout(brand: .mp4, track: makeTrack(width: 0), sampleTable: SampleTable(timescale: 30))
        }
        #expect(throws: MuxingError.self) {
            try MovieLayout(brand: .mp4, track: makeTrack(timescale: 25), sampleTable: SampleTable(timescale: 30))
        }
    }

    @Test func writesAnEmptyMovie() throws {
        let layout = try MovieLayout(brand: .mp4, track: makeTrack(), sampleTable: SampleTable(timescale: 30))
        let reader = try SampleTableReader(bytes: layout.header)
        #expect(reader.samples.isEmpty)
        #expect(reader.validate() == [])
    }
}

@Suite struct AlignedMovieLayoutTests {
    @Test(arguments: [4096, 512, 7])
    func aFreeBoxMakesTheHeaderAMultipleOfTheAlignment(alignment: Int) throws {
        let plain = try SyntheticMovie(count: 100)
        let layout = try MovieLayout(
            brand: .mp4, track: makeTrack(timescale: 15360), sampleTable: plain.table, alignment: alignment)
        #expect(layout.header.count % alignment == 0)
        #expect(layout.paddingSize >= 8)
        #expect(layout.header.count - layout.paddingSize == plain.layout.header.count)
        let file = layout.header + plain.file[plain.layout.header.count...]
        #expect(try BoxReader.parse(file).map(\.type) == ["ftyp", "moov", "free", "mdat"])
        let reader = try SampleTableReader(bytes: file)
        #expect(reader.validate() == [])
        #expect(reader.samples.map(\.size) == plain.samples.map(\.size))
        #expect(reader.samples.first?.offset == UInt64(layout.header.count))
    }
}
