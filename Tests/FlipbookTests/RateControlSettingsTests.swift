import Foundation
import Testing

@testable import Flipbook

/// The library's side of rate control and encoder choices: what `VideoSettings.validate()` refuses,
/// the levels' limits against the standards' tables, the parsing of levels and parameters, and the
/// next rate a target size tries.
@Suite struct RateControlSettingsTests {
    func settings(_ change: (inout VideoSettings) -> Void) -> VideoSettings {
        var settings = VideoSettings(width: 1920, height: 1080, frameRate: FrameRate(30))
        change(&settings)
        return settings
    }

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

    @Test func theLowestLevelThatHoldsAMovieIsNamed() {
        // H.264 Table A-1: 1080p30 needs level 4 (8192 macroblocks a frame, 245760 a second); 720p30 fits 3.1.
        #expect(message(settings { $0.level = CodecLevel(major: 4, minor: 0) }) == nil)
        let tooLow = message(settings { $0.level = CodecLevel(major: 3, minor: 1) })
        #expect(tooLow?.hasPrefix("level 3.1 of h264 holds pictures of at most 921600 luma samples") == true)
        #expect(tooLow?.hasSuffix("use level 4 or higher") == true)
        // 1080p60 is 489600 macroblocks a second: past 4.1 (245760), within 4.2 (522240).
        let fast = message(
            settings {
                $0.frameRate = FrameRate(60)
                $0.level = CodecLevel(major: 4, minor: 1)
            })
        #expect(fast?.contains("use level 4.2 or higher") == true, "\(fast ?? "")")
        // HEVC Table A.8: 2160p60 needs 5.1; AV1 Annex A.3: 2160p30 needs 5.0.
        let uhd = settings {
            $0.width = 3840
            $0.height = 2160
            $0.codec = .hevc
            $0.frameRate = FrameRate(60)
            $0.level = CodecLevel(major: 5, minor: 0)
        }
        #expect(message(uhd)?.hasSuffix("use level 5.1 or higher") == true)
        #expect(
            message(
                settings {
                    $0 = uhd
                    $0.level = CodecLevel(major: 5, minor: 1)
                }) == nil)
        let av1 = settings {
            $0 = uhd
            $0.codec = .av1
            $0.crf = 35
            $0.frameRate = FrameRate(30)
            $0.level = CodecLevel(major: 4, minor: 1)
        }
        #expect(message(av1)?.hasSuffix("use level 5 or higher") == true)
        // A rate past the level's: H.264 level 3.1 holds 14 Mb/s in Main, 17.5 in High (the default).
        let rate = settings {
            $0.width = 1280
            $0.height = 720
            $0.level = CodecLevel(major: 3, minor: 1)
            $0.rateControl = .averageBitrate(20_000_000)
        }
        #expect(message(rate)?.contains("at most 17500 kb/s, and the movie asks for 20000 kb/s") == true)
        let main = settings {
            $0.width = 1280
            $0.height = 720
            $0.level = CodecLevel(major: 3, minor: 1)
            $0.profile = .main
            $0.rateControl = .averageBitrate(15_000_000)
        }
        #expect(message(main)?.contains("at most 14000 kb/s, and the movie asks for 15000 kb/s") == true)
    }

    @Test func levelsParseAsPeopleWriteThem() {
        #expect(CodecLevel(parsing: "3.1") == CodecLevel(major: 3, minor: 1))
        #expect(CodecLevel(parsing: "4") == CodecLevel(major: 4, minor: 0))
        #expect(CodecLevel(parsing: "4.0")?.description == "4")
        for bad in ["", "x", "4.", ".1", "4.12", "-1", "10", "4.1.1"] {
            #expect(CodecLevel(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func parametersParseAsFFmpegTakesThem() {
        #expect(
            EncoderParameter.list(parsing: "aq-mode=3:deblock=-1,-1")
                == [EncoderParameter(key: "aq-mode", value: "3"), EncoderParameter(key: "deblock", value: "-1,-1")])
        #expect(EncoderParameter.list(parsing: "=3") == nil)
        #expect(EncoderParameter.list(parsing: "ref") == nil)
        #expect(EncoderParameter.list(parsing: "") == nil)
    }

    @Test func choicesACodecDoesNotHaveAreRefused() {
        #expect(
            message(
                settings {
                    $0.codec = .hevc
                    $0.tune = "stillimage"
                })?.hasPrefix("tune stillimage") == true)
        #expect(
            message(settings { $0.profile = .main10 })?.hasPrefix("profile main10 is not available for h264") == true)
        #expect(message(settings { $0.profile = .high10 }) == "profile high10 is 10-bit, and the bit depth is 8")
        #expect(
            message(
                settings {
                    $0.bitDepth = 10
                    $0.profile = .high10
                }) == nil)
        #expect(
            message(
                settings {
                    $0.codec = .av1
                    $0.crf = 35
                    $0.bFrames = 3
                })?.contains("use only 0") == true)
        #expect(
            message(settings { $0.rateControl = .averageBitrate(0) })?.hasPrefix("bitrate 0 is out of range") == true)
        #expect(
            message(
                settings {
                    $0.codec = .av1
                    $0.crf = 35
                    $0.rateControl = .averageBitrate(1_000_000, passes: 2)
                })?
                .contains("in two passes is not available for av1") == true)
        #expect(
            message(settings { $0.encoderParameters = [EncoderParameter(key: "no-such-thing", value: "1")] })
                == "x264 does not know the parameter no-such-thing")
        #expect(
            message(
                settings {
                    $0.codec = .prores
                    $0.rateControl = .averageBitrate(1_000_000)
                }) != nil)
    }

    @Test func aWriterGivenFramesOneByOneRefusesTwoPasses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("out.mp4")
        for rateControl in [RateControl.averageBitrate(1_000_000, passes: 2), .targetSize(bytes: 1_000_000)] {
            var settings = VideoSettings(width: 64, height: 64)
            settings.rateControl = rateControl
            let error = #expect(throws: FlipbookError.self) { try MovieWriter(url: movie, settings: settings) }
            #expect(error?.code == .invalidSettings)
            #expect(error?.message.hasPrefix("two passes and a target size encode the frames twice") == true)
            #expect(!FileManager.default.fileExists(atPath: movie.path))
        }
    }

    @Test func theNextRateFollowsTheTriesSoFar() {
        var tries: [(rate: Double, video: Double)] = []
        // One try: in proportion.
        let second = TwoPassEncoding.nextRate(after: &tries, rate: 100_000, video: 200_000, goal: 100_000)
        #expect(second == 50_000)
        // Two: through both (bytes = rate + 100000 here), straight to the goal.
        let third = TwoPassEncoding.nextRate(after: &tries, rate: 50_000, video: 150_000, goal: 120_000)
        #expect(abs(third - 20_000) < 1)
        // A rate that moved no size: twice the proportional step.
        var flat: [(rate: Double, video: Double)] = [(100_000, 117_600)]
        let stepped = TwoPassEncoding.nextRate(after: &flat, rate: 98_000, video: 117_600, goal: 112_000)
        #expect(abs(stepped - 98_000 * (112_000.0 / 117_600) * (112_000.0 / 117_600)) < 1e-6)
        // Tries on both sides of the goal: between them (halfway here, as the last two fell on one side).
        var bracketed: [(rate: Double, video: Double)] = [(2_421_000, 15_069_868), (1_986_000, 11_924_739)]
        let between = TwoPassEncoding.nextRate(after: &bracketed, rate: 1_900_000, video: 11_000_000, goal: 14_500_000)
        #expect(between == (1_986_000 + 2_421_000) / 2)
    }

    @Test func theNextQualityBracketsTheGoalAndHalvesWhenOneSideStalls() {
        // One try: 6 CRF steps a halving.
        #expect(abs(TwoPassEncoding.nextCRF([(28, 100_000)], goal: 400_000) - 16) < 1e-9)
        // A try on each side: through both (the size exponential in the CRF).
        let both: [(crf: Double, video: Double)] = [(28, 100_000), (16, 1_600_000)]
        let through = TwoPassEncoding.nextCRF(both, goal: 400_000)
        #expect(abs(through - 22) < 1e-9)
        // The last two on one side of the goal: halfway between the closest on each side.
        let stalled: [(crf: Double, video: Double)] = [(28, 100_000), (2, 2_700_000), (4, 2_690_000)]
        #expect(TwoPassEncoding.nextCRF(stalled, goal: 2_000_000) == 16)
    }
}
