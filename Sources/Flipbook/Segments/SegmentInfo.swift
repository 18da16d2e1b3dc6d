import Foundation
import ISOBMFF

/// What a segment file says about itself, stored in a private `uuid` box inside its `moov`, so that
/// a join can check that every segment is there once and that all were made alike.
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

    /// The user type naming the box: the 16 ASCII bytes `flipbook.segment`.
    static let userType = Array("flipbook.segment".utf8)

    var box: UserExtensionBox {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return UserExtensionBox(userType: Self.userType, payload: Array((try? encoder.encode(self)) ?? Data()))
    }

    /// Reads the info from a movie's `moov`; `nil` when the movie is not a Flipbook segment.
    init?(moov: Box, bytes: [UInt8]) {
        for box in moov.children("uuid") {
            if let info = UserExtensionBox(reading: box, in: bytes, userType: Self.userType),
                let decoded = try? JSONDecoder().decode(SegmentInfo.self, from: Data(info.payload))
            {
                self = decoded
                return
            }
        }
        return nil
    }

    init(segment: Segment, firstFrame: Int, frames: Int, totalFrames: Int, settings: String) {
        self.segment = segment.index
        self.segments = segment.count
        self.firstFrame = firstFrame
        self.frames = frames
        self.totalFrames = totalFrames
        self.settings = settings
    }
}

extension VideoSettings {
    /// The settings that decide the encoded stream, as text that segments must share.
    var segmentSignature: String {
        "\(width)x\(height) fps=\(frameRate) crf=\(crf) preset=\(preset.rawValue) timescale=\(resolvedTimescale)"
            + (rotation == .upright ? "" : " rotate=\(rotation.degrees)")
    }
}
