import MediaModel
import Testing

@testable import ISOBMFF

/// The one visual sample entry: each codec's entry is its type plus a configuration payload, the
/// bytes the per-codec writers make; it reads back from a track as the same bytes; and the codec
/// table is the only place entry types are named.
@Suite struct VideoSampleEntryTests {
    static let hevcConfiguration = HEVCDecoderConfiguration(
        videoParameterSets: [[0x40, 0x01, 0x0C]],
        // NAL header, sub-layer byte, then 12 bytes of profile_tier_level (Main, level 3.1 = 93).
        sequenceParameterSets: [[0x42, 0x01, 0x01, 0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 93, 0xA0]],
        pictureParameterSets: [[0x44, 0x01, 0xC1]])

    /// A `trak` holding `entry` where a movie holds it: mdia, minf, stbl, stsd.
    static func track(holding entry: VideoSampleEntry, isQuickTime: Bool = false) throws -> (Box, [UInt8]) {
        let bytes = written { w in
            w.box("trak") { w in
                w.box("mdia") { w in
                    w.box("minf") { w in
                        w.box("stbl") { w in
                            SampleDescriptionBox(entry: entry, isQuickTime: isQuickTime).write(to: &w)
                        }
                    }
                }
            }
        }
        return (try #require(try BoxReader.parse(bytes).first), bytes)
    }

    @Test func theConfigurationPayloadIsTheCodecBoxWithoutItsHeader() throws {
        let avc = AVCDecoderConfiguration(sequenceParameterSets: [fakeSPS], pictureParameterSets: [fakePPS])
        let avcBox = written { AVCConfigurationBox(configuration: avc).write(to: &$0) }
        #expect(avc.codecConfiguration.boxType == "avcC")
        #expect(avc.codecConfiguration.payload == Array(avcBox.dropFirst(8)))
        let hevcBox = written { Self.hevcConfiguration.write(to: &$0) }
        #expect(Self.hevcConfiguration.codecConfiguration.payload == Array(hevcBox.dropFirst(8)))
        #expect(Array(hevcBox[4..<8]) == Array("hvcC".utf8))
        let av1 = try AV1CodecConfiguration(sequenceHeaderOBU: AV1ConfigurationTests.svtHeader8Bit)
        let av1Box = written { av1.write(to: &$0) }
        #expect(av1.codecConfiguration.payload == Array(av1Box.dropFirst(8)))
        #expect(av1.codecConfiguration.maximumSize?.width == 128)
    }

    @Test func aConfigurationTooShortToDescribeIsRefusedWhenTheEntryIsChecked() {
        let short = HEVCDecoderConfiguration(
            videoParameterSets: [[0x40]], sequenceParameterSets: [[0x42, 0x01]], pictureParameterSets: [[0x44]])
        #expect(short.codecConfiguration.payload.isEmpty)
        let entry = VideoSampleEntry.hevc(width: 64, height: 48, decoderConfiguration: short)
        #expect(throws: MuxingError.self) { try entry.validate() }
    }

    @Test(arguments: [false, true])
    func eachCodecsEntryReadsBackFromItsTrackAsTheSameBytes(isQuickTime: Bool) throws {
        let av1 = try AV1CodecConfiguration(sequenceHeaderOBU: AV1ConfigurationTests.svtHeader8Bit)
        let entries: [VideoSampleEntry] = [
            makeEntry(width: 64, height: 48),
            .hevc(
                width: 320, height: 240, decoderConfiguration: Self.hevcConfiguration,
                colour: ColourDescription(1, 1, 1, fullRange: true),
                pixelAspectRatio: PixelAspectRatio(hSpacing: 4, vSpacing: 3)),
            .av1(width: 128, height: 96, configuration: av1, colour: ColourDescription(6, 6, 6, fullRange: false)),
            .proRes(format: "ap4h", width: 1920, height: 1080, hasAlpha: true, compressorName: "Flipbook ProRes"),
            .vp9(width: 320, height: 240, configuration: VPCodecConfigurationTests.ffmpegs320x240),
        ]
        for entry in entries {
            let (trak, bytes) = try Self.track(holding: entry, isQuickTime: isQuickTime)
            let read = try VideoSampleEntry(reading: trak, in: bytes)
            #expect(read.format == entry.format && read.width == entry.width && read.height == entry.height)
            #expect(read.configuration?.payload == entry.configuration?.payload)
            #expect(read.hasAlpha == entry.hasAlpha && read.quickTimeDetails == entry.quickTimeDetails)
            #expect(read.pixelAspectRatio == entry.pixelAspectRatio)
            #expect(read.compressorName == entry.compressorName)
            let again = written { read.write(to: &$0, isQuickTime: isQuickTime) }
            let original = written { entry.write(to: &$0, isQuickTime: isQuickTime) }
            #expect(again == original, "\(entry.format) written back differs")
        }
    }

    @Test func anEntryOfACodecFlipbookDoesNotWriteIsNotRead() throws {
        var entry = makeEntry()
        entry.format = "vp08"
        let (trak, bytes) = try Self.track(holding: entry)
        #expect(throws: MediaReadingError.self) { try VideoSampleEntry(reading: trak, in: bytes) }
    }

    @Test func theCodecTableNamesBrandsAndProbeNames() {
        #expect(makeEntry().compatibleBrand == "avc1" && makeEntry().codecName == "h264")
        let hevc = VideoSampleEntry.hevc(width: 64, height: 48, decoderConfiguration: Self.hevcConfiguration)
        #expect(hevc.compatibleBrand == nil && hevc.codecName == "hevc")
        #expect(VisualCodecs.record(forEntryType: "hev1")?.probeName == "hevc")
        #expect(VisualCodecs.record(forEntryType: "av01")?.configurationBox == "av1C")
        #expect(VisualCodecs.record(forEntryType: "mp4v")?.probeName == "mpeg4")
        #expect(VisualCodecs.record(forEntryType: "vp09")?.configurationBox == "vpcC")
        #expect(VisualCodecs.record(forEntryType: "vp09")?.probeName == "vp9")
        #expect(VisualCodecs.record(forEntryType: "vp08") == nil)
        #expect(Set(VisualCodecs.visualEntryTypes).isSuperset(of: ["avc1", "avc3", "hvc1", "hev1", "av01", "encv"]))
    }

    @Test func theBoxParserFindsChildrenAfterTheFieldsOfEveryEntryInTheTable() throws {
        for record in VisualCodecs.all where record.configurationBox != nil {
            var entry = makeEntry()
            entry.format = record.entryTypes[0]
            entry.configuration?.boxType = record.configurationBox!
            let bytes = written { entry.write(to: &$0, isQuickTime: false) }
            let box = try #require(try BoxReader.parse(bytes).first)
            #expect(box.children.map(\.type) == [record.configurationBox!.description, "colr", "pasp"])
        }
    }

    @Test func aProResEntryIsWrittenAsAppleWritesIt() throws {
        let entry = VideoSampleEntry.proRes(
            format: "ap4h", width: 1920, height: 1080, hasAlpha: true, compressorName: "Flipbook ProRes")
        let bytes = written { entry.write(to: &$0, isQuickTime: true) }
        let box = try #require(try BoxReader.parse(bytes).first)
        #expect(box.type == "ap4h")
        #expect(box.children.map(\.type) == ["colr", "fiel", "pasp"])
        // After the 8-byte header: 6 reserved, the data reference index, version and revision, then the vendor.
        #expect(Array(bytes[20..<24]) == Array("appl".utf8))
        #expect(Array(bytes[28..<32]) == [0, 0, 2, 0])  // spatial quality: normal
        #expect(Array(bytes[82..<84]) == [0, 32])  // depth: colour with alpha
        let colr = try #require(box.children.first)
        #expect(Array(bytes[(colr.offset + 8)..<(colr.offset + 12)]) == Array("nclc".utf8))
        let fiel = box.children[1]
        #expect(Array(bytes[(fiel.offset + 8)..<(fiel.offset + 10)]) == [1, 0])  // progressive
        var opaque = entry
        opaque.hasAlpha = false
        let opaqueBytes = written { opaque.write(to: &$0, isQuickTime: true) }
        #expect(Array(opaqueBytes[82..<84]) == [0, 24])
    }
}
