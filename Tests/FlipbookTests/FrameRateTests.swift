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
    @Test(arguments: [
        ("2", 2, 1), ("0.5", 5, 10), ("1.001", 1001, 1000), ("1/3", 1, 3), (".25", 25, 100), ("10.", 10, 1),
        ("0.000000001", 1, 1_000_000_000),
    ])
    func parsesSecondsExactly(text: String, value: Int64, timescale: Int32) {
        #expect(MediaTime(parsingSeconds: text) == MediaTime(value: value, timescale: timescale))
    }

    @Test(arguments: ["", ".", "-1", "1e3", "abc", "0.0000000001", "1/0", "2/-3", "1,5", "99999999999"])
    func refusesWhatIsNotSeconds(text: String) {
        #expect(MediaTime(parsingSeconds: text) == nil)
    }

    @Test func arithmeticIsExactInTheCommonTimeScale() {
        let ntscFrame = MediaTime(value: 1001, timescale: 30000)
        #expect(ntscFrame * 300 == MediaTime(value: 1001, timescale: 100))
        let sum = MediaTime(value: 1, timescale: 3) + MediaTime(value: 1, timescale: 2)
        #expect(sum.value == 5 && sum.timescale == 6)
        #expect(
            MediaTime(value: 1, timescale: 2) - MediaTime(value: 1, timescale: 3) == MediaTime(value: 1, timescale: 6))
        #expect(MediaTime(frame: 3000, at: FrameRate(30)) == MediaTime(value: 100, timescale: 1))
        #expect(FrameRate.ntsc24.frameDuration == MediaTime(value: 1001, timescale: 24000))
    }

    @Test func conversionIsExactOrSaysSo() {
        let time = MediaTime(value: 1001, timescale: 30000)
        #expect(time.exactly(inTimescale: 60000) == MediaTime(value: 2002, timescale: 60000))
        #expect(time.exactly(inTimescale: 12000) == nil)
        #expect(time.rounded(toTimescale: 1000)?.value == 33)
        #expect(
            MediaTime(value: 1, timescale: 2000).rounded(toTimescale: 1000)?.value == 1, "halfway rounds away from zero"
        )
        #expect(MediaTime(value: -1, timescale: 2000).rounded(toTimescale: 1000)?.value == -1)
        #expect(MediaTime(seconds: 0.0125, timescale: 1000)?.value == 13)
        #expect(MediaTime(seconds: .nan, timescale: 1000) == nil)
        #expect(MediaTime(seconds: 1e300, timescale: 1000) == nil)
    }

    @Test func valuesNearOverflowAreHandledWithoutTrapping() {
        let huge = MediaTime(value: Int64.max, timescale: 1)
        #expect(huge.exactly(inTimescale: 2) == nil, "Int64.max seconds in half seconds does not fit")
        #expect(huge.rounded(toTimescale: 1000) == nil)
        #expect(
            MediaTime(value: Int64.min, timescale: 1).exactly(inTimescale: 1)
                == MediaTime(value: Int64.min, timescale: 1))
        #expect(MediaTime(value: Int64.max, timescale: 1000).exactly(inTimescale: 1000)?.value == Int64.max)
        #expect(
            MediaTime(value: Int64.max - 1, timescale: Int32.max) < MediaTime(value: Int64.max, timescale: Int32.max))
        #expect(MediaTime(value: Int64.min, timescale: 1) < MediaTime(value: Int64.max, timescale: Int32.max))
        #expect(MediaTime(value: 6, timescale: 4).reduced == MediaTime(value: 3, timescale: 2))
        #expect(MediaTime(value: 6, timescale: 4).reduced.timescale == 2)
        #expect(Set([MediaTime(value: 1, timescale: 2), MediaTime(value: 2, timescale: 4)]).count == 1)
    }

    @Test func comparesAcrossTimeScalesExactly() {
        #expect(MediaTime(value: 1001, timescale: 30000) == MediaTime(value: 2002, timescale: 60000))
        #expect(MediaTime(value: 1, timescale: 30) == MediaTime(value: 1001, timescale: 30030))
        #expect(MediaTime(value: 1, timescale: 30) < MediaTime(value: 1001, timescale: 30000))
        #expect(MediaTime(value: Int64.max, timescale: 7) > MediaTime(value: Int64.max - 1, timescale: 7))
        #expect(
            MediaTime(value: Int64.max, timescale: Int32.max) < MediaTime(value: Int64.max, timescale: Int32.max - 1))
    }
}
