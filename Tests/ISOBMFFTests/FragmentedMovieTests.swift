import MediaModel
import Testing

@testable import ISOBMFF

/// A synthetic fragmented movie whose sample payloads are identifiable, as ``SyntheticMovie``'s are.
struct SyntheticFragmentedMovie {
    var samples: [Sample]
    var header: FragmentedMovieHeader
    var file: [UInt8]
    /// The file length after each complete fragment.
    var fragmentEnds: [Int] = []

    init(count: Int = 95, samplesPerFragment: Int = 10, editList: [EditListEntry] = [], finish: Bool = true) throws {
        let offsets: [UInt32] = [1024, 0, 512]
        samples = (0..<count).map { i in
            Sample(
                size: UInt32(100 + (i * 37) % 900), duration: i % 7 == 6 ? 1024 : 512,
                compositionOffset: offsets[i % 3], isSync: i % samplesPerFragment == 0)
        }
        header = try FragmentedMovieHeader(brand: .mp4, track: makeTrack(timescale: 15360), editList: editList)
        file = header.bytes
        var time: UInt64 = 0
        var entries: [TrackFragmentRandomAccessBox.Entry] = []
        for (number, start) in stride(from: 0, to: count, by: samplesPerFragment).enumerated() {
            let run = Array(samples[start..<min(count, start + samplesPerFragment)])
            let fragment = MovieFragment(sequenceNumber: UInt32(number + 1), baseMediaDecodeTime: time, samples: run)
            entries.append(fragment.randomAccessEntry(moofOffset: UInt64(file.count)))
            file += fragment.header
            for (offset, sample) in run.enumerated() {
                let i = start + offset
                file += withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) }
                file += Array(repeating: UInt8(i & 0xFF), count: Int(sample.size) - 4)
            }
            time += run.reduce(0) { $0 + UInt64($1.duration) }
            fragmentEnds.append(file.count)
        }
        // An unfinished movie stops after its last fragment, as a crash leaves it.
        if finish {
            var w = ByteWriter()
            MovieFragmentRandomAccessBox(tracks: [TrackFragmentRandomAccessBox(entries: entries)]).write(to: &w)
            file += w.bytes
            let final = try #require(
                header.finalized(
                    duration: time,
                    editList: editList.map {
                        EditListEntry(segmentDuration: time - UInt64($0.mediaTime), mediaTime: $0.mediaTime)
                    }))
            file.replaceSubrange(0..<final.bytes.count, with: final.bytes)
        }
    }
}

@Suite struct FragmentedMovieTests {
    @Test func roundTripsEverySampleThroughItsFragment() throws {
        let movie = try SyntheticFragmentedMovie()
        let reader = try FragmentedMovieReader(bytes: movie.file)
        #expect(reader.validate() == [])
        #expect(reader.fragments.map(\.sequenceNumber) == Array(1...10))
        try #require(reader.samples.count == movie.samples.count)
        var decodeTime: UInt64 = 0
        for (i, (read, written)) in zip(reader.samples, movie.samples).enumerated() {
            #expect(read.size == written.size, "sample \(i)")
            #expect(read.decodeTime == decodeTime, "sample \(i)")
            #expect(read.compositionOffset == Int64(written.compositionOffset), "sample \(i)")
            #expect(read.isSync == written.isSync, "sample \(i)")
            let at = Int(read.offset)
            #expect(Array(movie.file[at..<at + 4]) == withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) })
            #expect(movie.file[at + 4..<at + Int(read.size)].allSatisfy { $0 == UInt8(i & 0xFF) }, "sample \(i)")
            decodeTime += UInt64(written.duration)
        }
        #expect(reader.randomAccess?.count == 10)
        #expect(reader.randomAccess?.first?.time == 1024, "presentation time of the first sync sample")
    }

    @Test func startsWithFtypAndMoovWithMvexAndEmptyTables() throws {
        let movie = try SyntheticFragmentedMovie(editList: [EditListEntry(segmentDuration: 0, mediaTime: 1024)])
        let boxes = try BoxReader.parse(movie.file)
        #expect(boxes.prefix(4).map(\.type) == ["ftyp", "moov", "moof", "mdat"])
        #expect(boxes.last?.type == "mfra")
        let moov = try #require(boxes.first("moov"))
        #expect(moov.child("mvex")?.children.map(\.type) == ["mehd", "trex"])
        let stbl = try #require(moov.descendant(["trak", "mdia", "minf", "stbl"]))
        #expect(stbl.children.map(\.type) == ["stsd", "stts", "stsc", "stsz", "stco"])
        let tables = try SampleTableReader(bytes: movie.file)
        #expect(tables.samples.isEmpty)
        let dump = BoxDump.render(boxes, in: movie.file)
        let total = movie.samples.reduce(0) { $0 + UInt64($1.duration) }
        #expect(dump.contains("mehd size=20 duration=\(total)"), "the final duration is patched in: \(dump)")
        #expect(dump.contains("elst size=28 version=0 entries=1 [\(total - 1024)@1024]"))
        #expect(dump.contains("trun size=\(12 + 8 + 16 * 10) samples=10 sync=1"))
        #expect(dump.contains("tfra size=\(8 + 16 + 19 * 10) track=1 entries=10"))
    }

    @Test func finalizedHeaderHasTheSameSizeUnlessADurationOutgrows32Bits() throws {
        let header = try FragmentedMovieHeader(
            brand: .quickTime, track: makeTrack(), editList: [EditListEntry(segmentDuration: 0, mediaTime: 2)])
        let final = try #require(
            header.finalized(duration: 3000, editList: [EditListEntry(segmentDuration: 2998, mediaTime: 2)]))
        #expect(final.bytes.count == header.bytes.count)
        #expect(final.duration == 3000)
        #expect(
            header.finalized(duration: 1 << 33, editList: [EditListEntry(segmentDuration: 1 << 33, mediaTime: 2)])
                == nil)
    }

    /// A recording killed at any byte keeps exactly the fragments that were complete.
    @Test(arguments: [0, 1, 500, 3000, 7000, 20000, 45000])
    func aTruncatedFileKeepsEveryCompleteFragment(cut: Int) throws {
        let movie = try SyntheticFragmentedMovie(finish: false)
        let length = min(cut, movie.file.count)
        let reader = try FragmentedMovieReader(bytes: Array(movie.file[..<length]))
        let complete = movie.fragmentEnds.filter { $0 <= length }.count
        #expect(reader.fragments.count == complete)
        #expect(reader.validate() == [])
        #expect(reader.samples.count == min(movie.samples.count, complete * 10))
    }

    @Test func aLargeFragmentUsesA64BitMdatHeaderAndAStillSmallDataOffset() {
        let samples = (0..<3).map { _ in Sample(size: UInt32.max - 10, duration: 1, isSync: true) }
        let fragment = MovieFragment(sequenceNumber: 1, baseMediaDecodeTime: 0, samples: samples)
        #expect(fragment.payloadSize > UInt64(UInt32.max))
        let mdatHeader = fragment.header.suffix(16)
        #expect(Array(mdatHeader.prefix(8)) == bytes([0, 0, 0, 1], ascii("mdat")))
        let moofSize = fragment.header.count - 16
        let reader = try? BoxReader.parse(Array(fragment.header.prefix(moofSize)))
        let trun = reader?.first?.descendant(["traf", "trun"])
        let run = trun.flatMap { try? TrackRunBox(reading: $0, in: Array(fragment.header.prefix(moofSize))) }
        #expect(run?.dataOffset == Int32(fragment.header.count))
    }
}
