import Foundation
import ISOBMFF
import MediaModel

/// What a segment file says about itself, stored in a private `uuid` box inside its `moov` (in a
/// Matroska or WebM segment, a binary tag named after the box's user type), so that a join can check
/// that every segment is there once and that all were made alike.
struct SegmentInfo: Codable, Equatable, Sendable {
    /// Which segment, from 1.
    var segment: Int
    /// Of how many.
    var segments: Int
    /// The first frame of the whole sequence this segment holds.
    var firstFrame: Int
    /// Frames in this segment.
    var frames: Int
    /// Frames in the whole sequence.
    var totalFrames: Int
    /// The settings every segment must share, as text.
    var settings: String
    /// The movie's ticks a second, and a frame's nominal length in them: how a Matroska segment's
    /// block times, rounded to ticks of 100 µs, are put back on the movie's clock exactly (every frame
    /// starts a whole number of nominal frames into the sequence). `nil` in older segments.
    var timescale: Int32?
    var frameDuration: Int64?
    /// The segment's first picture's timecode (`HH:MM:SS:FF`) and the frame rate it counts at
    /// (`24000/1001`): a join's movie starts at the first segment's. `nil` for none, and in older segments.
    var timecode: String?
    var frameRate: String?

    /// The user type naming the box: the 16 ASCII bytes `flipbook.segment`.
    static let userType = Array("flipbook.segment".utf8)

    var box: MovieExtension {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return MovieExtension(userType: Self.userType, payload: Array((try? encoder.encode(self)) ?? Data()))
    }

    /// Reads the info from a movie's `moov`; `nil` when the movie is not a Flipbook segment.
    init?(moov: Box, bytes: [UInt8]) {
        for box in moov.children("uuid") {
            if let info = MovieExtension(reading: box, in: bytes, userType: Self.userType),
                let decoded = SegmentInfo(payload: info.payload)
            {
                self = decoded
                return
            }
        }
        return nil
    }

    /// Reads the info from the payload of its box; `nil` when it is not a segment's description.
    init?(payload: [UInt8]) {
        guard let decoded = try? JSONDecoder().decode(SegmentInfo.self, from: Data(payload)) else { return nil }
        self = decoded
    }

    /// Describes a segment.
    ///
    /// - Parameters:
    ///   - timescale: The movie's ticks a second; `nil` when not recorded.
    ///   - frameDuration: A frame's nominal length in those ticks; `nil` when not recorded.
    init(
        segment: Segment, firstFrame: Int, frames: Int, totalFrames: Int, settings: String, timescale: Int32? = nil,
        frameDuration: Int64? = nil
    ) {
        self.segment = segment.index
        self.segments = segment.count
        self.firstFrame = firstFrame
        self.frames = frames
        self.totalFrames = totalFrames
        self.settings = settings
        self.timescale = timescale
        self.frameDuration = frameDuration
    }

    /// Describes a segment encoded with `settings`, its clock and timecode included.
    init(segment: Segment, firstFrame: Int, frames: Int, totalFrames: Int, settings: VideoSettings) {
        let timescale = settings.resolvedTimescale
        self.init(
            segment: segment, firstFrame: firstFrame, frames: frames, totalFrames: totalFrames,
            settings: settings.segmentSignature, timescale: timescale,
            frameDuration: settings.frameRate.frameDuration.exactly(inTimescale: timescale)?.value)
        timecode = settings.timecode.start?.description
        frameRate = timecode == nil ? nil : settings.frameRate.description
    }

    /// The timecode the segment's first picture has, as a movie's timecode; `nil` for none.
    var movieTimecode: MovieTimecode? {
        guard let timecode, let start = try? Timecode(parsing: timecode), let rate = frameRate,
            let frameRate = FrameRate(parsing: rate)
        else { return nil }
        return MovieTimecode(start: start, frameRate: frameRate)
    }
}

extension VideoSettings {
    /// The settings that decide the encoded stream, as text that segments must share.
    var segmentSignature: String {
        "\(width)x\(height) fps=\(frameRate) crf=\(crf) preset=\(preset.rawValue) timescale=\(resolvedTimescale)"
            + (rotation == .upright ? "" : " rotate=\(rotation.degrees)")
    }
}
