import FlipbookTestSupport
import ISOBMFF
import MediaModel
import Testing

@testable import Matroska

/// A movie written by ``MatroskaSession`` reads back block for block; files cut short or corrupted
/// are read as far as they go or refused, never trapped on.
@Suite struct MatroskaFileTests {
    static let frames = 60
    static let timescale: UInt32 = 12000
    static let frameTicks: UInt32 = 400
    static let userType = Array("flipbook.segment".utf8)

    static func frame(_ index: Int) -> [UInt8] {
        (0..<(50 + index % 7)).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) }
    }

    static var track: Track {
        let entry = VideoSampleEntry(
            format: "avc1", width: 64, height: 48,
            configuration: CodecConfiguration(boxType: "avcC", payload: [1, 100, 0, 30, 0xFF, 0xE0, 0x00]),
            compressorName: "test")
        return Track(timescale: timescale, codec: entry)
    }

    /// The file's bytes after every action, and the bytes before `finish` (a writer killed then).
    static func written(durable: Bool = false) throws -> (finished: [UInt8], unfinished: [UInt8]) {
        var session = MatroskaSession(
            docType: .matroska, isDurable: durable, clusterSeconds: 0.5, frameDuration: 33_333_333,
            tags: MovieTags(
                creationTime: 3_061_152_000 + 60,
                items: [.init(name: "title", value: "T"), .init(name: "artist", value: "A")]))
        var bytes: [UInt8] = []
        func perform(_ actions: [WriteAction]) {
            for action in actions {
                switch action {
                case .append(let data): bytes += data
                case .overwrite(let data, let offset):
                    bytes.replaceSubrange(Int(offset)..<Int(offset) + data.count, with: data)
                case .syncData: break
                default: Issue.record("a Matroska session asked for \(action)")
                }
            }
        }
        for index in 0..<frames {
            let sample = MediaSample(data: frame(index), duration: frameTicks, isSync: index % 15 == 0)
            perform(try session.add(sample, track: 0, tracks: { [track] }))
        }
        let unfinished = bytes
        perform(
            try session.finish(
                tracks: [track], extensions: [MovieExtension(userType: userType, payload: Array("hello".utf8))]))
        return (bytes, unfinished)
    }

    @Test func aWrittenMovieReadsBackBlockForBlock() throws {
        let bytes = try Self.written().finished
        let file = try MatroskaFile(bytes: bytes)
        #expect(file.docType == "matroska")
        #expect(file.timestampScale == 100_000)
        #expect(file.duration == 20_000, "60 frames of 1/30 s in ticks of 100 µs")
        #expect(file.title == "T")
        #expect(file.dateUTC == 60_000_000_000)
        #expect(file.creationTime == 3_061_152_060)
        #expect(file.problems == [])
        #expect(file.hasCues && !file.cuesFirst && file.segmentSizeKnown)
        let video = try #require(file.videoTrack)
        #expect(video.codecID == "V_MPEG4/ISO/AVC")
        #expect(video.codecPrivate == [1, 100, 0, 30, 0xFF, 0xE0, 0x00])
        #expect(video.defaultDuration == 33_333_333)
        #expect((video.pixelWidth, video.pixelHeight) == (64, 48))
        #expect(file.blocks.count == Self.frames)
        for (index, block) in file.blocks.enumerated() {
            #expect(block.time == MatroskaClock.ticks(Int64(index) * 400, timescale: Self.timescale))
            #expect(block.isKeyframe == (index % 15 == 0))
            let start = Int(block.frameOffset)
            #expect(Array(bytes[start..<start + block.frameSize]) == Self.frame(index), "frame \(index)")
        }
        #expect(file.blocks.last?.duration == 333, "the last frame lasts until the movie's end")
        #expect(file.tags.map(\.name) == ["ARTIST"])
        #expect(file.extensionPayload(userType: Self.userType) == Array("hello".utf8))
        #expect(file.hasConstantFrameRate(video))
        #expect(MatroskaFile.longestKeyframeDistance(file.blocks) == 15)
    }

    @Test func aMovieWhoseWriterWasKilledReadsItsWholeClusters() throws {
        let (finished, unfinished) = try Self.written(durable: true)
        let file = try MatroskaFile(bytes: unfinished)
        #expect(!file.segmentSizeKnown)
        #expect(file.duration == nil)
        #expect(file.problems.contains { $0.contains("not finished") }, "\(file.problems)")
        let whole = try MatroskaFile(bytes: finished).blocks
        #expect(!file.blocks.isEmpty && file.blocks.count < whole.count)
        #expect(file.blocks == Array(whole.prefix(file.blocks.count)))
    }

    @Test func everyCutOfTheFileIsReadAsFarAsItGoesOrRefused() throws {
        let bytes = try Self.written().finished
        var read = 0
        for length in stride(from: 0, to: bytes.count, by: 13) {
            let cut = Array(bytes.prefix(length))
            do {
                let file = try MatroskaFile(bytes: cut)
                read += 1
                #expect(!file.problems.isEmpty, "a file cut at \(length) of \(bytes.count) bytes says so")
                for block in file.blocks {
                    #expect(Int(block.frameOffset) + block.frameSize <= length, "a block past the cut at \(length)")
                }
            } catch is MediaReadingError {
            }
        }
        #expect(read > 0, "cuts after the Tracks keep their whole clusters")
    }

    @Test func corruptedBytesAreReadOrRefusedNeverTrappedOn() throws {
        let bytes = try Self.written().finished
        var random = SplitMix64(state: 0x6D6B_7672)
        for _ in 0..<2000 {
            var corrupted = bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                corrupted[Int.random(in: 0..<corrupted.count, using: &random)] = UInt8.random(
                    in: 0...255, using: &random)
            }
            do {
                let file = try MatroskaFile(bytes: corrupted)
                for block in file.blocks {
                    #expect(Int(block.frameOffset) + block.frameSize <= corrupted.count)
                }
            } catch is MediaReadingError {
            }
        }
    }

    @Test func aClusterOfUnknownSizeEndsWhereTheNextStarts() throws {
        var w = EBMLWriter()
        w.master(.ebml) { $0.string(.docType, "webm") }
        w.unknownSizeHeader(.segment)
        w.master(.tracks) { w in
            w.master(.trackEntry) { w in
                w.unsigned(.trackNumber, 1)
                w.unsigned(.trackType, 1)
                w.string(.codecID, "V_AV1")
            }
        }
        w.unknownSizeHeader(.cluster)
        w.unsigned(.timestamp, 1000)
        w.binary(.simpleBlock, [0x81, 0x00, 0x05, 0x80, 0xAA])
        w.binary(.simpleBlock, [0x81, 0x00, 0x0A, 0x00, 0xBB, 0xCC])
        w.master(.cluster) { w in
            w.unsigned(.timestamp, 2000)
            w.binary(.simpleBlock, [0x81, 0xFF, 0xFF, 0x00, 0xDD])
        }
        let file = try MatroskaFile(bytes: w.bytes)
        #expect(file.docType == "webm")
        #expect(file.blocks.map(\.time) == [1005, 1010, 1999])
        #expect(file.blocks.map(\.isKeyframe) == [true, false, false])
        #expect(file.blocks.map(\.frameSize) == [1, 2, 1])
    }

    @Test func aFileThatIsNotMatroskaIsRefusedAsSuch() {
        for bytes: [UInt8] in [[], [0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70], [0x1A, 0x45, 0xDF]] {
            do {
                _ = try MatroskaFile(bytes: bytes)
                Issue.record("\(bytes) is no Matroska file")
            } catch let error as MediaReadingError {
                #expect(error.code == .otherFormat)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test(arguments: [
        (33_333_333 as UInt64, "30"), (33_366_667, "30000/1001"), (41_666_667, "24"), (80_000_000, "25/2"),
        (16_683_333, "60000/1001"),
    ])
    func frameRatesAreNamedFromTheDefaultDuration(nanoseconds: UInt64, rate: String) throws {
        let fraction = try #require(MatroskaFile.frameRate(nanoseconds: nanoseconds))
        #expect(
            (fraction.denominator == 1 ? "\(fraction.numerator)" : "\(fraction.numerator)/\(fraction.denominator)")
                == rate)
    }
}
