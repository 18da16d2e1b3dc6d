/// The profile and level a codec configuration record states, as `flipbook probe` names them: the
/// same record in an MP4 sample entry's `avcC`, `hvcC` or `av1C` box and in a Matroska track's
/// `CodecPrivate`.
package enum ConfigurationProfile {
    /// The profile and level in the payload of a configuration record of type `box`; `nil` for what
    /// the record does not state or a payload too short to hold it.
    package static func read(box: String, payload: [UInt8]) -> (profile: String?, level: Double?) {
        switch box {
        case "avcC" where payload.count >= 4:
            // AVCProfileIndication, profile_compatibility, AVCLevelIndication (ten times the level).
            return (ColourNames.profile(payload[1], compatibility: payload[2]), Double(payload[3]) / 10)
        case "hvcC" where payload.count >= 13:
            // general_profile_idc in byte 1, general_level_idc (30 times the level) in byte 12.
            let profile = [1: "Main", 2: "Main 10", 3: "Main Still Picture", 4: "Rext"][payload[1] & 0x1F]
            return (profile, Double(payload[12]) / 30)
        case "av1C" where payload.count >= 4:
            // seq_profile in the top 3 bits of byte 1, seq_level_idx_0 in its low 5 (level 2.0 is index 0).
            let profile = [0: "Main", 1: "High", 2: "Professional"][payload[1] >> 5]
            let index = Int(payload[1] & 0x1F)
            return (profile, index == 31 ? nil : Double(2 + index / 4) + Double(index % 4) / 10)
        default:
            return (nil, nil)
        }
    }
}
