import Testing

@testable import Flipbook

@Suite struct NaturalOrderTests {
    @Test func numbersCompareByValue() {
        let names = ["f10.png", "f2.png", "f1.png", "f100.png", "f11.png", "f9.png"]
        #expect(
            names.sorted(by: NaturalOrder.precedes) == ["f1.png", "f2.png", "f9.png", "f10.png", "f11.png", "f100.png"])
    }

    @Test func paddedAndUnpaddedNamesInterleaveByValue() {
        let names = ["x010", "x9", "x0011", "x08"]
        #expect(names.sorted(by: NaturalOrder.precedes) == ["x08", "x9", "x010", "x0011"])
    }

    @Test func textBeforeNumbersAndPrefixesFirst() {
        #expect(NaturalOrder.precedes("a", "a1"))
        #expect(NaturalOrder.precedes("shot2/f9", "shot10/f1"))
        #expect(!NaturalOrder.precedes("f1", "f1"))
        #expect(NaturalOrder.precedes("f1", "f01") != NaturalOrder.precedes("f01", "f1"))
    }

    @Test func hugeDigitRunsDoNotOverflow() {
        let big = "f" + String(repeating: "9", count: 40)
        #expect(NaturalOrder.precedes("f1", big))
        #expect(!NaturalOrder.precedes(big, "f1"))
    }
}
