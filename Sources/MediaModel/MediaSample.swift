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
    /// The picture's alpha plane coded as a picture of its own, for a container that carries it
    /// beside the sample (a Matroska BlockAdditional with ID 1); `nil` for none. An MP4 holds none.
    package var alpha: [UInt8]?

    /// Where the sample's bytes are when they are not held in ``data``: a byte range of a source file
    /// the sink copies file to file (a join copies segments' media this way).
    package private(set) var sourceBytes: SourceBytes?

    /// Creates a sample.
    package init(
        data: [UInt8], duration: UInt32, compositionOffset: UInt32 = 0, isSync: Bool, alpha: [UInt8]? = nil
    ) {
        self.data = data
        self.duration = duration
        self.compositionOffset = compositionOffset
        self.isSync = isSync
        self.alpha = alpha
    }

    /// The same sample without its bytes, which lie at `offset` in the source file numbered `source`
    /// (see ``WriteAction/copy(source:offset:count:)``): only their count is known here, and ``data``
    /// is empty.
    package func withBytes(inSource source: Int, at offset: UInt64, count: UInt32) -> MediaSample {
        var sample = self
        sample.data = []
        sample.sourceBytes = SourceBytes(source: source, offset: offset, count: count)
        return sample
    }

    /// The sample's size in bytes: its data's, or its source range's.
    package var size: Int { sourceBytes.map { Int($0.count) } ?? data.count }
}

/// A byte range of one of the files a movie copies media from, numbered by the caller.
package struct SourceBytes: Sendable, Equatable {
    /// The source file's number, as the sink knows it.
    package var source: Int
    /// Where the bytes start in the source file.
    package var offset: UInt64
    /// How many bytes.
    package var count: UInt32
}
