import Foundation
import Testing

@testable import Flipbook

/// How many images the image-sequence jobs decode and convert ahead of the encoder.
@Suite struct ImagesDecodedAheadTests {
    @Test func theDefaultIsOneMoreThanTheCoresAndAtLeastThree() {
        let settings = VideoSettings(width: 64, height: 64)
        #expect(settings.decodeWorkers == 0)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(settings.imagesDecodedAhead == max(3, cores + 1), "\(cores) cores")
    }

    @Test(arguments: [1, 2, 7])
    func aNumberGivenIsKept(workers: Int) {
        var settings = VideoSettings(width: 64, height: 64)
        settings.decodeWorkers = workers
        #expect(settings.imagesDecodedAhead == workers)
    }
}
