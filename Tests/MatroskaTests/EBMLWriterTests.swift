import Testing

@testable import Matroska

/// The variable-length sizes and element bytes the writer makes, byte for byte.
@Suite struct EBMLWriterTests {
    @Test func sizesTakeTheFewestBytesAndAvoidTheAllOnesValue() {
        #expect(EBMLWriter.sizeLength(0) == 1)
        #expect(EBMLWriter.sizeLength(126) == 1)
        #expect(EBMLWriter.sizeLength(127) == 2, "0x7F in one byte would read as an unknown size")
        #expect(EBMLWriter.sizeBytes(5, width: 1) == [0x85])
        #expect(EBMLWriter.sizeBytes(5, width: 2) == [0x40, 0x05])
    }

    @Test func anUnsignedElementIsIDThenSizeThenBigEndianValue() {
        var writer = EBMLWriter()
        writer.unsigned(.timestampScale, 100_000)
        #expect(writer.bytes == [0x2A, 0xD7, 0xB1, 0x83, 0x01, 0x86, 0xA0])
    }
}
