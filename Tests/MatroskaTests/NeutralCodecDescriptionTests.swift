import FlipbookTestSupport
import Foundation
import MediaModel
import Testing

@testable import Matroska

/// Matroska writes from the media model alone: a track described without any MP4 sample entry gets
/// its `CodecID`, `CodecPrivate` and picture or sound facts from Matroska's own codec table, and a codec
/// the table does not hold is refused by name.
@Suite struct NeutralCodecDescriptionTests {
    /// A codec description that is nothing but the media model's facts.
    struct Description: CodecDescription {
        var media: MediaKind
        var codecName: String
        var codecConfiguration: [UInt8]?
        var picture: PictureDescription?
        var sound: SoundDescription?
    }

    static let opusHead: [UInt8] = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]

    static let video = Track(
        trackID: Track.videoTrackID, timescale: 30,
        codec: Description(
            media: .video(width: 64, height: 48), codecName: "av1", codecConfiguration: [0x81, 0x00, 0x0C, 0x00],
            picture: PictureDescription(
                colour: ColourDescription(9, 16, 9, fullRange: true),
                pixelAspectRatio: PixelAspectRatio(hSpacing: 4, vSpacing: 3), hasAlpha: false)))

    static let sound = Track(
        trackID: Track.soundTrackID, timescale: 48000,
        codec: Description(
            media: .audio, codecName: "opus", codecConfiguration: opusHead,
            sound: SoundDescription(sampleRate: 48000, channelCount: 2)))

    @Test func aTrackDescribedInTheMediaModelIsWrittenFromMatroskasOwnTable() throws {
        let pictures = try MatroskaTrack(Self.video, number: 1)
        #expect(pictures.codecID == "V_AV1" && pictures.isVideo && pictures.codecPrivate == [0x81, 0x00, 0x0C, 0x00])
        let sound = try MatroskaTrack(Self.sound, number: 2)
        #expect(sound.codecID == "A_OPUS" && !sound.isVideo && sound.codecPrivate == Self.opusHead)
        #expect(sound.seekPreRoll == 80_000_000 && sound.sampleRate == 48000 && sound.channels == 2)
    }

    @Test func theFileSaysWhatTheDescriptionSays() throws {
        var session = MatroskaSession(docType: .webm, isDurable: false, frameDuration: 33_333_333)
        var file: [UInt8] = []
        var syncs: [Int] = []
        let tracks = [Self.video, Self.sound]
        for index in 0..<30 {
            let picture = MediaSample(data: [UInt8(index), 1, 2, 3], duration: 1, isSync: index % 10 == 0)
            MatroskaSessionTests.perform(
                try session.add(picture, track: 0, tracks: { tracks }), on: &file, syncs: &syncs)
            let sound = MediaSample(data: [0xFC, 0xFF, 0xFE], duration: 1600, isSync: true)
            MatroskaSessionTests.perform(try session.add(sound, track: 1, tracks: { tracks }), on: &file, syncs: &syncs)
        }
        var finished = tracks
        finished[0].editList = [EditListEntry(segmentDuration: 30, mediaTime: 0)]
        finished[1].editList = [EditListEntry(segmentDuration: 30, mediaTime: 0)]
        MatroskaSessionTests.perform(
            try session.finish(tracks: finished, extensions: []), on: &file, syncs: &syncs)
        let dir = try TemporaryDirectory()
        let path = dir.path("neutral.webm")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let identified = try MatroskaJudge.identify(path)
        #expect(identified.recognized && identified.errors.isEmpty, "\(identified)")
        #expect(identified.codecIDs == ["V_AV1", "A_OPUS"])
        // ffprobe reads the picture's colour and shape as the description gave them.
        let probed = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "quiet", "-select_streams", "v:0", "-show_entries",
                "stream=width,height,color_range,color_space,color_transfer,color_primaries", "-of", "csv=p=0", path,
            ])
        #expect(
            probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "64,48,pc,bt2020nc,smpte2084,bt2020",
            "\(probed.stdout)")
    }

    @Test func aCodecOutsideMatroskasTableIsRefusedByName() {
        let track = Track(
            timescale: 30,
            codec: Description(media: .video(width: 64, height: 48), codecName: "cinepak", codecConfiguration: nil))
        #expect(throws: MuxingError.codecNotHeld("cinepak", in: "Matroska")) {
            _ = try MatroskaTrack(track, number: 1)
        }
    }
}
