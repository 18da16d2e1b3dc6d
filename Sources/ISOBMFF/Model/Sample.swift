/// One access unit (a coded picture) in decode order, as the sample tables describe it.
///
/// The bytes themselves are written by the caller into the `mdat` payload in the same order.
package struct Sample: Sendable, Equatable {
    /// The sample's size in bytes.
    package var size: UInt32
    /// The decode delta to the next sample (`stts`); for the last sample, its display duration.
    package var duration: UInt32
    /// Presentation time minus decode time (`ctts`), in timescale units.
    package var compositionOffset: UInt32
    /// Whether the sample is a sync sample (an IDR picture, `stss`).
    package var isSync: Bool

    /// Creates a sample description.
    ///
    /// - Parameters:
    ///   - size: Size in bytes.
    ///   - duration: Decode delta to the next sample, in timescale units.
    ///   - compositionOffset: Presentation minus decode time, in timescale units; 0 by default.
    ///   - isSync: Whether the sample is a sync sample.
    package init(size: UInt32, duration: UInt32, compositionOffset: UInt32 = 0, isSync: Bool) {
        self.size = size
        self.duration = duration
        self.compositionOffset = compositionOffset
        self.isSync = isSync
    }
}

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

/// One whole sample as the muxer takes it: its bytes and its table entry, in decode order.
package struct MediaSample: Sendable {
    /// The sample's bytes, as they go into `mdat`.
    package var data: [UInt8]
    /// The decode delta to the next sample; for the last sample, its display duration.
    package var duration: UInt32
    /// Presentation time minus decode time, in the track's timescale.
    package var compositionOffset: UInt32
    /// Whether a decoder can start here.
    package var isSync: Bool

    /// The size of a sample whose bytes the writer places in the media data itself, file to file.
    private var externalSize: UInt32?

    /// Creates a sample.
    package init(data: [UInt8], duration: UInt32, compositionOffset: UInt32 = 0, isSync: Bool) {
        self.data = data
        self.duration = duration
        self.compositionOffset = compositionOffset
        self.isSync = isSync
    }

    /// The same sample without its bytes, which the caller copies into the media data itself (a join
    /// copies them from file to file): only their count is known here, and ``data`` is empty.
    package func withExternalBytes(count: UInt32) -> MediaSample {
        var sample = self
        sample.data = []
        sample.externalSize = count
        return sample
    }

    /// Whether the sample's bytes are placed in the media data by the caller, not held in ``data``.
    package var hasExternalBytes: Bool { externalSize != nil }

    /// The sample's size in bytes: its data's, or the count given to ``withExternalBytes(count:)``.
    package var size: Int { externalSize.map(Int.init) ?? data.count }

    /// The sample's table entry.
    package var entry: Sample {
        Sample(
            size: UInt32(clamping: size), duration: duration, compositionOffset: compositionOffset,
            isSync: isSync)
    }
}
