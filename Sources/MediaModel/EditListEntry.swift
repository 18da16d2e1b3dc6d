/// One entry of an edit list (`elst`): which span of the media plays on the movie timeline.
package struct EditListEntry: Sendable, Equatable {
    /// The entry's duration in the movie timescale.
    package var segmentDuration: UInt64
    /// The media time where the entry starts, in the media timescale; -1 for an empty edit.
    package var mediaTime: Int64

    /// Creates an edit list entry.
    ///
    /// - Parameters:
    ///   - segmentDuration: Duration in the movie timescale.
    ///   - mediaTime: Start in the media timescale, or -1 for an empty edit.
    package init(segmentDuration: UInt64, mediaTime: Int64) {
        self.segmentDuration = segmentDuration
        self.mediaTime = mediaTime
    }
}
