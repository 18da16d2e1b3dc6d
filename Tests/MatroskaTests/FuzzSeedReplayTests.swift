import FlipbookTestSupport
import Testing

@testable import Matroska

/// Every kept input of `FuzzMatroska`, replayed through its entry point on every `make test`: a
/// crash found once stays found.
@Suite struct FuzzSeedReplayTests {
    @Test func everyKeptMatroskaInputIsReadOrRefusedWithoutACrash() throws {
        let seeds = try FuzzSeeds.files("matroska")
        #expect(seeds.count >= 2, "fuzz/seeds/matroska holds its seeds")
        for seed in seeds { MatroskaReadingFuzzEntry.read(seed.bytes) }
    }
}
