import FlipbookTestSupport
import Foundation
import ISOBMFF
import MediaModel
import Testing

@testable import Flipbook

/// Movies with a video and a sound track, written by the muxer the writer uses and judged by
/// ffprobe and ffmpeg: both streams, every packet's time, chunks of the two tracks interleaved.
@Suite struct TwoTrackMuxingTests {
    static let frames = 60
    static let videoTimescale: UInt32 = 12000
    static let audioRate: UInt32 = 48000
    /// PCM frames in one audio sample.
    static let audioFramesPerSample = 1024

    /// 16-bit stereo PCM (`sowt`, QuickTime's little-endian PCM, which ffmpeg reads in MP4 too): a
    /// stand-in for a real soundtrack's sample entry.
    struct PCMSampleEntry: SampleEntry {
        var media: MediaKind { .audio }
        var codecName: String { "pcm_s16le" }
        func write(to writer: inout ByteWriter, isQuickTime: Bool) {
            writer.box("sowt") { w in
                w.putZeros(6)
                w.putUInt16(1)  // data_reference_index
                w.putZeros(8)  // version, revision, vendor
                w.putUInt16(2)  // channelcount
                w.putUInt16(16)  // samplesize
                w.putZeros(4)  // compression ID, packet size
                w.putUInt32(TwoTrackMuxingTests.audioRate << 16)
            }
        }
    }

    /// Real H.264 samples from x264 for `frames` frames at 30 fps, and the video track.
    static func videoSamples() throws -> ([MediaSample], Track) {
        var settings = VideoSettings(width: 64, height: 48, preset: .ultrafast)
        // A keyframe at least every half second, so a fragmented movie can end fragments there.
        settings.fragmentDuration = MediaTime(value: 1, timescale: 2)
        let matrix = ColourMatrix(settings.colourStandard, settings.colourRange)
        let encoder = try X264Encoder(settings: settings, colour: matrix)
        let preparer = FramePreparer(settings: settings, matrix: matrix)
        var timeline = try MovieTimeline(timescale: Int32(videoTimescale), frameRate: settings.frameRate)
        var samples: [MediaSample] = []
        for index in 0..<frames {
            try timeline.schedule(at: nil, duration: nil)
            let frame = try MovieWriterTests.syntheticFrame(index, width: 64, height: 48)
            for packet in try encoder.encode(try preparer.prepare(frame), presentationTime: Int64(index)) {
                if let sample = try timeline.add(packet) { samples.append(sample) }
            }
        }
        for packet in try encoder.flush() { if let sample = try timeline.add(packet) { samples.append(sample) } }
        if let last = try timeline.finish() { samples.append(last) }
        let track = Track(
            trackID: 1, timescale: videoTimescale, codec: encoder.sampleEntry,
            editList: timeline.editList() ?? [])
        return (samples, track)
    }

    /// PCM samples covering the video's two seconds: a quiet tone, each sample 1024 stereo frames.
    static func audioSamples() -> [MediaSample] {
        let count = (frames * Int(audioRate) / 30 + audioFramesPerSample - 1) / audioFramesPerSample
        return (0..<count).map { index in
            var data = [UInt8](repeating: 0, count: audioFramesPerSample * 4)
            for frame in 0..<audioFramesPerSample {
                let t = Double(index * audioFramesPerSample + frame) / Double(audioRate)
                let value = Int16(2000 * sin(2 * Double.pi * 440 * t))
                let bits = UInt16(bitPattern: value)
                for channel in 0..<2 {
                    data[frame * 4 + channel * 2] = UInt8(bits & 0xFF)
                    data[frame * 4 + channel * 2 + 1] = UInt8(bits >> 8)
                }
            }
            return MediaSample(data: data, duration: UInt32(audioFramesPerSample), isSync: true)
        }
    }

    /// The session the destination's container asks for, writing through the writer's file sink.
    final class SessionOutput {
        var session: any MuxingSession
        let sink: MovieFileSink

        init(_ url: URL, fragmentDuration: UInt64? = nil) throws {
            let destination = try MovieDestination(url, overwrite: false)
            sink = try MovieFileSink(destination: destination, playable: fragmentDuration != nil)
            session = try destination.container.record.makeSession(
                timescales: [videoTimescale, audioRate], alignment: sink.blockSize, fragmentDuration: fragmentDuration)
        }

        func append(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws {
            try sink.perform(session.add(sample, track: track, tracks: tracks))
        }

        func commit(tracks: [Track], extensions: [MovieExtension]) throws {
            try sink.perform(session.finish(tracks: tracks, extensions: extensions))
            try sink.commit()
        }
    }

    /// Writes both tracks through `output`, fed in step: before each video sample, the sound up to its time.
    static func write(to output: SessionOutput, extensions: [MovieExtension] = []) throws -> (
        video: Int, audio: Int
    ) {
        let (video, videoTrack) = try videoSamples()
        let audio = audioSamples()
        let audioTrack = Track(trackID: 2, timescale: audioRate, codec: PCMSampleEntry())
        let tracks = { [videoTrack, audioTrack] }
        var audioIndex = 0
        var videoTime: UInt64 = 0
        for sample in video {
            while audioIndex < audio.count,
                UInt64(audioIndex * audioFramesPerSample) * UInt64(videoTimescale) <= videoTime * UInt64(audioRate)
            {
                try output.append(audio[audioIndex], track: 1, tracks: tracks)
                audioIndex += 1
            }
            try output.append(sample, track: 0, tracks: tracks)
            videoTime += UInt64(sample.duration)
        }
        while audioIndex < audio.count {
            try output.append(audio[audioIndex], track: 1, tracks: tracks)
            audioIndex += 1
        }
        try output.commit(tracks: tracks(), extensions: extensions)
        return (video.count, audio.count)
    }

    struct Packet {
        var stream: Int
        var seconds: Double
        var position: Int
    }

    /// Every packet of every stream, with its presentation time in seconds and its file position.
    static func packets(of movie: String) throws -> (streams: [String], packets: [Packet]) {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_name:packet=stream_index,pts_time,pos", "-of", "json",
                movie,
            ])
        #expect(result.stderr.isEmpty, "ffprobe: \(result.stderr)")
        guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let streams = object["streams"] as? [[String: Any]], let packets = object["packets"] as? [[String: Any]]
        else { throw JudgeError(description: "ffprobe could not read \(movie): \(result.stderr)") }
        return (
            streams.map { $0["codec_name"] as? String ?? "?" },
            packets.map {
                Packet(
                    stream: ($0["stream_index"] as? NSNumber)?.intValue ?? -1,
                    seconds: Double($0["pts_time"] as? String ?? "") ?? .nan,
                    position: Int($0["pos"] as? String ?? "") ?? -1)
            }
        )
    }

    /// Checks what ffprobe and ffmpeg read of a two-track movie.
    static func judge(_ movie: String, video: Int, audio: Int) throws {
        let (streams, packets) = try packets(of: movie)
        #expect(streams == ["h264", "pcm_s16le"])
        let videoTimes = packets.filter { $0.stream == 0 }.map(\.seconds).sorted()
        let audioTimes = packets.filter { $0.stream == 1 }.map(\.seconds)
        #expect(videoTimes.count == video)
        #expect(audioTimes.count == audio)
        for (index, time) in videoTimes.enumerated() {
            #expect(abs(time - Double(index) / 30) < 1e-6, "video frame \(index) at \(time) s")
        }
        for (index, time) in audioTimes.enumerated() {
            let expected = Double(index * audioFramesPerSample) / Double(audioRate)
            #expect(abs(time - expected) < 1e-6, "audio sample \(index) at \(time) s")
        }
        // Interleaved: read front to back, the file never runs more than about a second (one chunk)
        // ahead of or behind the latest time it has reached.
        let inFileOrder = packets.sorted { $0.position < $1.position }
        var latest = 0.0
        var switches = 0
        for (previous, packet) in zip(inFileOrder, inFileOrder.dropFirst()) {
            latest = max(latest, previous.seconds)
            #expect(latest - packet.seconds <= 1.05, "packet at \(packet.seconds) s comes after \(latest) s")
            if packet.stream != previous.stream { switches += 1 }
        }
        #expect(switches >= 3, "the tracks' chunks alternate, not one track after the other (\(switches) switches)")
        #expect(try Judge.decodeErrors(of: movie) == "")
    }

    @Test func aFaststartMovieHoldsBothTracksInterleavedByTime() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("two.mp4")
        let file = try SessionOutput(url)
        let (video, audio) = try Self.write(to: file)
        try Self.judge(url.path, video: video, audio: audio)
    }

    @Test func aFragmentedMovieCarriesBothTracksInEveryFragment() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("two-fragmented.mp4")
        let file = try SessionOutput(url, fragmentDuration: 6000)
        let (video, audio) = try Self.write(to: file)
        try Self.judge(url.path, video: video, audio: audio)
        let moofs = try BoxReader.parse([UInt8](Data(contentsOf: url))).filter { $0.type == "moof" }
        #expect(moofs.count >= 2)
        for moof in moofs {
            #expect(moof.children.filter { $0.type == "traf" }.count == 2, "each fragment has a run of each track")
        }
    }
}

/// A join copies one video track: a segment with a second track is refused by name, not joined
/// without its sound.
@Suite struct TwoTrackSegmentTests {
    @Test func aSegmentWithTwoTracksIsRefusedNotJoinedWithoutOne() throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("part-1.mp4")
        let file = try TwoTrackMuxingTests.SessionOutput(url)
        let info = SegmentInfo(
            segment: try Segment(parsing: "1/1", environment: [:]), firstFrame: 0, frames: TwoTrackMuxingTests.frames,
            totalFrames: TwoTrackMuxingTests.frames, settings: "test")
        _ = try TwoTrackMuxingTests.write(to: file, extensions: [info.box])
        let joined = dir.url.appendingPathComponent("joined.mp4")
        do {
            _ = try MovieJoiner.join(segments: [url], to: joined)
            Issue.record("a two-track segment must be refused")
        } catch let error as FlipbookError {
            #expect(error.code == .invalidSettings)
            #expect(error.path == url.path)
            #expect(error.message.contains("2 tracks"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: joined.path))
    }
}
