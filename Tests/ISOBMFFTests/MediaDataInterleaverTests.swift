import MediaModel
import Testing

@testable import ISOBMFF

@Suite struct MediaDataInterleaverTests {
    static func sample(bytes: Int, duration: UInt32) -> MediaSample {
        MediaSample(data: [UInt8](repeating: 0, count: bytes), duration: duration, isSync: true)
    }

    @Test func oneTrackKeepsDecodeOrderInChunksOfASecond() {
        var interleaver = MediaDataInterleaver(timescales: [30])
        var chunks: [MediaDataInterleaver.Chunk] = []
        for _ in 0..<75 { chunks += interleaver.add(Self.sample(bytes: 100, duration: 1), track: 0) }
        chunks += interleaver.finish()
        #expect(chunks.map(\.samples.count) == [30, 30, 15])
        #expect(chunks.map(\.startTime) == [0, 30, 60])
    }

    @Test func chunksOfTwoTracksComeInTimeOrderWhenFedInStep() {
        // Video at 30 fps (timescale 30), sound in samples of 1/10 s (timescale 10), fed in step.
        var interleaver = MediaDataInterleaver(timescales: [30, 10])
        var order: [(track: Int, start: Double)] = []
        func take(_ chunks: [MediaDataInterleaver.Chunk]) {
            order += chunks.map { ($0.track, Double($0.startTime) / ($0.track == 0 ? 30 : 10)) }
        }
        for _ in 0..<3 {
            for _ in 0..<10 {
                take(interleaver.add(Self.sample(bytes: 10, duration: 1), track: 1))
                for _ in 0..<3 { take(interleaver.add(Self.sample(bytes: 100, duration: 1), track: 0)) }
            }
        }
        take(interleaver.finish())
        #expect(order.map(\.track) == [0, 1, 0, 1, 0, 1])
        #expect(order.map(\.start) == [0, 0, 1, 1, 2, 2])
    }

    @Test func aTrackThatLagsHoldsBackLaterChunksOfTheOther() {
        var interleaver = MediaDataInterleaver(timescales: [10, 10])
        var handed: [MediaDataInterleaver.Chunk] = []
        // Track 0 runs two seconds ahead while track 1 has given nothing: only track 0's chunk at
        // time zero is due (track 1 can start no earlier, and goes second on a tie).
        for _ in 0..<25 { handed += interleaver.add(Self.sample(bytes: 1, duration: 1), track: 0) }
        #expect(handed.map(\.startTime) == [0])
        // Track 1's open chunk starts at zero and may still grow: track 0's later chunks wait.
        handed += interleaver.add(Self.sample(bytes: 1, duration: 15), track: 1)
        #expect(handed.count == 1)
        handed += interleaver.finish()
        #expect(handed.map(\.track) == [0, 1, 0, 0])
        #expect(handed.map(\.startTime) == [0, 0, 10, 20])
    }
}
