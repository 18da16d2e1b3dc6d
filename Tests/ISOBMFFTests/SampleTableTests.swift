import Testing

@testable import ISOBMFF

@Suite struct SampleTableTests {
    @Test func accumulatesDurationAndPayloadSize() {
        var table = SampleTable(timescale: 30)
        table.append(Sample(size: 10, duration: 1, isSync: true))
        table.append(Sample(size: 20, duration: 2, isSync: false))
        #expect(table.sampleCount == 2)
        #expect(table.mediaDuration == 3)
        #expect(table.payloadSize == 30)
        #expect(table.sizes == [10, 20])
    }

    @Test func runLengthEncodesDurations() {
        var table = SampleTable(timescale: 30)
        for duration: UInt32 in [1, 1, 1, 2, 2, 1] { table.append(Sample(size: 1, duration: duration, isSync: true)) }
        #expect(
            table.timeToSampleBox.entries == [
                .init(sampleCount: 3, sampleDelta: 1), .init(sampleCount: 2, sampleDelta: 2),
                .init(sampleCount: 1, sampleDelta: 1),
            ])
    }

    @Test func omitsCttsWhenEveryOffsetIsZero() {
        var table = SampleTable(timescale: 30)
        for _ in 0..<5 { table.append(Sample(size: 1, duration: 1, isSync: true)) }
        #expect(table.compositionOffsetBox == nil)
    }

    @Test func writesCttsRunsWhenAnOffsetIsNonZero() {
        var table = SampleTable(timescale: 30)
        for offset: UInt32 in [2, 0, 0, 2] {
            table.append(Sample(size: 1, duration: 1, compositionOffset: offset, isSync: true))
        }
        #expect(
            table.compositionOffsetBox?.entries == [
                .init(sampleCount: 1, sampleOffset: 2), .init(sampleCount: 2, sampleOffset: 0),
                .init(sampleCount: 1, sampleOffset: 2),
            ])
    }

    @Test func omitsStssOnlyWhenEverySampleIsSync() {
        var allSync = SampleTable(timescale: 30)
        var someSync = SampleTable(timescale: 30)
        for i in 0..<25 {
            allSync.append(Sample(size: 1, duration: 1, isSync: true))
            someSync.append(Sample(size: 1, duration: 1, isSync: i % 10 == 0))
        }
        #expect(allSync.syncSampleBox == nil)
        #expect(someSync.syncSampleBox?.sampleNumbers == [1, 11, 21])
    }

    @Test func startsAChunkEverySecondOfMedia() {
        let table = chunkedTable(
            Array(repeating: Sample(size: 100, duration: 1, isSync: true), count: 75), timescale: 30)
        #expect(table.chunkOffsets == [0, 3000, 6000])
        #expect(
            table.sampleToChunkBox.entries == [
                .init(firstChunk: 1, samplesPerChunk: 30), .init(firstChunk: 3, samplesPerChunk: 15),
            ])
    }

    @Test func startsAChunkBeforeItWouldPassTheSizeLimit() {
        let table = chunkedTable(
            Array(repeating: Sample(size: 100, duration: 1, isSync: true), count: 5), timescale: 30,
            maximumChunkSize: 250)
        #expect(table.chunkOffsets == [0, 200, 400])
        #expect(
            table.sampleToChunkBox.entries == [
                .init(firstChunk: 1, samplesPerChunk: 2), .init(firstChunk: 3, samplesPerChunk: 1),
            ])
    }

    @Test func aSampleLargerThanTheLimitGetsAChunkOfItsOwn() {
        let table = chunkedTable(
            Array(repeating: Sample(size: 100, duration: 1, isSync: true), count: 3), timescale: 30,
            maximumChunkSize: 50)
        #expect(table.chunkOffsets == [0, 100, 200])
        #expect(table.sampleToChunkBox.entries == [.init(firstChunk: 1, samplesPerChunk: 1)])
    }

    @Test func anEmptyTableHasNoChunks() {
        let table = SampleTable(timescale: 30)
        #expect(table.chunkCount == 0)
        #expect(table.sampleToChunkBox.entries.isEmpty)
        #expect(table.sampleSizeBox == SampleSizeBox(sizes: []))
    }
}
