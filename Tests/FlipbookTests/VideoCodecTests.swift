import ISOBMFF
import Testing

@testable import Flipbook

/// The codec records: one per codec, each read by the settings' checks with one wording, and each
/// naming a sample entry the muxer's table knows.
@Suite struct VideoCodecTests {
    @Test func eachCodecIsFoundByItsNameInAnyCase() {
        for codec in VideoCodec.allCases {
            #expect(VideoCodec(name: codec.name.uppercased()) == codec)
            #expect(codec.record.probeName == codec.name, "ffprobe's name is --codec's name")
        }
        #expect(VideoCodec(name: "vp8") == nil)
        #expect(VideoCodec.nameList == "h264, hevc, av1, vp9, prores, ffv1, gif or webp")
    }

    @Test func theSettingsChecksAreTheCodecsOwn() throws {
        func message(_ settings: VideoSettings) -> String? {
            do {
                try settings.validate()
                return nil
            } catch let error as FlipbookError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message(VideoSettings(width: 64, height: 64, crf: 52))
                == "CRF 52 is out of range for h264; use 0 (best) to 51 (smallest)")
        #expect(
            message(VideoSettings(width: 64, height: 64, crf: 0, codec: .av1))
                == "CRF 0 is out of range for av1; use 1 (best) to 63 (smallest)")
        #expect(
            message(VideoSettings(width: 8, height: 8, codec: .hevc))
                == "size 8x8 is outside what hevc encodes: 16x16 to 16384x16384")
        #expect(
            message(VideoSettings(width: 65, height: 48))
                == "size 65x48 has an odd side; 4:2:0 video needs even sides, such as 66x48")
        #expect(
            message(VideoSettings(width: 64, height: 64, frameRate: FrameRate(300), codec: .av1))
                == "av1 (SVT-AV1) takes at most 240 frames a second, and this movie is 300 fps")
        #expect(
            message(VideoSettings(width: 64, height: 64, codec: .hevc, bitDepth: 12))?.hasSuffix("use 8 or 10") == true)
        var lossless = VideoSettings(width: 64, height: 64, codec: .hevc)
        lossless.lossless = true
        #expect(message(lossless) == "lossless encoding is available for 8-bit h264, ffv1 or webp only")
        for codec in VideoCodec.allCases {
            #expect(message(VideoSettings(width: 1280, height: 720, codec: codec)) == nil, "\(codec)")
        }
    }

    @Test func theDecoderLimitIsEachCodecsLevel() {
        #expect(VideoCodec.h264.decoderLimit(width: 4096, height: 2304) == nil)
        #expect(VideoCodec.h264.decoderLimit(width: 4112, height: 2304)?.contains("level 5.2") == true)
        #expect(VideoCodec.hevc.decoderLimit(width: 4096, height: 2176) == nil)
        #expect(VideoCodec.av1.decoderLimit(width: 4096, height: 2192) == "AV1 past 4096x2176 (level 5.1)")
    }

    @Test func everyCodecOpensItsOwnEncoder() throws {
        for codec in VideoCodec.allCases {
            let settings = VideoSettings(width: 128, height: 96, codec: codec)
            let encoder = try VideoEncoders.make(settings: settings, colour: .bt709)
            #expect(encoder.codecName == codec.name)
            // An animated image's frames go to its container's session as RGBA; it has no sample entry.
            guard !codec.isAnimatedImage else {
                #expect(encoder.pictureFormat.isPackedRGBA, "\(codec)")
                continue
            }
            let entry = try #require(encoder.sampleEntry as? VideoSampleEntry)
            #expect(entry.codecName == codec.name && entry.format == codec.record.sampleEntryType)
            #expect(ChromaFormat.yuv420.chromaSize(width: 7, height: 5) == (4, 3))
        }
    }

    @Test func everyEncoderOfEveryCodecOpensAndWritesItsCodecsEntry() throws {
        for codec in VideoCodec.allCases where !codec.isAnimatedImage {
            for name in codec.encoderNames {
                let chosen = try codec.encoded(by: name)
                #expect(chosen == codec && chosen.encoder == name)
                let settings = VideoSettings(width: 128, height: 96, codec: chosen)
                let encoder = try VideoEncoders.make(settings: settings, colour: .bt709)
                let entry = try #require(encoder.sampleEntry as? VideoSampleEntry)
                #expect(entry.format == codec.record.sampleEntryType, "\(codec) by \(name)")
            }
        }
    }

    @Test func aCodecsEncodersAreItsOwnAndTheFirstIsTheDefault() throws {
        #expect(VideoCodec.av1.encoderNames == ["svt-av1", "libaom"])
        #expect(VideoCodec.av1.encoder == "svt-av1" && VideoCodec.av1.isDefaultEncoder)
        let libaom = try VideoCodec.av1.encoded(by: "LIBAOM")
        #expect(libaom.encoder == "libaom" && !libaom.isDefaultEncoder && libaom.encoderName == "libaom")
        // The encoder's facts answer for the value: libaom's CRF scale and default, its one pass.
        #expect(libaom.crfRange == 0...63 && libaom.defaultCRF == 32 && !libaom.takesTwoPasses)
        #expect(VideoCodec.av1.crfRange == 1...63 && VideoCodec.av1.defaultCRF == 35)
        do {
            _ = try VideoCodec.av1.encoded(by: "x264")
            Issue.record("x264 is not an encoder of AV1")
        } catch let error as FlipbookError {
            #expect(error.code == .invalidSettings)
            #expect(
                error.message == "encoder x264 is not one of av1's encoders; use svt-av1 (the default) or libaom",
                "\(error.message)")
            #expect(error.origin.hasPrefix("Flipbook/VideoCodec.swift:"), "\(error.origin)")
        }
        for codec in VideoCodec.allCases {
            #expect(try codec.encoded(by: codec.encoder).encoder == codec.encoder)
        }
    }

    @Test func aLevelIsRefusedOfAnEncoderThatMarksNone() throws {
        var settings = VideoSettings(width: 640, height: 360, codec: try VideoCodec.av1.encoded(by: "libaom"))
        settings.level = CodecLevel(major: 4, minor: 0)
        #expect(throws: FlipbookError.self) { try settings.validate() }
        settings.codec = .av1
        try settings.validate()
    }
}
