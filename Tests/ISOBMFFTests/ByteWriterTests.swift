import Testing

@testable import ISOBMFF

@Suite struct ByteWriterTests {
    @Test func writesIntegersBigEndian() {
        var w = ByteWriter()
        w.putUInt8(0x01)
        w.putUInt16(0x0203)
        w.putUInt32(0x0405_0607)
        w.putUInt64(0x0809_0A0B_0C0D_0E0F)
        w.putInt16(-2)
        w.putInt32(-1)
        w.putFourCC("moov")
        #expect(
            w.bytes
                == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF]
                + ascii("moov"))
    }

    @Test func boxPatchesItsSizeAfterTheBody() {
        var w = ByteWriter()
        w.box("moov") { w in
            w.box("free") { w in w.putBytes([1, 2, 3]) }
        }
        #expect(w.bytes == [0, 0, 0, 19] + ascii("moov") + [0, 0, 0, 11] + ascii("free") + [1, 2, 3])
    }

    @Test func fullBoxWritesVersionAndFlags() {
        var w = ByteWriter()
        w.fullBox("url ", version: 1, flags: 0x0102_0304) { _ in }
        #expect(w.bytes == [0, 0, 0, 12] + ascii("url ") + [1, 2, 3, 4])
    }

    @Test func emptyBoxIsEightBytes() {
        var w = ByteWriter()
        w.box("free") { _ in }
        #expect(w.bytes == [0, 0, 0, 8] + ascii("free"))
    }

    @Test func boxHeaderUsesCompactSizeUpToTheLimit() {
        var w = ByteWriter()
        w.boxHeader("mdat", payloadSize: UInt64(UInt32.max) - 8)
        #expect(w.bytes == [0xFF, 0xFF, 0xFF, 0xFF] + ascii("mdat"))
    }

    @Test func boxHeaderUsesLargeSizePastTheLimit() {
        var w = ByteWriter()
        w.boxHeader("mdat", payloadSize: UInt64(UInt32.max) - 7)
        // size 1, type, largesize = payload + 16 = 0x1_0000_0008
        #expect(w.bytes == [0, 0, 0, 1] + ascii("mdat") + [0, 0, 0, 1, 0, 0, 0, 8])
    }

    @Test func fourCCRoundTripsThroughText() {
        let code: FourCC = "avcC"
        #expect(code.rawValue == 0x6176_6343)
        #expect(code.description == "avcC")
        #expect(FourCC(rawValue: 0x0000_0000).description == "....")
    }
}
