/// One entry of the `Cues` index: where a keyframe's cluster starts, for seeking.
struct MatroskaCue {
    /// The keyframe's time in ticks.
    var time: Int64
    /// The track number.
    var track: Int
    /// The cluster's position from the start of the `Segment`'s data.
    var clusterPosition: UInt64
    /// The block's position from the start of the cluster's data.
    var relativePosition: UInt64

    /// Writes the `Cues` element; nothing when there is no cue (`Cues` holds at least one).
    static func write(_ cues: [MatroskaCue], to writer: inout EBMLWriter) {
        guard !cues.isEmpty else { return }
        writer.master(.cues) { w in
            for cue in cues {
                w.master(.cuePoint) { w in
                    w.unsigned(.cueTime, UInt64(max(0, cue.time)))
                    w.master(.cueTrackPositions) { w in
                        w.unsigned(.cueTrack, UInt64(cue.track))
                        w.unsigned(.cueClusterPosition, cue.clusterPosition)
                        w.unsigned(.cueRelativePosition, cue.relativePosition)
                    }
                }
            }
        }
    }
}
