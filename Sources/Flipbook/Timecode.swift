/// A SMPTE timecode, `HH:MM:SS:FF`: the label of a frame in an edit, which editors (DaVinci Resolve,
/// Premiere, Avid) show and conform by.
///
/// A timecode counts whole frames at its rate rounded (24 for 23.976 fps, 30 for 29.97). A drop-frame
/// timecode (`HH:MM:SS;FF`, for 29.97 and 59.94 fps only) skips the labels `00` and `01` (`00` to `03`
/// at 59.94) at the start of every minute but each tenth, so its labels keep up with the clock.
///
/// ```swift
/// let start = Timecode(frameNumber: 1001, frameRate: FrameRate(24))  // 00:00:41:17
/// var settings = VideoSettings(frameRate: FrameRate(24))
/// settings.timecode = .at(try Timecode(parsing: "01:00:00:00"))
/// ```
public struct Timecode: Sendable, Hashable, CustomStringConvertible {
    public var hours: Int
    public var minutes: Int
    public var seconds: Int
    public var frames: Int
    /// Whether the timecode is drop-frame (written with `;` before the frames).
    public var dropFrame: Bool

    /// A timecode of these fields.
    public init(hours: Int, minutes: Int, seconds: Int, frames: Int, dropFrame: Bool = false) {
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
        self.frames = frames
        self.dropFrame = dropFrame
    }

    /// Parses `HH:MM:SS:FF`, or `HH:MM:SS;FF` (also `HH:MM:SS.FF`) for drop-frame.
    ///
    /// - Throws: ``FlipbookError`` (a usage error) naming the text and the form, for anything else, and
    ///   for minutes or seconds past 59 or hours past 23.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingWhitespace()
        let fields = trimmed.split(omittingEmptySubsequences: false) { $0 == ":" || $0 == ";" || $0 == "." }
        let numbers = fields.compactMap { $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) ? Int($0) : nil }
        guard numbers.count == 4, let last = trimmed.dropLast(2).last,
            trimmed.filter({ $0 == ";" || $0 == "." }).count <= 1,
            trimmed.dropLast(3).allSatisfy({ $0 != ";" && $0 != "." })
        else {
            throw FlipbookError.timecodeNotUnderstood(text)
        }
        guard numbers[0] < 24, numbers[1] < 60, numbers[2] < 60 else { throw FlipbookError.timecodeNotUnderstood(text) }
        self.init(
            hours: numbers[0], minutes: numbers[1], seconds: numbers[2], frames: numbers[3], dropFrame: last != ":")
    }

    /// The timecode of the frame `frameNumber` frames after `00:00:00:00` at `frameRate` (drop-frame
    /// when asked and the rate is 29.97 or 59.94), wrapping at 24 hours.
    public init(frameNumber: Int, frameRate: FrameRate, dropFrame: Bool = false) {
        let count = Self.framesPerSecond(frameRate)
        let drop = dropFrame && Self.dropsFrames(frameRate) ? count / 15 : 0
        let day = count * 86_400 - (drop > 0 ? drop * 9 * 144 : 0)
        var number = ((frameNumber % day) + day) % day
        if drop > 0 {
            // Each ten minutes holds 9 minutes that drop `drop` labels: put the dropped labels back.
            let tenMinutes = count * 600 - 9 * drop
            let minute = count * 60 - drop
            let (tens, rest) = number.quotientAndRemainder(dividingBy: tenMinutes)
            number += 9 * drop * tens + (rest > drop ? drop * ((rest - drop) / minute) : 0)
        }
        self.init(
            hours: number / (count * 3600), minutes: number / (count * 60) % 60, seconds: number / count % 60,
            frames: number % count, dropFrame: drop > 0)
    }

    /// The number of frames from `00:00:00:00` to this timecode at `frameRate`.
    public func frameNumber(at frameRate: FrameRate) -> Int {
        let count = Self.framesPerSecond(frameRate)
        let labels = ((hours * 60 + minutes) * 60 + seconds) * count + frames
        guard dropFrame, Self.dropsFrames(frameRate) else { return labels }
        let totalMinutes = hours * 60 + minutes
        return labels - count / 15 * (totalMinutes - totalMinutes / 10)
    }

    /// Checks the timecode against `frameRate`: its frames below the rate's count, drop-frame only at
    /// 29.97 or 59.94 fps, and no label a drop-frame timecode skips.
    ///
    /// - Throws: ``FlipbookError`` (a usage error) saying what fits.
    public func check(at frameRate: FrameRate) throws {
        guard Self.counts(at: frameRate) else { throw FlipbookError.timecodeRateOutOfRange(frameRate) }
        let count = Self.framesPerSecond(frameRate)
        guard frames < count else { throw FlipbookError.timecodeFrameOutOfRange(self, count: count, frameRate) }
        guard dropFrame else { return }
        guard Self.dropsFrames(frameRate) else { throw FlipbookError.dropFrameTimecodeAtRate(self, frameRate) }
        guard seconds > 0 || minutes % 10 == 0 || frames >= count / 15 else {
            throw FlipbookError.timecodeLabelDropped(self)
        }
    }

    /// `HH:MM:SS:FF`, or `HH:MM:SS;FF` when drop-frame.
    public var description: String {
        let two = Self.twoDigits
        return "\(two(hours)):\(two(minutes)):\(two(seconds))\(dropFrame ? ";" : ":")\(two(frames))"
    }

    /// `value` in at least two digits: `07`, `41`.
    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// The frames a timecode second counts at `frameRate`: the rate rounded, at least 1.
    static func framesPerSecond(_ frameRate: FrameRate) -> Int {
        max(1, Int((Double(frameRate.numerator) / Double(frameRate.denominator)).rounded()))
    }

    /// Whether a timecode counts frames at `frameRate`: from 0.5 to 255.5 fps (1 to 255 frames a second),
    /// so not for a slideshow of an image a minute.
    static func counts(at frameRate: FrameRate) -> Bool {
        let rate = Double(frameRate.numerator) / Double(frameRate.denominator)
        return rate >= 0.5 && rate < 255.5
    }

    /// Whether drop-frame timecode exists at `frameRate`: 30000/1001 and 60000/1001.
    static func dropsFrames(_ frameRate: FrameRate) -> Bool {
        frameRate.numerator * 1001 == frameRate.denominator * 30000
            || frameRate.numerator * 1001 == frameRate.denominator * 60000
    }
}

/// Where a movie's timecode starts.
public enum TimecodeStart: Sendable, Hashable {
    /// No timecode.
    case none
    /// The first image's own number as a frame count (frame 1001 at 24 fps is `00:00:41:17`), when the
    /// images are numbered files; no timecode otherwise.
    case fromImageNumbers
    /// This timecode.
    case at(Timecode)
}

extension TimecodeStart {
    /// The timecode given (``at(_:)``); `nil` for none or one still to come from the images.
    public var start: Timecode? {
        if case .at(let timecode) = self { return timecode }
        return nil
    }

    /// The start for images whose first is numbered `firstNumber` (`nil` when it is not a numbered
    /// file): ``fromImageNumbers`` becomes that number's timecode at `frameRate`, or none (also at a rate
    /// no timecode counts, below 1 or above 255 frames a second).
    public func resolved(firstNumber: Int?, frameRate: FrameRate) -> TimecodeStart {
        guard case .fromImageNumbers = self else { return self }
        guard let firstNumber, Timecode.counts(at: frameRate) else { return .none }
        return .at(Timecode(frameNumber: firstNumber, frameRate: frameRate))
    }
}
