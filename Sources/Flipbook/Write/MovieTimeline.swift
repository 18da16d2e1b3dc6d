import ISOBMFF

/// Turns the encoder's packets (presentation and decode times, decode order) into MP4 samples.
///
/// The rule for the time scale: the frame rate is `n/d` frames a second, so a time scale of `n*k`
/// ticks a second makes every frame last exactly `d*k` ticks. `k` is the smallest power of two that
/// brings the time scale to at least 10000, as ffmpeg's MP4 muxer does: 30 fps uses 15360 ticks a
/// second (512 a frame) and 30000/1001 uses 30000 (1001 a frame); no time is ever rounded. (Small
/// scales such as 600 are exact too, but ffmpeg then misjudges the durations of reordered frames.)
///
/// Decode times may start below zero when the encoder reorders frames (B-frames). The whole decode
/// timeline is shifted so it starts at zero, each sample's composition offset is `pts - dts`, and an
/// edit list starting at the shift makes the first frame appear at time zero.
struct MovieTimeline {
    let timescale: Int32
    let frameDuration: Int64
    private var pending: (packet: EncodedPacket, bytes: Int)?
    private var shift: Int64?
    private var latestPresentationEnd: Int64 = 0
    private(set) var sampleCount = 0

    init(frameRate: FrameRate) {
        var multiplier = 1
        while frameRate.numerator * multiplier < 10000 { multiplier *= 2 }
        timescale = Int32(frameRate.numerator * multiplier)
        frameDuration = Int64(frameRate.denominator * multiplier)
    }

    /// The presentation time of frame `index`, in ticks.
    func presentationTime(ofFrame index: Int) -> Int64 {
        Int64(index) * frameDuration
    }

    /// Accepts the next packet in decode order; returns the previous packet's finished sample, whose
    /// decode duration was only known once this packet arrived.
    mutating func add(_ packet: EncodedPacket) -> Sample? {
        if shift == nil { shift = max(0, -packet.decodeTime) }
        latestPresentationEnd = max(latestPresentationEnd, packet.presentationTime + frameDuration)
        defer { pending = (packet, packet.data.count) }
        guard let previous = pending else { return nil }
        return sample(
            for: previous.packet, size: previous.bytes, duration: packet.decodeTime - previous.packet.decodeTime)
    }

    /// Finishes the last packet: it lasts until the end of the last presented frame.
    mutating func finish() -> Sample? {
        guard let last = pending else { return nil }
        pending = nil
        return sample(
            for: last.packet, size: last.bytes, duration: max(1, latestPresentationEnd - last.packet.decodeTime))
    }

    /// The edit list that presents the movie from its first frame for exactly `frames` frame durations.
    func editList(frames: Int) -> EditListEntry? {
        guard let shift, shift > 0 else { return nil }
        return EditListEntry(segmentDuration: UInt64(frames) * UInt64(frameDuration), mediaTime: shift)
    }

    private mutating func sample(for packet: EncodedPacket, size: Int, duration: Int64) -> Sample {
        sampleCount += 1
        return Sample(
            size: UInt32(size), duration: UInt32(clamping: duration),
            compositionOffset: UInt32(clamping: packet.presentationTime - packet.decodeTime), isSync: packet.isKeyframe)
    }
}
