/// One access unit (a coded picture) in decode order, as the sample tables describe it.
///
/// The bytes themselves are written by the caller into the `mdat` payload in the same order.
public struct Sample: Sendable, Equatable {
    /// The sample's size in bytes.
    public var size: UInt32
    /// The decode delta to the next sample (`stts`); for the last sample, its display duration.
    public var duration: UInt32
    /// Presentation time minus decode time (`ctts`), in timescale units.
    public var compositionOffset: UInt32
    /// Whether the sample is a sync sample (an IDR picture, `stss`).
    public var isSync: Bool

    /// Creates a sample description.
    ///
    /// - Parameters:
    ///   - size: Size in bytes.
    ///   - duration: Decode delta to the next sample, in timescale units.
    ///   - compositionOffset: Presentation minus decode time, in timescale units; 0 by default.
    ///   - isSync: Whether the sample is a sync sample.
    public init(size: UInt32, duration: UInt32, compositionOffset: UInt32 = 0, isSync: Bool) {
        self.size = size
        self.duration = duration
        self.compositionOffset = compositionOffset
        self.isSync = isSync
    }
}

/// One entry of an edit list (`elst`): which span of the media plays on the movie timeline.
public struct EditListEntry: Sendable, Equatable {
    /// The entry's duration in the movie timescale.
    public var segmentDuration: UInt64
    /// The media time where the entry starts, in the media timescale; -1 for an empty edit.
    public var mediaTime: Int64

    /// Creates an edit list entry.
    ///
    /// - Parameters:
    ///   - segmentDuration: Duration in the movie timescale.
    ///   - mediaTime: Start in the media timescale, or -1 for an empty edit.
    public init(segmentDuration: UInt64, mediaTime: Int64) {
        self.segmentDuration = segmentDuration
        self.mediaTime = mediaTime
    }
}
