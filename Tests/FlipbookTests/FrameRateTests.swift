import Testing

@testable import Flipbook

@Suite struct FrameRateTests {
    @Test(arguments: [
        ("30", 30, 1), ("25", 25, 1), ("12.5", 25, 2), ("29.97", 30000, 1001), ("23.976", 24000, 1001),
        ("59.94", 60000, 1001), ("30000/1001", 30000, 1001), ("60/2", 30, 1), (" 24 ", 24, 1),
    ])
    func parsesTheUsualSpellings(text: String, numerator: Int, denominator: Int) {
        let rate = FrameRate(parsing: text)
        #expect(rate == FrameRate(numerator, denominator))
    }

    @Test(arguments: ["", "0", "-30", "fast", "30/0", "1/0", "0/1", "1e3", "2000", "1.2.3", "29.9700001"])
    func rejectsWhatIsNotARate(text: String) {
        #expect(FrameRate(parsing: text) == nil)
    }

    @Test func reducesToLowestTerms() {
        #expect(FrameRate(60000, 2002) == FrameRate.ntsc30)
        #expect(FrameRate(60, 2).description == "30")
        #expect(FrameRate.ntsc24.description == "24000/1001")
    }
}

@Suite struct MediaTimeTests {
    @Test func comparesAcrossTimeScalesExactly() {
        #expect(MediaTime(value: 1001, timescale: 30000) == MediaTime(value: 2002, timescale: 60000))
        #expect(MediaTime(value: 1, timescale: 30) == MediaTime(value: 1001, timescale: 30030))
        #expect(MediaTime(value: 1, timescale: 30) < MediaTime(value: 1001, timescale: 30000))
        #expect(MediaTime(value: Int64.max, timescale: 7) > MediaTime(value: Int64.max - 1, timescale: 7))
        #expect(
            MediaTime(value: Int64.max, timescale: Int32.max) < MediaTime(value: Int64.max, timescale: Int32.max - 1))
    }
}
