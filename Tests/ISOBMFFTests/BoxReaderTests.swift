import FlipbookTestSupport
import Foundation
import MediaModel
import Testing

@testable import ISOBMFF

@Suite struct BoxReaderTests {
    /// Runs every reading entry point; the test passes as long as none of them traps.
    static func exerciseReaders(_ bytes: [UInt8], fileSize: Int? = nil) {
        if let boxes = try? BoxReader.parse(bytes, fileSize: fileSize) {
            _ = BoxDump.render(boxes, in: bytes)
        }
        if let reader = try? SampleTableReader(bytes: bytes, fileSize: fileSize) {
            _ = reader.validate()
        }
    }

    static func header(size: UInt32, type: String) -> [UInt8] {
        withUnsafeBytes(of: size.bigEndian) { Array($0) } + ascii(type)
    }

    @Test func readsNestedBoxesWithOffsetsAndSizes() throws {
        let file = try SyntheticMovie(count: 5).file
        let boxes = try BoxReader.parse(file)
        let moov = try #require(boxes.first("moov"))
        #expect(moov.offset == 32)
        #expect(moov.headerSize == 8)
        let stsd = try #require(moov.descendant(["trak", "mdia", "minf", "stbl", "stsd"]))
        #expect(stsd.children.map(\.type) == ["avc1"])
        #expect(moov.descendant(["trak", "mdia", "minf", "dinf", "dref"])?.children.map(\.type) == ["url "])
    }

    @Test func sizeZeroExtendsToTheEndOfTheFile() throws {
        let bytes =
            Self.header(size: 16, type: "free") + [UInt8](repeating: 0, count: 8) + Self.header(size: 0, type: "mdat")
            + [1, 2, 3]
        let boxes = try BoxReader.parse(bytes)
        #expect(boxes.map(\.type) == ["free", "mdat"])
        #expect(boxes[1].size == 11)
        #expect(boxes[1].payloadRange == 24..<27)
    }

    @Test func sizeOneReadsALargeSize() throws {
        let bytes = Self.header(size: 1, type: "free") + [0, 0, 0, 0, 0, 0, 0, 20] + [1, 2, 3, 4]
        let box = try #require(try BoxReader.parse(bytes).first)
        #expect(box.size == 20)
        #expect(box.headerSize == 16)
    }

    @Test func rejectsASizeThatOverrunsTheFile() {
        let bytes = Self.header(size: 0xFFFF_FFFF, type: "moov") + [0, 0, 0, 0]
        #expect {
            try BoxReader.parse(bytes)
        } throws: { error in
            let error = error as? MediaReadingError
            return error?.code == .invalidSize && error?.place == "'moov' box" && error?.offset == 0
        }
    }

    @Test func rejectsAHugeLargeSize() {
        let bytes = Self.header(size: 1, type: "mdat") + [UInt8](repeating: 0xFF, count: 8) + [0, 0]
        #expect(throws: MediaReadingError.self) { try BoxReader.parse(bytes) }
        #expect(throws: MediaReadingError.self) { try BoxReader.parse(bytes, fileSize: Int.max) }
    }

    @Test func rejectsASizeSmallerThanTheHeader() {
        #expect(throws: MediaReadingError.self) { try BoxReader.parse(Self.header(size: 4, type: "free")) }
        let largeTooSmall = Self.header(size: 1, type: "free") + [0, 0, 0, 0, 0, 0, 0, 8]
        #expect(throws: MediaReadingError.self) { try BoxReader.parse(largeTooSmall) }
    }

    @Test func rejectsAChildThatOverrunsItsParent() {
        let bytes = Self.header(size: 16, type: "moov") + Self.header(size: 12, type: "trak")
        #expect(throws: MediaReadingError.self) { try BoxReader.parse(bytes) }
    }

    @Test func rejectsDeepNesting() {
        let depth = 10_000
        var bytes: [UInt8] = []
        for level in 0..<depth { bytes += Self.header(size: UInt32(8 * (depth - level)), type: "moov") }
        #expect {
            try BoxReader.parse(bytes)
        } throws: { error in
            (error as? MediaReadingError)?.code == .nestingTooDeep
        }
    }

    @Test func acceptsAHeaderOnlyPrefixWhenTheFileSizeIsGiven() throws {
        let movie = try SyntheticMovie(count: 20)
        let header = movie.layout.header
        #expect(throws: MediaReadingError.self) { try BoxReader.parse(header) }
        let boxes = try BoxReader.parse(header, fileSize: movie.file.count)
        #expect(boxes.last?.end == movie.file.count)
        let reader = try SampleTableReader(bytes: header, fileSize: movie.file.count)
        #expect(reader.validate() == [])
    }

    @Test func neverTrapsOnAnyPrefixOfAMovie() throws {
        let file = try SyntheticMovie(count: 12).file
        for length in 0...file.count {
            Self.exerciseReaders(Array(file.prefix(length)))
            Self.exerciseReaders(Array(file.prefix(length)), fileSize: file.count)
        }
    }

    @Test func neverTrapsOnRandomByteFlips() throws {
        let file = try SyntheticMovie(count: 12).file
        let headerCount = try SyntheticMovie(count: 12).layout.header.count
        var random = SplitMix64(state: 0x5EED)
        for _ in 0..<3000 {
            var damaged = file
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                // Mostly hit the header, where the structure is.
                let index = Int.random(in: 0..<headerCount, using: &random)
                damaged[index] = UInt8.random(in: 0...255, using: &random)
            }
            Self.exerciseReaders(damaged)
        }
    }

    @Test func neverTrapsOnRandomBytes() {
        var random = SplitMix64(state: 42)
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<200, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            Self.exerciseReaders(bytes)
        }
    }

    @Test func rejectsEntryCountsLargerThanTheBox() {
        var w = ByteWriter()
        w.fullBox("stsz", version: 0, flags: 0) { w in
            w.putUInt32(0)
            w.putUInt32(0xFFFF_FFFF)
        }
        let box = Box(type: "stsz", offset: 0, size: w.count, headerSize: 8)
        #expect(throws: MediaReadingError.self) { try SampleSizeBox(reading: box, in: w.bytes) }
    }
}

@Suite struct SampleTableReaderTests {
    /// Replaces the first occurrence of `type`'s box payload bytes at `payloadIndex` with `value`.
    static func patch(_ bytes: inout [UInt8], box type: String, payloadIndex: Int, value: UInt32) throws {
        let boxes = try BoxReader.parse(bytes)
        func find(_ boxes: [Box]) -> Box? {
            for box in boxes {
                if box.type == type { return box }
                if let found = find(box.children) { return found }
            }
            return nil
        }
        let box = try #require(find(boxes))
        let at = box.payloadRange.lowerBound + payloadIndex
        for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * k)) }
    }

    @Test func reportsSampleCountsThatDisagree() throws {
        var file = try SyntheticMovie(count: 10).file
        // stts: version/flags, entry_count, then the first entry's sample_count.
        try Self.patch(&file, box: "stts", payloadIndex: 8, value: 1000)
        let problems = try SampleTableReader(bytes: file).validate()
        #expect(problems.contains { $0.hasPrefix("stts counts") }, "\(problems)")
    }

    @Test func reportsOffsetsOutsideTheMediaData() throws {
        var file = try SyntheticMovie(count: 10).file
        try Self.patch(&file, box: "stco", payloadIndex: 8, value: 0xFFFF_0000)
        let problems = try SampleTableReader(bytes: file).validate()
        #expect(problems.contains { $0.contains("ends past the file") }, "\(problems)")
    }

    @Test func reportsChunksThatDoNotHoldEverySample() throws {
        var file = try SyntheticMovie(count: 10).file
        // stsc: version/flags, entry_count, first_chunk, then samples_per_chunk.
        try Self.patch(&file, box: "stsc", payloadIndex: 12, value: 3)
        let problems = try SampleTableReader(bytes: file).validate()
        #expect(problems.contains { $0.contains("chunks hold") }, "\(problems)")
    }

    @Test func rejectsAHostileConstantSampleCount() throws {
        var file = try SyntheticMovie(count: 10).file
        try Self.patch(&file, box: "stsz", payloadIndex: 4, value: 7)  // constant size
        try Self.patch(&file, box: "stsz", payloadIndex: 8, value: 0xFFFF_FFFF)  // sample_count
        #expect(throws: MediaReadingError.self) { try SampleTableReader(bytes: file) }
    }

    @Test func requiresAVideoTrack() {
        #expect {
            try SampleTableReader(bytes: BoxReaderTests.header(size: 8, type: "moov"))
        } throws: { error in
            (error as? MediaReadingError)?.code == .missing
        }
    }
}

/// Counts in a hostile file cost no more memory than the file itself.
@Suite struct HostileCountTests {
    @Test func sttsEntriesClaimingBillionsOfSamplesAreInspectedQuickly() throws {
        // 700 samples whose durations alternate make 200 stts entries; each then claims 2^31 samples.
        var file = try SyntheticMovie(count: 700).file
        let stts = try #require(
            try BoxReader.parse(file).first("moov")?.descendant(["trak", "mdia", "minf", "stbl", "stts"]))
        let entries =
            Int(file[stts.payloadRange.lowerBound + 7])
            | Int(file[stts.payloadRange.lowerBound + 6]) << 8
        #expect(entries == 200)
        for entry in 0..<entries {
            let at = stts.payloadRange.lowerBound + 8 + entry * 8
            file.replaceSubrange(at..<at + 4, with: [0x7F, 0xFF, 0xFF, 0xFF])
        }
        let started = Date()
        let inspection = try MovieInspection.inspect(MovieFileBytes(fileBytes: file))
        #expect(Date().timeIntervalSince(started) < TimeBudget.seconds(1))
        #expect(inspection.frames == 700)
        #expect(!inspection.problems.isEmpty)
    }

    @Test func moreSamplesThanBytesIsRefused() throws {
        var file = try SyntheticMovie(count: 10).file
        let stsz = try #require(
            try BoxReader.parse(file).first("moov")?.descendant(["trak", "mdia", "minf", "stbl", "stsz"]))
        // sample_size (constant, so no table) then sample_count: a million samples of 1 byte.
        file.replaceSubrange(
            stsz.payloadRange.lowerBound + 4..<stsz.payloadRange.lowerBound + 12,
            with: [0, 0, 0, 1, 0, 0x0F, 0x42, 0x40])
        #expect(throws: MediaReadingError.self) { try SampleTableReader(bytes: file) }
    }
}

/// The fuzz seeds, and inputs the fuzzer once found trouble with, read as `fuzz/targets/FuzzMP4` reads them.
@Suite struct FuzzRegressionTests {
    @Test func everyMP4SeedIsReadQuicklyWithoutTrapping() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../fuzz/seeds/mp4").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.contains { $0.hasPrefix("regression-") })
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let started = Date()
            if let boxes = try? BoxReader.parse(bytes) { _ = BoxDump.render(boxes, in: bytes) }
            if let table = try? SampleTableReader(bytes: bytes, maximumSampleCount: 1 << 16) { _ = table.validate() }
            if let fragments = try? FragmentedMovieReader(bytes: bytes) { _ = fragments.validate() }
            if let file = try? MovieFileBytes(fileBytes: bytes, limit: 1 << 24) {
                _ = try? MovieInspection.inspect(file)
            }
            #expect(Date().timeIntervalSince(started) < TimeBudget.seconds(1), "\(name)")
        }
    }
}
