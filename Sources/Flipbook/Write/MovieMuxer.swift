import Foundation
import ISOBMFF
import Matroska
import MediaModel

/// Every movie's way to its file, for the writer and the joiner alike: the muxing session the
/// destination's container asks for, the sink that performs its actions, and the soundtrack
/// handed to the session in step with the pictures.
///
/// The caller hands over the video track's samples in decode order; before each one the sound that
/// starts by its decode time goes in, so picture and sound of the same moment lie together in the
/// file. ``finish(video:movieEnd:extensions:)`` adds the sound still due, cut to the pictures'
/// length, and renames the complete movie over the destination.
final class MovieMuxer {
    private var session: any MuxingSession
    private let sink: MovieFileSink
    /// The soundtrack's packets, handed to the session in step with the pictures.
    var sound: (any SoundFeed)?
    /// The decode time reached by the video samples stored, in the movie's ticks.
    private var videoDecodeTime: Int64 = 0
    /// The timecode, when the movie has a timecode track (a progressive MP4 or QuickTime movie).
    private let timecodeTrack: MovieTimecode?
    private let videoTimescale: UInt32

    /// Creates the hidden file beside `destination` and the session for its container.
    ///
    /// - Parameters:
    ///   - videoTimescale: The video track's (and the movie's) ticks a second.
    ///   - sound: The soundtrack, the second track; none by default.
    ///   - fragmentDuration: The length of a fragment in movie ticks, for a fragmented movie; `nil`
    ///     for a progressive one.
    ///   - frameDuration: A picture's nominal length in nanoseconds, for containers that state it
    ///     (Matroska's `DefaultDuration`); none by default.
    ///   - tags: The creation time and tags written in `moov`; none by default.
    ///   - animation: How an animated image (GIF, WebP) encodes its frames; `nil` for a movie.
    ///   - timecode: The movie's timecode, where the container holds one (``MovieTimecode``); none by default.
    init(
        destination: MovieDestination, videoTimescale: UInt32, sound: (any SoundFeed)? = nil,
        fragmentDuration: UInt64? = nil, frameDuration: UInt64? = nil, tags: MovieTags = MovieTags(),
        animation: AnimationOptions? = nil, timecode: MovieTimecode? = nil
    ) throws {
        sink = try MovieFileSink(destination: destination, playable: fragmentDuration != nil)
        var timescales = [videoTimescale]
        if let sound { timescales.append(sound.timescale) }
        var tags = tags
        let container = destination.container
        timecodeTrack = container.isMatroska || container.isAnimatedImage || fragmentDuration != nil ? nil : timecode
        if let timecodeTrack { timescales.append(timecodeTrack.timescale) }
        if let timecode, container.isMatroska { tags.set([timecode.tag]) }
        self.videoTimescale = videoTimescale
        do {
            session = try destination.container.record.makeSession(
                timescales: timescales, alignment: sink.blockSize, fragmentDuration: fragmentDuration,
                frameDuration: frameDuration, tags: tags, animation: animation)
        } catch {
            sink.discard()
            throw error
        }
        self.sound = sound
    }

    /// What the caller should pass on about a committed movie.
    var warnings: [String] { session.warnings + sink.warnings }

    /// Numbers a file that samples' bytes are copied from (``MediaSample/withBytes(inSource:at:count:)``).
    func addSource(_ source: POSIXFile) -> Int { sink.addSource(source) }

    /// Stores the next video sample, after the sound that starts before it.
    ///
    /// - Parameter video: The video track as it stands (its edit list so far).
    func appendVideo(_ sample: MediaSample, video: () -> Track) throws {
        let tracks = { self.tracks(video: video(), movieEnd: nil) }
        if var feed = sound {
            for audio in try feed.samples(through: videoDecodeTime) {
                try sink.perform(session.add(audio, track: TrackKind.audio.index, tracks: tracks))
            }
            sound = feed
        }
        try sink.perform(session.add(sample, track: TrackKind.video.index, tracks: tracks))
        videoDecodeTime += Int64(sample.duration)
    }

    /// Stores the sound still due for pictures that end at `movieEnd`, completes the movie and
    /// renames it over the destination.
    ///
    /// - Parameters:
    ///   - video: The video track with its final edit list.
    ///   - movieEnd: Where the pictures end, in movie ticks.
    ///   - extensions: Private boxes for the movie's description (a segment's), where the container holds them.
    /// - Returns: The movie's size in bytes.
    func finish(video: Track, movieEnd: Int64, extensions: [MovieExtension] = []) throws -> UInt64 {
        if var feed = sound {
            let provisional = { self.tracks(video: video, movieEnd: nil) }
            for audio in try feed.finish(movieEnd: movieEnd) {
                try sink.perform(session.add(audio, track: TrackKind.audio.index, tracks: provisional))
            }
            sound = feed
        }
        if let timecodeTrack {
            let sample = timecodeTrack.sample(movieEnd: movieEnd, movieTimescale: videoTimescale)
            let provisional = { self.tracks(video: video, movieEnd: nil) }
            try sink.perform(session.add(sample, track: provisional().count - 1, tracks: provisional))
        }
        try sink.perform(session.finish(tracks: tracks(video: video, movieEnd: movieEnd), extensions: extensions))
        try sink.commit()
        return sink.size
    }

    /// Adds tags known only at the end, where the container still writes them (see
    /// ``MuxingSession/addClosingTags(_:)``); returns whether it does.
    @discardableResult
    func addClosingTags(_ items: [MovieTags.Item]) -> Bool { session.addClosingTags(items) }

    /// Removes the temporary files; the destination is not touched.
    func discard() { sink.discard() }

    /// The movie's tracks: the video track, the sound track with its edits for a movie ending at
    /// `movieEnd` (provisional ones without it), and the timecode track the pictures refer to.
    private func tracks(video: Track, movieEnd: Int64?) -> [Track] {
        var video = video
        video.timecodeTrackID = timecodeTrack == nil ? nil : MovieTimecode.trackID
        var tracks = [video]
        if let sound { tracks.append(sound.track(movieEnd: movieEnd)) }
        if let timecodeTrack { tracks.append(timecodeTrack.track()) }
        return tracks
    }
}

extension MovieMuxer {
    /// A frame of `duration` ticks of `timescale` in nanoseconds, rounded as Matroska's times are;
    /// `nil` when either is 0 or the length does not fit (a frame of centuries).
    static func nanoseconds(ofFrame duration: UInt64, timescale: UInt64) -> UInt64? {
        guard duration > 0, let ticks = Int64(exactly: duration), let scale = UInt32(exactly: timescale), scale > 0
        else { return nil }
        let nanoseconds = MatroskaClock.nanoseconds(ticks, timescale: scale)
        return nanoseconds == Int64.max ? nil : UInt64(nanoseconds)
    }
}
