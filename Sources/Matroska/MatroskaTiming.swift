import MediaModel

/// How one track's media times become block times: its edit list applied, and the sound its decoder
/// discards at the start kept in the blocks' times (Matroska subtracts a track's `CodecDelay`).
struct MatroskaTiming {
    /// The track's media ticks a second.
    let timescale: UInt32
    /// The time before the track starts (empty edits), in ticks.
    let offset: Int64
    /// The media time presented at the track's start.
    let mediaStart: Int64
    /// Media ticks the decoder discards before the first it plays: the sound's media start (encoder
    /// delay, pre-skip); none for pictures, whose first presented frame is at the track's start.
    let decoderDelay: Int64

    /// The timing of `track`, in a movie whose edit lists count `movieTimescale` ticks a second.
    init(_ track: Track, movieTimescale: UInt32, isVideo: Bool) {
        timescale = track.timescale
        let empty = track.editList.prefix { $0.mediaTime < 0 }.reduce(UInt64(0)) { $0 + $1.segmentDuration }
        offset = MatroskaClock.ticks(Int64(clamping: empty), timescale: movieTimescale)
        mediaStart = track.editList.first { $0.mediaTime >= 0 }?.mediaTime ?? 0
        decoderDelay = isVideo ? 0 : max(0, mediaStart)
    }

    /// The block time of a frame presented at media time `mediaTime`.
    func blockTime(_ mediaTime: Int64) -> Int64 {
        offset + MatroskaClock.ticks(mediaTime - mediaStart + decoderDelay, timescale: timescale)
    }
}
