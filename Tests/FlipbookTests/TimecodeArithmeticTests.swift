import Flipbook
import Testing

/// Timecode arithmetic against SMPTE 12M's drop-frame labels (the first two labels of each minute
/// skipped but every tenth at 29.97 fps, four at 59.94): known labels, and every frame of a day counted
/// to its label and back. The movies' timecodes are judged from outside by `TimecodeTests` (ffprobe,
/// MediaInfo); this holds the library's conversion between labels and frame counts.
@Suite struct TimecodeArithmeticTests {
    @Test func dropFrameLabelsAreSMPTEs() throws {
        let ntsc = FrameRate.ntsc30
        for (frame, label) in [
            (0, "00:00:00;00"), (1799, "00:00:59;29"), (1800, "00:01:00;02"), (3597, "00:01:59;29"),
            (3598, "00:02:00;02"), (17_981, "00:09:59;29"), (17_982, "00:10:00;00"), (107_892, "01:00:00;00"),
        ] {
            let timecode = Timecode(frameNumber: frame, frameRate: ntsc, dropFrame: true)
            #expect(timecode.description == label, "frame \(frame)")
            #expect(try Timecode(parsing: label).frameNumber(at: ntsc) == frame, "\(label)")
        }
        let sixty = Timecode(frameNumber: 3600, frameRate: .ntsc60, dropFrame: true)
        #expect(sixty.description == "00:01:00;04")
        #expect(Timecode(frameNumber: 1001, frameRate: FrameRate(24)).description == "00:00:41:17")
        #expect(
            Timecode(frameNumber: 86_400 * 24, frameRate: FrameRate(24)).description == "00:00:00:00", "a day wraps")
    }

    @Test(arguments: [FrameRate.ntsc30, .ntsc60, FrameRate(25), .ntsc24])
    func everyFrameOfADayCountsBackToItselfInOrder(rate: FrameRate) throws {
        let drop = rate == .ntsc30 || rate == .ntsc60
        let count = Int((Double(rate.numerator) / Double(rate.denominator)).rounded())
        // A day's frames: drop-frame skips count/15 labels in 9 minutes of each of 144 ten-minute blocks.
        let day = count * 86_400 - (drop ? count / 15 * 9 * 144 : 0)
        var previous = -1
        for frame in stride(from: 0, to: day, by: 13) {
            let timecode = Timecode(frameNumber: frame, frameRate: rate, dropFrame: drop)
            try timecode.check(at: rate)
            #expect(timecode.frameNumber(at: rate) == frame, "\(timecode)")
            let label = ((timecode.hours * 60 + timecode.minutes) * 60 + timecode.seconds) * count + timecode.frames
            #expect(label > previous, "labels rise: \(timecode)")
            previous = label
        }
        #expect(Timecode(frameNumber: day, frameRate: rate, dropFrame: drop).description.hasPrefix("00:00:00"))
    }
}
