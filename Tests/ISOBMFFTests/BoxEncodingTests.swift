import MediaModel
import Testing

@testable import ISOBMFF

/// Small boxes compared byte for byte with layouts derived by hand from ISO/IEC 14496-12 and -15.
@Suite struct BoxEncodingTests {
    @Test func ftypForMP4ListsIsomIso2Avc1Mp41() {
        let bytes = written { FileTypeBox(brand: .mp4).write(to: &$0) }
        #expect(bytes == [0, 0, 0, 32] + ascii("ftypisom") + [0, 0, 2, 0] + ascii("isomiso2avc1mp41"))
    }

    @Test func ftypForQuickTimeIsQt() {
        let bytes = written { FileTypeBox(brand: .quickTime).write(to: &$0) }
        #expect(bytes == [0, 0, 0, 20] + ascii("ftypqt  ") + [0x20, 0x05, 0x03, 0x00] + ascii("qt  "))
    }

    @Test func ftypForM4V() {
        let bytes = written { FileTypeBox(brand: .m4v).write(to: &$0) }
        #expect(bytes == [0, 0, 0, 32] + ascii("ftypM4V ") + [0, 0, 2, 0] + ascii("M4V M4A mp42isom"))
    }

    @Test func sttsWritesTwoRuns() {
        let box = TimeToSampleBox(entries: [
            .init(sampleCount: 3, sampleDelta: 512), .init(sampleCount: 1, sampleDelta: 1024),
        ])
        let bytes = written { box.write(to: &$0) }
        #expect(
            bytes == [0, 0, 0, 32] + ascii("stts") + [0, 0, 0, 0] + [0, 0, 0, 2]
                + [0, 0, 0, 3, 0, 0, 2, 0] + [0, 0, 0, 1, 0, 0, 4, 0])
    }

    @Test func stszUsesConstantSizeWhenAllSamplesAreEqual() {
        let bytes = written { SampleSizeBox(sizes: [100, 100, 100]).write(to: &$0) }
        #expect(bytes == [0, 0, 0, 20] + ascii("stsz") + [0, 0, 0, 0] + [0, 0, 0, 100] + [0, 0, 0, 3])
    }

    @Test func stszListsSizesWhenTheyDiffer() {
        let bytes = written { SampleSizeBox(sizes: [100, 200]).write(to: &$0) }
        #expect(
            bytes == [0, 0, 0, 28] + ascii("stsz") + [0, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 2] + [0, 0, 0, 100]
                + [0, 0, 0, 200])
    }

    @Test func stscAndStcoAndCo64() {
        let stsc = written { SampleToChunkBox(entries: [.init(firstChunk: 1, samplesPerChunk: 30)]).write(to: &$0) }
        #expect(
            stsc == [0, 0, 0, 28] + ascii("stsc") + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 1, 0, 0, 0, 30, 0, 0, 0, 1])
        let stco = written { ChunkOffsetBox(chunkOffsets: [0x1234], usesLargeOffsets: false).write(to: &$0) }
        #expect(stco == [0, 0, 0, 20] + ascii("stco") + [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0x12, 0x34])
        let co64 = written { ChunkOffsetBox(chunkOffsets: [1 << 32], usesLargeOffsets: true).write(to: &$0) }
        #expect(co64 == [0, 0, 0, 24] + ascii("co64") + [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0])
    }

    @Test func colrNclxCarriesTheFullRangeFlag() {
        let limited = written { ColourInformationBox(colour: .bt709, isQuickTime: false).write(to: &$0) }
        #expect(limited == [0, 0, 0, 19] + ascii("colrnclx") + [0, 1, 0, 1, 0, 1, 0x00])
        let full = ColourDescription(
            colourPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 6, fullRange: true)
        let fullBytes = written { ColourInformationBox(colour: full, isQuickTime: false).write(to: &$0) }
        #expect(fullBytes == [0, 0, 0, 19] + ascii("colrnclx") + [0, 1, 0, 13, 0, 6, 0x80])
    }

    @Test func colrForQuickTimeIsNclcWithoutRange() {
        let bytes = written { ColourInformationBox(colour: .bt601, isQuickTime: true).write(to: &$0) }
        #expect(bytes == [0, 0, 0, 18] + ascii("colrnclc") + [0, 6, 0, 6, 0, 6])
    }

    @Test func avcCForHighProfileHasTheExtension() {
        let configuration = AVCDecoderConfiguration(sequenceParameterSets: [fakeSPS], pictureParameterSets: [fakePPS])
        let bytes = written { AVCConfigurationBox(configuration: configuration).write(to: &$0) }
        let expected: [UInt8] =
            [0, 0, 0, 34] + ascii("avcC")
            + [1, 0x64, 0x00, 0x1F]  // version, profile 100, compatibility, level 31
            + [0xFF, 0xE1]  // lengthSizeMinusOne 3, one SPS
            + [0, 7] + fakeSPS
            + [1, 0, 4] + fakePPS  // one PPS
            + [0xFD, 0xF8, 0xF8, 0x00]  // chroma 4:2:0, 8-bit luma and chroma, no SPS extensions
        #expect(bytes == expected)
    }

    @Test func avcCForBaselineHasNoExtension() {
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E]
        let configuration = AVCDecoderConfiguration(sequenceParameterSets: [sps], pictureParameterSets: [fakePPS])
        let bytes = written { AVCConfigurationBox(configuration: configuration).write(to: &$0) }
        #expect(
            bytes == [0, 0, 0, 27] + ascii("avcC") + [1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1, 0, 4] + sps + [1, 0, 4] + fakePPS
        )
    }

    @Test func elstVersion0InsideEdts() {
        let bytes = written { EditListBox(entries: [.init(segmentDuration: 300, mediaTime: 1024)]).write(to: &$0) }
        #expect(
            bytes == [0, 0, 0, 36] + ascii("edts") + [0, 0, 0, 28] + ascii("elst") + [0, 0, 0, 0] + [0, 0, 0, 1]
                + [0, 0, 0x01, 0x2C] + [0, 0, 0x04, 0x00] + [0, 1, 0, 0])
    }

    @Test func elstPromotesToVersion1ForLongSegments() {
        let bytes = written { EditListBox(entries: [.init(segmentDuration: 1 << 32, mediaTime: -1)]).write(to: &$0) }
        #expect(
            bytes == [0, 0, 0, 44] + ascii("edts") + [0, 0, 0, 36] + ascii("elst") + [1, 0, 0, 0] + [0, 0, 0, 1]
                + [0, 0, 0, 1, 0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [0, 1, 0, 0])
    }

    @Test func mdhdPacksUndAndPromotesLongDurations() {
        let short = written { MediaHeaderBox(timescale: 30, duration: 90).write(to: &$0) }
        #expect(
            short == [0, 0, 0, 32] + ascii("mdhd") + [0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 30]
                + [0, 0, 0, 90] + [0x55, 0xC4, 0, 0])
        let long = written { MediaHeaderBox(timescale: 30, duration: 1 << 32).write(to: &$0) }
        #expect(long.count == 44)
        #expect(long[8] == 1, "version")
    }

    @Test func headerBoxesHaveTheirSpecifiedSizes() {
        #expect(written { MovieHeaderBox(timescale: 30, duration: 90).write(to: &$0) }.count == 108)
        #expect(written { MovieHeaderBox(timescale: 30, duration: 1 << 32).write(to: &$0) }.count == 120)
        #expect(written { TrackHeaderBox(duration: 90, width: 64, height: 48).write(to: &$0) }.count == 92)
        #expect(written { TrackHeaderBox(duration: 1 << 32, width: 64, height: 48).write(to: &$0) }.count == 104)
        #expect(
            written { VideoMediaHeaderBox().write(to: &$0) } == [0, 0, 0, 20] + ascii("vmhd") + [0, 0, 0, 1]
                + [UInt8](repeating: 0, count: 8))
        #expect(
            written { DataInformationBox().write(to: &$0) }
                == [0, 0, 0, 36] + ascii("dinf") + [0, 0, 0, 28] + ascii("dref") + [0, 0, 0, 0, 0, 0, 0, 1]
                + [0, 0, 0, 12] + ascii("url ") + [0, 0, 0, 1])
    }

    @Test func tkhdWritesSizeAsFixedPoint() {
        let bytes = written { TrackHeaderBox(duration: 90, width: 1920, height: 1080).write(to: &$0) }
        #expect(Array(bytes[84..<92]) == [0x07, 0x80, 0, 0, 0x04, 0x38, 0, 0])
        #expect(Array(bytes[8..<12]) == [0, 0, 0, 3], "flags: enabled, in movie")
    }

    @Test func hdlrDiffersBetweenMP4AndQuickTime() {
        let mp4 = written { HandlerBox().write(to: &$0) }
        #expect(
            mp4 == [0, 0, 0, 45] + ascii("hdlr") + [0, 0, 0, 0] + [0, 0, 0, 0] + ascii("vide")
                + [UInt8](repeating: 0, count: 12) + ascii("VideoHandler") + [0])
        let mov = written { HandlerBox(isQuickTime: true).write(to: &$0) }
        #expect(
            mov == [0, 0, 0, 45] + ascii("hdlr") + [0, 0, 0, 0] + ascii("mhlrvide") + [UInt8](repeating: 0, count: 12)
                + [12] + ascii("VideoHandler"))
    }

    @Test func compressorNameIsAPascalStringCutAt31Bytes() {
        let field = SampleDescriptionBox.compressorNameField("Flipbook H.264")
        #expect(field.count == 32)
        #expect(field[0] == 14)
        #expect(Array(field[1..<15]) == ascii("Flipbook H.264"))
        let long = SampleDescriptionBox.compressorNameField(String(repeating: "é", count: 20))
        #expect(long.count == 32)
        #expect(long[0] == 30, "cut at a character boundary")
    }

    @Test func avc1EntryHasItsFixedFieldsThenChildren() throws {
        let bytes = written { SampleDescriptionBox(entry: makeEntry(), isQuickTime: false).write(to: &$0) }
        let stsd = try #require(try BoxReader.parse(bytes).first)
        let avc1 = try #require(stsd.children.first)
        #expect(avc1.type == "avc1")
        #expect(avc1.children.map(\.type) == ["avcC", "colr", "pasp"])
        let fields = Array(bytes[avc1.payloadRange.lowerBound..<avc1.payloadRange.lowerBound + 78])
        let expected: [UInt8] =
            [0, 0, 0, 0, 0, 0, 0, 1]  // reserved, data_reference_index 1
            + [UInt8](repeating: 0, count: 16) + [0, 64, 0, 48]  // width, height
            + [0, 0x48, 0, 0, 0, 0x48, 0, 0, 0, 0, 0, 0, 0, 1]  // 72 dpi twice, reserved, frame_count
            + SampleDescriptionBox.compressorNameField("Flipbook H.264") + [0, 0x18, 0xFF, 0xFF]
        #expect(fields == expected)
    }
}
