import MediaModel

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

extension MediaSample {
    /// The sample's table entry.
    package var entry: Sample {
        Sample(
            size: UInt32(clamping: size), duration: duration, compositionOffset: compositionOffset,
            isSync: isSync)
    }
}
