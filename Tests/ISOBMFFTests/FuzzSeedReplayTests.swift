import FlipbookTestSupport
import Testing

@testable import ISOBMFF

/// Every kept input of `FuzzMP4`, replayed through its entry point on every `make test`: a crash
/// found once stays found.
@Suite struct FuzzSeedReplayTests {
    @Test func everyKeptMovieInputIsReadOrRefusedWithoutACrash() throws {
        let seeds = try FuzzSeeds.files("mp4")
        #expect(seeds.count >= 3, "fuzz/seeds/mp4 holds its seeds")
        for seed in seeds { MovieReadingFuzzEntry.read(seed.bytes) }
    }
}
