import MediaModel
import Testing

@testable import ISOBMFF

/// `av1C` from a sequence header OBU (AV1 §5.5, AV1-ISOBMFF §2.3), byte for byte, with the fields
/// worked out by hand from the bits; and the temporal delimiters an MP4 sample must not hold.
@Suite struct AV1ConfigurationTests {
    /// SVT-AV1 1.4's sequence header for 128x96, 8-bit, BT.709 limited range: OBU header 0x0A (type 1,
    /// size field), size 13, then seq_profile 0, no timing info, one operating point at level 0 (2.0),
    /// 7-bit frame width and height fields holding 127 and 95, ..., color_config with a colour description.
    static let svtHeader8Bit: [UInt8] = [
        0x0A, 0x0D, 0x00, 0x00, 0x00, 0x03, 0x37, 0xFB, 0xE0, 0x17, 0xC0, 0x80, 0x80, 0x80, 0x82,
    ]
    /// The same at 10 bits (high_bitdepth set).
    static let svtHeader10Bit: [UInt8] = [
        0x0A, 0x0D, 0x00, 0x00, 0x00, 0x03, 0x37, 0xFB, 0xE0, 0x17, 0xC2, 0x80, 0x80, 0x80, 0x82,
    ]
    /// The 8-bit header with BT.601 (SMPTE 170M, code 6) primaries, transfer and matrix, full range.
    static let svtHeaderBT601Full: [UInt8] = [
        0x0A, 0x0D, 0x00, 0x00, 0x00, 0x03, 0x37, 0xFB, 0xE0, 0x17, 0xC0, 0x83, 0x03, 0x03, 0x42,
    ]

    @Test func theSequenceHeaderGivesProfileLevelSizeAndColour() throws {
        let header = try AV1SequenceHeader(obu: Self.svtHeader8Bit)
        #expect(header.profile == 0 && !header.isStillPicture)
        #expect(header.levelIndex == 0 && header.tier == 0)
        #expect(header.maximumWidth == 128 && header.maximumHeight == 96)
        #expect(header.bitDepth == 8 && !header.monochrome)
        #expect(header.chromaSubsamplingX && header.chromaSubsamplingY && header.chromaSamplePosition == 0)
        #expect(header.hasColourDescription && header.colour == .bt709)

        let ten = try AV1SequenceHeader(obu: Self.svtHeader10Bit)
        #expect(ten.bitDepth == 10 && ten.highBitDepth && !ten.twelveBit)
        let bt601 = try AV1SequenceHeader(obu: Self.svtHeaderBT601Full)
        #expect(bt601.colour == ColourDescription(6, 6, 6, fullRange: true))
    }

    @Test func av1CIsTheFourFieldBytesThenTheSequenceHeaderOBU() throws {
        // marker 1 + version 1; profile 0 + level 0; tier 0, high_bitdepth 0, twelve_bit 0, monochrome 0,
        // subsampling x 1 and y 1, chroma_sample_position 0; no initial presentation delay.
        let eightBit = try AV1CodecConfiguration(sequenceHeaderOBU: Self.svtHeader8Bit)
        let eight = written { eightBit.write(to: &$0) }
        #expect(eight == [0, 0, 0, 27] + ascii("av1C") + [0x81, 0x00, 0x0C, 0x00] + Self.svtHeader8Bit)
        let tenBit = try AV1CodecConfiguration(sequenceHeaderOBU: Self.svtHeader10Bit)
        let ten = written { tenBit.write(to: &$0) }
        #expect(ten == [0, 0, 0, 27] + ascii("av1C") + [0x81, 0x00, 0x4C, 0x00] + Self.svtHeader10Bit)
    }

    @Test func timingInfoIsSteppedOverAndAHighTierLevelIsRead() throws {
        var bits = BitWriterForTests()
        bits.put(0, 3)  // seq_profile
        bits.put(0, 2)  // still_picture, reduced_still_picture_header
        bits.put(1, 1)  // timing_info_present_flag
        bits.put(1001, 32)  // num_units_in_display_tick
        bits.put(60000, 32)  // time_scale
        bits.put(1, 1)  // equal_picture_interval
        bits.put(0b010, 3)  // uvlc: num_ticks_per_picture_minus_1 = 1
        bits.put(0, 1)  // decoder_model_info_present_flag
        bits.put(0, 1)  // initial_display_delay_present_flag
        bits.put(1, 5)  // operating_points_cnt_minus_1: two points
        bits.put(0x103, 12)  // operating_point_idc[0]
        bits.put(13, 5)  // seq_level_idx[0]: 5.1
        bits.put(1, 1)  // seq_tier[0]: High
        bits.put(0x101, 12)  // operating_point_idc[1]
        bits.put(5, 5)  // seq_level_idx[1]: 3.1, no tier bit
        bits.put(15, 4)  // frame_width_bits_minus_1
        bits.put(15, 4)  // frame_height_bits_minus_1
        bits.put(3839, 16)  // max_frame_width_minus_1
        bits.put(2159, 16)  // max_frame_height_minus_1
        bits.put(0, 1)  // frame_id_numbers_present_flag
        bits.put(0, 3)  // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
        bits.put(0, 4)  // interintra, masked compound, warped motion, dual filter
        bits.put(1, 1)  // enable_order_hint
        bits.put(0, 2)  // enable_jnt_comp, enable_ref_frame_mvs
        bits.put(1, 1)  // seq_choose_screen_content_tools (force = 2)
        bits.put(1, 1)  // seq_choose_integer_mv
        bits.put(6, 3)  // order_hint_bits_minus_1
        bits.put(0, 3)  // superres, cdef, restoration
        bits.put(1, 1)  // high_bitdepth
        bits.put(0, 1)  // mono_chrome
        bits.put(1, 1)  // color_description_present_flag
        bits.put(9, 8)  // BT.2020 primaries
        bits.put(16, 8)  // PQ
        bits.put(9, 8)  // BT.2020 non-constant
        bits.put(0, 1)  // color_range
        bits.put(2, 2)  // chroma_sample_position: co-located
        bits.put(0, 1)  // separate_uv_delta_q
        bits.put(0, 1)  // film_grain_params_present
        let payload = bits.bytesWithTrailingBits
        let obu = [0x0A, UInt8(payload.count)] + payload

        let header = try AV1SequenceHeader(obu: obu)
        #expect(header.levelIndex == 13 && header.tier == 1)
        #expect(header.maximumWidth == 3840 && header.maximumHeight == 2160)
        #expect(header.bitDepth == 10)
        #expect(header.colour == ColourDescription(9, 16, 9, fullRange: false))
        #expect(header.chromaSamplePosition == 2)
        let configuration = try AV1CodecConfiguration(sequenceHeaderOBU: obu)
        let box = written { configuration.write(to: &$0) }
        // level 13 (0x0D); tier 1, high_bitdepth 1, subsampling 1/1, chroma_sample_position 2.
        #expect(Array(box[8..<12]) == [0x81, 0x0D, 0b1100_1110, 0x00])
    }

    @Test func anOBUOtherThanASequenceHeaderIsRejected() {
        #expect(throws: MediaReadingError.self) { try AV1SequenceHeader(obu: [0x12, 0x00]) }
        #expect(throws: MediaReadingError.self) { try AV1SequenceHeader(obu: Array(Self.svtHeader8Bit.prefix(8))) }
    }

    @Test func temporalDelimitersAreRemovedAndEveryOtherOBUKept() throws {
        let frame: [UInt8] = [0x32, 0x03, 0xAA, 0xBB, 0xCC]  // OBU_FRAME (6), 3 bytes
        let unit = [0x12, 0x00] + Self.svtHeader8Bit + frame
        #expect(try AV1OpenBitstreamUnits.removingTemporalDelimiters(unit) == Self.svtHeader8Bit + frame)
        #expect(try AV1OpenBitstreamUnits.removingTemporalDelimiters([0x12, 0x00]) == [])
        #expect(try AV1OpenBitstreamUnits.split(unit).map(\.type) == [2, 1, 6])
        #expect(throws: MediaReadingError.self) { try AV1OpenBitstreamUnits.split([0x32, 0x09, 0xAA]) }
    }

    @Test func anAV01EntryNamesTheAV01BrandAndHoldsAV1CColrAndPasp() throws {
        let configuration = try AV1CodecConfiguration(sequenceHeaderOBU: Self.svtHeader8Bit)
        let entry = VideoSampleEntry.av1(width: 128, height: 96, configuration: configuration)
        #expect(entry.compatibleBrand == "av01")
        try entry.validate()
        let bytes = written { entry.write(to: &$0, isQuickTime: false) }
        let box = try #require(try BoxReader.parse(bytes).first)
        #expect(box.type == "av01")
        #expect(box.children.map(\.type) == ["av1C", "colr", "pasp"])
        let dump = BoxDump.render(try BoxReader.parse(bytes), in: bytes)
        #expect(dump.contains("av01 size=\(bytes.count) width=128 height=96 compressor=\"Flipbook AV1\""), "\(dump)")
        #expect(
            dump.contains("av1C size=27 profile=0 level=0 tier=0 depth=8 subsampling=11 configOBUs=15 bytes"), "\(dump)"
        )
        let tooLarge = VideoSampleEntry.av1(width: 256, height: 96, configuration: configuration)
        #expect(throws: MuxingError.self) { try tooLarge.validate() }
    }
}

/// Writes bits most significant first, for building OBU payloads by hand.
struct BitWriterForTests {
    private var bits: [Bool] = []

    mutating func put(_ value: UInt64, _ count: Int) {
        for shift in (0..<count).reversed() { bits.append(value >> UInt64(shift) & 1 == 1) }
    }

    /// The bits, then AV1's trailing bits (a one, then zeros to a whole byte).
    var bytesWithTrailingBits: [UInt8] {
        var all = bits + [true]
        while all.count % 8 != 0 { all.append(false) }
        return stride(from: 0, to: all.count, by: 8).map { start in
            all[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
        }
    }
}
