import MediaModel

/// One block of a cluster as a reader finds it: the frame's place in the file (never its bytes) and
/// what the block says beside it.
package struct MatroskaBlockEntry: Sendable, Equatable {
    /// The track number the block belongs to.
    package var track: Int
    /// The block's absolute time in ticks of the file's `TimestampScale`: its cluster's time plus
    /// its own offset.
    package var time: Int64
    /// Whether the frame is a keyframe: a `SimpleBlock`'s flag, or a `BlockGroup` without a
    /// `ReferenceBlock`.
    package var isKeyframe: Bool
    /// The `BlockDuration` in ticks, when the block has one.
    package var duration: UInt64?
    /// Nanoseconds of sound at the frame's end not to play (`DiscardPadding`), when stated.
    package var discardPadding: Int64?
    /// The file offset of the frame's first byte.
    package var frameOffset: UInt64
    /// The frame's length in bytes.
    package var frameSize: Int
    /// How the block packs several frames (0: one frame, 1 Xiph, 2 fixed-size, 3 EBML lacing); the
    /// frame range then covers the lacing header and every frame.
    package var lacing: UInt8 = 0
    /// Where the alpha picture (`BlockAdditional` with `BlockAddID` 1) lies in the file, if the block has one.
    package var alpha: (offset: UInt64, size: Int)? = nil

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.track == rhs.track && lhs.time == rhs.time && lhs.isKeyframe == rhs.isKeyframe
            && lhs.duration == rhs.duration && lhs.discardPadding == rhs.discardPadding
            && lhs.frameOffset == rhs.frameOffset && lhs.frameSize == rhs.frameSize && lhs.lacing == rhs.lacing
            && lhs.alpha?.offset == rhs.alpha?.offset && lhs.alpha?.size == rhs.alpha?.size
    }

    /// The block header at the start of a `Block` or `SimpleBlock`'s data: track number, 16-bit
    /// time offset, flags.
    struct Header {
        var track: Int
        var relativeTime: Int16
        var flags: UInt8
        var length: Int

        /// Parses the header from the start of the block's data.
        init(_ bytes: ArraySlice<UInt8>, element: EBMLElement) throws {
            guard let (track, length) = EBMLElement.variableLengthInteger(bytes), bytes.count >= length + 3,
                track <= UInt64(Int32.max)
            else {
                throw MediaReadingError.matroska(
                    .malformed, "the block's header (track, time, flags) is cut short or invalid",
                    offset: element.offset, element: element.id)
            }
            let start = bytes.startIndex + length
            self.track = Int(track)
            relativeTime = Int16(bitPattern: UInt16(bytes[start]) << 8 | UInt16(bytes[start + 1]))
            flags = bytes[start + 2]
            self.length = length + 3
        }
    }
}
