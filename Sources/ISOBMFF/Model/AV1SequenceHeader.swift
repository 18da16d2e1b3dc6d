import MediaModel

/// The fields of an AV1 sequence header OBU (AV1 §5.5) that `av1C` repeats: profile, the first
/// operating point's level and tier, and the colour configuration.
///
/// Parsed from the OBU as the encoder wrote it; the fields between the operating points and the
/// colour configuration (frame size, frame ids, coding tools) are read only to be stepped over.
package struct AV1SequenceHeader: Sendable, Equatable {
    /// `seq_profile`: 0 Main, 1 High, 2 Professional.
    package var profile: UInt8
    /// `still_picture`.
    package var isStillPicture: Bool
    /// `seq_level_idx[0]`: the first operating point's level (`(major - 2) * 4 + minor`; 31 for no limit).
    package var levelIndex: UInt8
    /// `seq_tier[0]`: the first operating point's tier, 0 Main or 1 High.
    package var tier: UInt8
    /// `max_frame_width_minus_1 + 1`.
    package var maximumWidth: Int
    /// `max_frame_height_minus_1 + 1`.
    package var maximumHeight: Int
    /// `high_bitdepth`: 10 or 12 bits rather than 8.
    package var highBitDepth: Bool
    /// `twelve_bit`: 12 bits (Professional profile only).
    package var twelveBit: Bool
    /// `mono_chrome`.
    package var monochrome: Bool
    /// The colour tags: `color_primaries`, `transfer_characteristics`, `matrix_coefficients` (2,
    /// unspecified, when no description is present) and `color_range`.
    package var colour: ColourDescription
    /// Whether `color_description_present_flag` is set.
    package var hasColourDescription: Bool
    /// `subsampling_x`.
    package var chromaSubsamplingX: Bool
    /// `subsampling_y`.
    package var chromaSubsamplingY: Bool
    /// `chroma_sample_position`: 0 unknown, 1 vertical (left), 2 co-located (top left).
    package var chromaSamplePosition: UInt8

    /// The bit depth the profile and flags give: 8, 10 or 12.
    package var bitDepth: Int { twelveBit ? 12 : highBitDepth ? 10 : 8 }

    /// Parses a sequence header OBU, header and all.
    ///
    /// - Parameter obu: One OBU of type `OBU_SEQUENCE_HEADER`.
    /// - Throws: ``MediaReadingError`` with code `malformed` when it is another OBU or is cut short.
    package init(obu: [UInt8]) throws {
        let units = try AV1OpenBitstreamUnits.split(obu)
        guard let unit = units.first, unit.type == AV1OpenBitstreamUnits.sequenceHeaderType else {
            throw MediaReadingError.isoBMFF(
                .malformed, "the configuration OBU is not a sequence header", boxType: "av1C")
        }
        var bits = AV1BitReader(Array(obu[unit.payload]))
        try self.init(payload: &bits)
    }

    private init(payload bits: inout AV1BitReader) throws {
        profile = UInt8(try bits.read(3))
        isStillPicture = try bits.flag()
        let reducedStillPictureHeader = try bits.flag()
        if reducedStillPictureHeader {
            levelIndex = UInt8(try bits.read(5))
            tier = 0
        } else {
            (levelIndex, tier) = try Self.readOperatingPoints(&bits)
        }
        let widthBits = Int(try bits.read(4)) + 1
        let heightBits = Int(try bits.read(4)) + 1
        maximumWidth = Int(try bits.read(widthBits)) + 1
        maximumHeight = Int(try bits.read(heightBits)) + 1
        if try !reducedStillPictureHeader && bits.flag() {  // frame_id_numbers_present_flag
            try bits.skip(4 + 3)  // delta_frame_id_length_minus_2, additional_frame_id_length_minus_1
        }
        // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
        try bits.skip(3)
        if !reducedStillPictureHeader {
            // enable_interintra_compound, enable_masked_compound, enable_warped_motion, enable_dual_filter
            try bits.skip(4)
            let enableOrderHint = try bits.flag()
            if enableOrderHint { try bits.skip(2) }  // enable_jnt_comp, enable_ref_frame_mvs
            let chooseScreenContentTools = try bits.flag()
            let forceScreenContentTools = try chooseScreenContentTools ? 2 : bits.read(1)
            if try forceScreenContentTools > 0 && !bits.flag() {  // seq_choose_integer_mv
                try bits.skip(1)  // seq_force_integer_mv
            }
            if enableOrderHint { try bits.skip(3) }  // order_hint_bits_minus_1
        }
        try bits.skip(3)  // enable_superres, enable_cdef, enable_restoration

        // color_config()
        highBitDepth = try bits.flag()
        twelveBit = try profile == 2 && highBitDepth ? bits.flag() : false
        monochrome = try profile == 1 ? false : bits.flag()
        hasColourDescription = try bits.flag()
        var primaries: UInt16 = 2
        var transfer: UInt16 = 2
        var matrix: UInt16 = 2
        if hasColourDescription {
            primaries = UInt16(try bits.read(8))
            transfer = UInt16(try bits.read(8))
            matrix = UInt16(try bits.read(8))
        }
        var fullRange: Bool
        chromaSamplePosition = 0
        if monochrome {
            fullRange = try bits.flag()
            (chromaSubsamplingX, chromaSubsamplingY) = (true, true)
        } else if primaries == 1 && transfer == 13 && matrix == 0 {  // BT.709, sRGB, identity: 4:4:4 RGB
            fullRange = true
            (chromaSubsamplingX, chromaSubsamplingY) = (false, false)
        } else {
            fullRange = try bits.flag()
            switch profile {
            case 0: (chromaSubsamplingX, chromaSubsamplingY) = (true, true)
            case 1: (chromaSubsamplingX, chromaSubsamplingY) = (false, false)
            default:
                if twelveBit {
                    chromaSubsamplingX = try bits.flag()
                    chromaSubsamplingY = try chromaSubsamplingX ? bits.flag() : false
                } else {
                    (chromaSubsamplingX, chromaSubsamplingY) = (true, false)
                }
            }
            if chromaSubsamplingX && chromaSubsamplingY { chromaSamplePosition = UInt8(try bits.read(2)) }
        }
        colour = ColourDescription(primaries, transfer, matrix, fullRange: fullRange)
    }

    /// Reads timing and decoder model information and every operating point; returns the first
    /// operating point's level and tier.
    private static func readOperatingPoints(_ bits: inout AV1BitReader) throws -> (level: UInt8, tier: UInt8) {
        var decoderModelInfoPresent = false
        var bufferDelayLength = 0
        if try bits.flag() {  // timing_info_present_flag
            try bits.skip(32 + 32)  // num_units_in_display_tick, time_scale
            if try bits.flag() { _ = try bits.uvlc() }  // equal_picture_interval: num_ticks_per_picture_minus_1
            decoderModelInfoPresent = try bits.flag()
            if decoderModelInfoPresent {
                bufferDelayLength = Int(try bits.read(5)) + 1
                // num_units_in_decoding_tick, buffer_removal_time_length_minus_1,
                // frame_presentation_time_length_minus_1
                try bits.skip(32 + 5 + 5)
            }
        }
        let initialDisplayDelayPresent = try bits.flag()
        let count = Int(try bits.read(5)) + 1
        var first: (level: UInt8, tier: UInt8)?
        for _ in 0..<count {
            try bits.skip(12)  // operating_point_idc
            let level = UInt8(try bits.read(5))
            let tier = level > 7 ? UInt8(try bits.read(1)) : 0
            if first == nil { first = (level, tier) }
            // decoder_model_present_for_this_op: decoder_buffer_delay, encoder_buffer_delay, low_delay_mode_flag
            if try decoderModelInfoPresent && bits.flag() { try bits.skip(2 * bufferDelayLength + 1) }
            // initial_display_delay_present_for_this_op: initial_display_delay_minus_1
            if try initialDisplayDelayPresent && bits.flag() { try bits.skip(4) }
        }
        return first ?? (0, 0)
    }
}

/// Reads an AV1 payload most significant bit first (AV1 §4.10.2 `f(n)`, §4.10.3 `uvlc()`).
struct AV1BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// `f(n)` for n up to 32.
    mutating func read(_ count: Int) throws -> UInt32 {
        guard count <= bytes.count * 8 - position else {
            throw MediaReadingError.isoBMFF(.malformed, "the sequence header OBU is cut short", boxType: "av1C")
        }
        var value: UInt32 = 0
        for _ in 0..<count {
            let bit = bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1
            value = value << 1 | UInt32(bit)
            position += 1
        }
        return value
    }

    mutating func flag() throws -> Bool { try read(1) == 1 }

    mutating func skip(_ count: Int) throws {
        var left = count
        while left > 0 {
            let step = min(left, 32)
            _ = try read(step)
            left -= step
        }
    }

    /// `uvlc()`: leading zeros, a one, then as many bits again.
    mutating func uvlc() throws -> UInt32 {
        var leadingZeros = 0
        while !(try flag()) { leadingZeros += 1 }
        if leadingZeros >= 32 { return UInt32.max }
        return try read(leadingZeros) + (UInt32(1) << leadingZeros) - 1
    }
}
