import Foundation
import ISOBMFF
import MediaModel

/// The movie's clock: when each frame is presented, and how the encoder's packets become MP4 samples.
///
/// Presentation: a frame starts at the time it was given, or where the previous frame ends; it lasts
/// the duration it was given, or one frame at the nominal rate, or until the next frame starts when
/// that one was given an explicit time. Times strictly increase; a frame may not start before a
/// previous frame's explicit duration is over.
///
/// The encoder counts time in frames: frame `i` is given to it at time `i`, as ffmpeg does, so its
/// rate control sees one frame per nominal frame duration whatever the movie's clock; its packets'
/// times are frame numbers (decode times below zero while frames are reordered) that the timeline
/// turns back into the movie's ticks.
///
/// Samples: decode times may start below zero when the encoder reorders frames (B-frames). The
/// decode timeline is shifted to start at zero, each sample's composition offset is `pts - dts`, and
/// an edit list starting at the first frame's composition time presents it at its own time (zero
/// unless the first frame was given a later time, which an empty edit keeps). The last sample lasts
/// until the last frame's presentation ends, so the media holds every frame for its full duration.
struct MovieTimeline {
    /// Ticks a second.
    let timescale: Int32
    /// One frame at the nominal rate, in ticks.
    let nominalFrameDuration: Int64

    /// Every scheduled frame's presentation time in ticks, by frame number.
    private var presentationTimes: [Int64] = []
    /// How long the latest frame lasts, in ticks, and whether that duration was given.
    private var latestDuration: (ticks: Int64, isExplicit: Bool) = (0, false)

    /// Frames scheduled so far.
    var frameCount: Int { presentationTimes.count }
    /// The first frame's presentation time in ticks (0 before any).
    var firstPresentationTime: Int64 { presentationTimes.first ?? 0 }

    /// The latest packet, whose decode duration is known only once the next one arrives.
    private var pending: EncodedPacket?
    private var decodeShift: Int64?

    init(timescale: Int32, frameRate: FrameRate) throws {
        self.timescale = timescale
        guard let duration = frameRate.frameDuration.exactly(inTimescale: timescale) else {
            throw FlipbookError.timescaleCannotHoldFrame(timescale, frameRate: frameRate)
        }
        nominalFrameDuration = duration.value
    }

    /// Whole frames at the nominal rate from `start` to `end` ticks (a frame shown longer counts as many).
    func frames(from start: Int64, to end: Int64) -> Int {
        Int((end - start) / nominalFrameDuration)
    }

    /// Where presentation ends: the latest frame's start plus its duration, in ticks.
    var presentationEnd: Int64 {
        presentationTimes.last.map { $0 + latestDuration.ticks } ?? 0
    }

    /// Decides when frame `frameCount` is presented, validating the caller's time and duration.
    ///
    /// - Returns: The presentation time in ticks.
    @discardableResult
    mutating func schedule(at time: MediaTime?, duration: MediaTime?) throws -> Int64 {
        let index = frameCount
        let ticks = try time.map { try self.ticks($0, what: "presentation time", frame: index) }
        let length = try duration.map { try self.ticks($0, what: "duration", frame: index) }
        if let length, length <= 0 {
            throw FlipbookError.durationNotPositive(show(length), frame: index)
        }
        if let length { try checkFits(length, what: "the duration \(show(length))", frame: index) }
        let start = ticks ?? presentationEnd
        if let latest = presentationTimes.last {
            if start > latest {
                try checkFits(
                    start - latest,
                    what: "the presentation time \(show(start)) is \(show(start - latest)) after "
                        + "frame \(index - 1)'s, which", frame: index)
            }
            guard start > latest else {
                throw FlipbookError.presentationTimeNotAfterPrevious(show(start), previous: show(latest), frame: index)
            }
            if latestDuration.isExplicit && start < latest + latestDuration.ticks {
                throw FlipbookError.presentationTimeBeforePreviousEnds(
                    show(start), previousEnd: show(latest + latestDuration.ticks),
                    previousDuration: show(latestDuration.ticks), frame: index)
            }
        } else {
            guard start >= 0 else {
                throw FlipbookError.presentationTimeBeforeZero(show(start), frame: index)
            }
        }
        latestDuration = (length ?? nominalFrameDuration, length != nil)
        presentationTimes.append(start)
        return start
    }

    /// Makes the latest frame last until `time`, as if it had been given that duration (the images
    /// after it were left out).
    mutating func extendLatest(until time: MediaTime) throws {
        guard let latest = presentationTimes.last else { return }
        let end = try ticks(time, what: "end time", frame: frameCount - 1)
        guard end > latest else {
            throw FlipbookError.endTimeNotAfterLastFrame(show(end), frame: frameCount - 1)
        }
        try checkFits(
            end - latest, what: "the end time \(show(end)) leaves the last frame lasting \(show(end - latest)), which",
            frame: frameCount - 1)
        latestDuration = (end - latest, true)
    }

    /// A clock for samples copied from other movies (a join), whose times are already in ticks: no
    /// nominal frame rate (a frame lasts one tick unless given a time or duration).
    init(copyingTimescale timescale: Int32) {
        self.timescale = timescale
        nominalFrameDuration = 1
    }

    /// Accepts the next packet from the encoder, in decode order; returns the previous packet as a
    /// whole sample, whose decode duration was only known once this packet arrived.
    ///
    /// - Throws: `.invalidTimestamp` when that sample's decode duration or composition offset does
    ///   not fit the 32 bits of an MP4 sample (reordered frames far apart).
    mutating func add(_ encoded: EncodedPacket) throws -> MediaSample? {
        var packet = encoded
        packet.presentationTime = ticks(ofEncoderTime: encoded.presentationTime)
        packet.decodeTime = ticks(ofEncoderTime: encoded.decodeTime)
        return try add(inTicks: packet)
    }

    /// Accepts the next packet in decode order with its times already in ticks (a copied sample).
    mutating func add(inTicks packet: EncodedPacket) throws -> MediaSample? {
        if decodeShift == nil { decodeShift = -packet.decodeTime }
        defer { pending = packet }
        guard let previous = pending else { return nil }
        return try sample(for: previous, duration: packet.decodeTime - previous.decodeTime)
    }

    /// Finishes the last packet: it lasts until the latest frame's presentation ends.
    mutating func finish() throws -> MediaSample? {
        guard let last = pending else { return nil }
        pending = nil
        return try sample(for: last, duration: max(1, presentationEnd - last.decodeTime))
    }

    /// The edit list that presents the media from its first frame, at that frame's own time.
    func editList() -> [EditListEntry]? {
        let shift = decodeShift ?? 0
        let mediaStart = firstPresentationTime + shift
        let segment = EditListEntry(
            segmentDuration: UInt64(presentationEnd - firstPresentationTime), mediaTime: mediaStart)
        if firstPresentationTime > 0 {
            return [EditListEntry(segmentDuration: UInt64(firstPresentationTime), mediaTime: -1), segment]
        }
        return mediaStart == 0 ? nil : [segment]
    }

    /// The packet as a sample; its decode duration and composition offset are never clamped: one
    /// that does not fit 32 bits is refused.
    private func sample(for packet: EncodedPacket, duration: Int64) throws -> MediaSample {
        let offset = packet.presentationTime - packet.decodeTime
        guard let ticks = UInt32(exactly: duration), let shift = UInt32(exactly: offset) else {
            let index = presentationTimes.firstIndex(of: packet.presentationTime)
            throw FlipbookError.sampleOffsetTooLong(
                presentedAt: show(packet.presentationTime), decodedBefore: show(offset), lasting: show(duration),
                frame: index)
        }
        return MediaSample(
            data: packet.data, duration: ticks, compositionOffset: shift, isSync: packet.isKeyframe, alpha: packet.alpha
        )
    }

    /// A frame number from the encoder in ticks: a frame's own time, or, before the first frame
    /// (reordering delay), whole nominal frames before it.
    private func ticks(ofEncoderTime frame: Int64) -> Int64 {
        guard let first = presentationTimes.first, let last = presentationTimes.last else {
            return frame * nominalFrameDuration
        }
        if frame < 0 { return first + frame * nominalFrameDuration }
        if frame < Int64(presentationTimes.count) { return presentationTimes[Int(frame)] }
        return last + (frame - Int64(presentationTimes.count) + 1) * nominalFrameDuration
    }

    /// A caller's time in ticks of the movie's clock, or an error saying how to make it exact.
    private func ticks(_ time: MediaTime, what: String, frame index: Int) throws -> Int64 {
        guard let exact = time.exactly(inTimescale: timescale) else {
            throw FlipbookError.timeNotWholeTicks(what, time, timescale: timescale, frame: index)
        }
        return exact.value
    }

    /// Ticks as exact seconds for messages: `2.5 s (30000/12000)`.
    /// Throws unless `ticks` fit one MP4 sample's duration (32 bits), rather than letting the
    /// sample table wrap them: `what` is the start of the sentence.
    private func checkFits(_ ticks: Int64, what: String, frame: Int) throws {
        guard ticks > Int64(UInt32.max) else { return }
        throw FlipbookError.frameTooLongForMP4(what, timescale: timescale, frame: frame)
    }

    private func show(_ ticks: Int64) -> String {
        let seconds = Double(ticks) / Double(timescale)
        return "\(String(format: "%.6g", seconds)) s (\(ticks)/\(timescale))"
    }
}
