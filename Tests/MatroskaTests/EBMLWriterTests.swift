import Testing

@testable import Matroska

/// EBML's numbers as RFC 8794 spells them: IDs as written, sizes as variable-length integers with
/// the all-ones value reserved, integers in as few bytes as hold them.
@Suite struct EBMLWriterTests {
    @Test func sizesTakeTheFewestBytesAndNeverAllOnes() {
        #expect(EBMLWriter.sizeBytes(0, width: 1) == [0x80])
        #expect(EBMLWriter.sizeLength(126) == 1)
        // 127 in one byte would be all ones (unknown size): it takes two.
        #expect(EBMLWriter.sizeLength(127) == 2)
        #expect(EBMLWriter.sizeBytes(127, width: 2) == [0x40, 0x7F])
        #expect(EBMLWriter.sizeLength(16382) == 2 && EBMLWriter.sizeLength(16383) == 3)
        #expect(EBMLWriter.sizeBytes(5, width: 8) == [0x01, 0, 0, 0, 0, 0, 0, 5])
    }

    @Test func elementsAreIDSizeAndData() {
        var writer = EBMLWriter()
        writer.unsigned(.timestampScale, 100_000)
        #expect(writer.bytes == [0x2A, 0xD7, 0xB1, 0x83, 0x01, 0x86, 0xA0])
        writer = EBMLWriter()
        writer.unsigned(.trackNumber, 0)
        #expect(writer.bytes == [0xD7, 0x81, 0x00])
        writer = EBMLWriter()
        writer.unsigned(.seekPosition, 1, width: 8)
        #expect(writer.bytes == [0x53, 0xAC, 0x88, 0, 0, 0, 0, 0, 0, 0, 1])
        writer = EBMLWriter()
        writer.string(.codecID, "V_AV1")
        #expect(writer.bytes == [0x86, 0x85] + Array("V_AV1".utf8))
        writer = EBMLWriter()
        writer.master(.seek) { w in w.binary(.seekID, EBMLID.info.bytes) }
        #expect(writer.bytes == [0x4D, 0xBB, 0x87, 0x53, 0xAB, 0x84, 0x15, 0x49, 0xA9, 0x66])
    }

    static let signedCases: [(Int64, [UInt8])] = [
        (0, [0x00]), (-1, [0xFF]), (127, [0x7F]), (128, [0x00, 0x80]), (-129, [0xFF, 0x7F]),
    ]

    @Test(arguments: signedCases)
    func signedIntegersAreTwosComplementInTheFewestBytes(value: Int64, expected: [UInt8]) {
        var writer = EBMLWriter()
        writer.signed(.referenceBlock, value)
        #expect(writer.bytes == [0xFB, 0x80 | UInt8(expected.count)] + expected)
    }

    @Test func floatsAreEightByteIEEE() {
        var writer = EBMLWriter()
        writer.float(.duration, 15000)
        #expect(
            writer.bytes == [0x44, 0x89, 0x88]
                + (0..<8).reversed().map { UInt8(truncatingIfNeeded: 15000.0.bitPattern >> (8 * UInt64($0))) })
    }

    @Test(arguments: [2, 11, 128, 129, 200])
    func voidsTakeExactlyTheSpaceKept(length: Int) {
        var writer = EBMLWriter()
        writer.void(length: length)
        #expect(writer.count == length)
        #expect(writer.bytes[0] == 0xEC)
    }

    @Test func anUnknownSizeIsAllOnes() {
        var writer = EBMLWriter()
        writer.unknownSizeHeader(.segment)
        #expect(writer.bytes == [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    }
}
