import MediaModel

/// One frame waiting in the cluster being gathered: its track, its time in ticks, and what its
/// block says beside the frame.
struct MatroskaBlock {
    /// The index of the track in the movie's tracks.
    var track: Int
    /// The block's time in ticks (what the block's timestamp says).
    var time: Int64
    /// The frame, its prefix already left off.
    var sample: MediaSample
    /// The frame's presentation time and length in its track's media ticks.
    var mediaTime: Int64
    var mediaDuration: Int64
    /// The block's length in ticks, for a `BlockDuration`; `nil` to let players take it from the
    /// next block or the track's `DefaultDuration`.
    var duration: Int64? = nil
    /// Whether a `BlockDuration` is written in 8 bytes, to be written over once the movie's end is known.
    var durationWrittenOver = false
    /// Nanoseconds of sound at the end of the frame that are not played (`DiscardPadding`).
    var discardPadding: Int64? = nil
    /// The time of the track's previous block in ticks, for a `ReferenceBlock` of a frame that is no keyframe.
    var previousTime: Int64? = nil

    /// Whether the block needs a `BlockGroup` rather than a `SimpleBlock`.
    var needsGroup: Bool { sample.alpha != nil || duration != nil || discardPadding != nil }

    /// The block's bytes around the frame, for a cluster whose time is `clusterTime`, and where the
    /// `BlockDuration`'s value lies from the start of `before` when it is to be written over.
    func framing(trackNumber: Int, clusterTime: Int64) -> (before: [UInt8], after: [UInt8], durationAt: Int?) {
        let relative = Int16(clamping: time - clusterTime)
        let keyframeFlag: UInt8 = sample.isSync && !needsGroup ? 0x80 : 0
        let blockHeader =
            EBMLWriter.sizeBytes(UInt64(trackNumber), width: 1)
            + [UInt8(truncatingIfNeeded: UInt16(bitPattern: relative) >> 8), UInt8(truncatingIfNeeded: relative)]
            + [keyframeFlag]
        let frameSize = UInt64(sample.size)
        guard needsGroup else {
            var w = EBMLWriter()
            w.header(.simpleBlock, dataSize: UInt64(blockHeader.count) + frameSize)
            w.append(blockHeader)
            return (w.bytes, [], nil)
        }
        var rest = EBMLWriter()
        var durationAt: Int?
        if let duration {
            if durationWrittenOver {
                rest.header(.blockDuration, dataSize: 8)
                durationAt = rest.count
                rest.append((0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(duration) >> (8 * UInt64($0))) })
            } else {
                rest.unsigned(.blockDuration, UInt64(max(0, duration)))
            }
        }
        if !sample.isSync { rest.signed(.referenceBlock, min(-1, (previousTime ?? time - 1) - time)) }
        if let discardPadding { rest.signed(.discardPadding, discardPadding) }
        if let alpha = sample.alpha {
            rest.master(.blockAdditions) { w in
                w.master(.blockMore) { w in
                    w.unsigned(.blockAddID, 1)
                    w.binary(.blockAdditional, alpha)
                }
            }
        }
        let blockSize = UInt64(blockHeader.count) + frameSize
        let blockLength = UInt64(EBMLWriter.elementLength(.block, dataSize: blockSize))
        var w = EBMLWriter()
        w.header(.blockGroup, dataSize: blockLength + UInt64(rest.count))
        w.header(.block, dataSize: blockSize)
        w.append(blockHeader)
        return (w.bytes, rest.bytes, durationAt)
    }
}
