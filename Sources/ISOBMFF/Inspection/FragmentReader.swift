import MediaModel

/// Reads the sample durations of a fragmented movie's first track from its `moof` boxes.
enum FragmentReader {
    /// Every sample's duration, in fragment order, from `trun` entries, `tfhd` defaults or `trex` defaults.
    ///
    /// Unlike ``FragmentedMovieReader`` it accepts any data-offset base, as other tools write.
    static func sampleDurations(boxes: [Box], moov: Box, bytes: [UInt8]) throws -> [UInt64] {
        let track =
            try moov.descendant(["mvex", "trex"]).map { try TrackExtendsBox(reading: $0, in: bytes) }
            ?? TrackExtendsBox()
        var durations: [UInt64] = []
        for moof in boxes where moof.type == "moof" {
            for traf in moof.children("traf") {
                let defaults =
                    try traf.child("tfhd").map {
                        try TrackFragmentHeaderBox(reading: $0, in: bytes).defaults(over: track)
                    }
                    ?? track
                for trun in traf.children("trun") {
                    let run = try TrackRunBox(reading: trun, in: bytes, defaults: defaults)
                    guard durations.count + run.entries.count <= min(1 << 24, bytes.count) else {
                        throw MediaReadingError.isoBMFF(
                            .malformed, "the fragments declare more samples than a movie can hold",
                            offset: trun.offset, boxType: "trun")
                    }
                    durations += run.entries.map { UInt64($0.duration) }
                }
            }
        }
        return durations
    }
}
