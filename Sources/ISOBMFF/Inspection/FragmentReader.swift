/// Reads the sample durations of a fragmented movie's first track from its `moof` boxes.
enum FragmentReader {
    /// Every sample's duration, in fragment order, from `trun` entries, `tfhd` defaults or `trex` defaults.
    static func sampleDurations(boxes: [Box], moov: Box, bytes: [UInt8]) throws -> [UInt64] {
        var trackDefault: UInt32 = 0
        if let trex = moov.descendant(["mvex", "trex"]) {
            var reader = ByteReader(payloadOf: trex, in: bytes)
            try reader.skip(4 + 4 + 4)  // version and flags, track_ID, default_sample_description_index
            trackDefault = try reader.readUInt32()
        }
        var durations: [UInt64] = []
        for moof in boxes.filter({ $0.type == "moof" }) {
            for traf in moof.children("traf") {
                var fragmentDefault = trackDefault
                if let tfhd = traf.child("tfhd") {
                    var reader = ByteReader(payloadOf: tfhd, in: bytes)
                    let flags = try reader.readUInt32() & 0xFF_FFFF
                    try reader.skip(4)  // track_ID
                    if flags & 0x01 != 0 { try reader.skip(8) }  // base_data_offset
                    if flags & 0x02 != 0 { try reader.skip(4) }  // sample_description_index
                    if flags & 0x08 != 0 { fragmentDefault = try reader.readUInt32() }
                }
                for trun in traf.children("trun") {
                    var reader = ByteReader(payloadOf: trun, in: bytes)
                    let flags = try reader.readUInt32() & 0xFF_FFFF
                    let count = try reader.readUInt32()
                    guard count <= 1 << 22, durations.count + Int(count) <= min(1 << 24, bytes.count) else {
                        throw reader.error(.malformedBox, "trun declares \(count) samples, more than a movie can hold")
                    }
                    if flags & 0x001 != 0 { try reader.skip(4) }  // data_offset
                    if flags & 0x004 != 0 { try reader.skip(4) }  // first_sample_flags
                    let fieldBytes = [0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count * 4
                    for _ in 0..<count {
                        let duration = flags & 0x100 != 0 ? try reader.readUInt32() : fragmentDefault
                        try reader.skip(fieldBytes)
                        durations.append(UInt64(duration))
                    }
                }
            }
        }
        return durations
    }
}
