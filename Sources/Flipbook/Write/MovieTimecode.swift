import ISOBMFF
import MediaModel

/// A movie's timecode as each container holds it: a timecode track (`tmcd`, its one sample the first
/// picture's frame number, referenced by the video track's `tref`) in a progressive MP4 or QuickTime
/// movie, a `TIMECODE` tag in Matroska. A fragmented movie and an animated image hold none.
struct MovieTimecode {
    /// The first picture's timecode.
    let start: Timecode
    let frameRate: FrameRate

    /// The timecode track's ID: after the pictures' and the sound's.
    static let trackID = UInt32(TrackKind.allCases.count + 1)

    /// The track's time units per second: the rate's numerator, so a frame is its denominator.
    var timescale: UInt32 { UInt32(frameRate.numerator) }

    /// The `TIMECODE` tag's item.
    var tag: MovieTags.Item { MovieTags.Item(name: "timecode", value: start.description) }

    /// The timecode track: one entry counting frames at the rate, drop-frame when the start is.
    func track() -> Track {
        Track(
            trackID: Self.trackID, timescale: timescale,
            codec: TimecodeSampleEntry(
                timescale: timescale, frameDuration: UInt32(frameRate.denominator),
                framesPerSecond: UInt8(clamping: Timecode.framesPerSecond(frameRate)), dropFrame: start.dropFrame))
    }

    /// The track's one sample: the first picture's frame number, lasting the whole movie (pictures that
    /// end at `movieEnd` ticks of `movieTimescale`).
    func sample(movieEnd: Int64, movieTimescale: UInt32) -> MediaSample {
        let number = UInt32(truncatingIfNeeded: start.frameNumber(at: frameRate))
        let end = Double(max(movieEnd, 0)) * Double(timescale) / Double(max(movieTimescale, 1))
        let duration = UInt32(clamping: Int64(end.rounded(.up)))
        return MediaSample(
            data: [UInt8(number >> 24), UInt8(number >> 16 & 0xFF), UInt8(number >> 8 & 0xFF), UInt8(number & 0xFF)],
            duration: max(duration, 1), isSync: true)
    }
}
