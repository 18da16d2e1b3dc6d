import Foundation

/// Text drawn into every picture of the movie, in a corner, over a darkened box: a shot name, the
/// frame's number, its timecode.
///
/// The text is a template: `{frame}` is the image's own number (the last run of digits in its file's
/// name; for a frame without one, its index in the movie from 0), `{timecode}` the frame's timecode
/// (the movie's, from ``VideoSettings/timecode``; counted from `00:00:00:00` when the movie has none),
/// `{file}` the image file's name, `{date}` the movie's creation date (``MovieMetadata/creationDate``,
/// else the day it is made) as `YYYY-MM-DD` in UTC, `{fps}` the frame rate, and any key of
/// ``VideoSettings/fields``. `{{` and `}}` are braces.
///
/// ```swift
/// settings.burnIns = [try BurnIn(parsing: "TL:{shot} v{version}"), try BurnIn(parsing: "BR:{frame}")]
/// settings.fields = ["shot": "sh010", "version": "3"]
/// ```
///
/// The text is DejaVu Sans (or ``VideoSettings/fontFile``), a thirtieth of the movie's height (16 pixels at least), white in the
/// movie's own colours over a box that keeps a third of the picture's brightness; burn-ins in the same
/// corner stack away from it in the order given.
public struct BurnIn: Sendable, Hashable, CustomStringConvertible {
    /// Where a burn-in sits: a corner, or the middle of the top or bottom edge.
    public enum Corner: String, Sendable, Hashable, CaseIterable {
        case topLeft = "TL"
        case topCentre = "TC"
        case topRight = "TR"
        case bottomLeft = "BL"
        case bottomCentre = "BC"
        case bottomRight = "BR"

        /// Whether the corner is on the picture's top edge.
        var isTop: Bool { [.topLeft, .topCentre, .topRight].contains(self) }
    }

    public var corner: Corner
    /// The text, with `{field}` names (see ``BurnIn``).
    public var template: String

    public init(corner: Corner, template: String) {
        self.corner = corner
        self.template = template
    }

    /// A burn-in written as on the command line: a corner (`TL`, `TC`, `TR`, `BL`, `BC`, `BR`), a colon, and
    /// the template (`BR:{frame}`).
    ///
    /// - Throws: ``FlipbookError`` (`.invalidSettings`) naming the corners when the text has none.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let corner = Corner(rawValue: parts[0].uppercased()) else {
            throw FlipbookError.burnInWithoutCorner(text)
        }
        self.init(corner: corner, template: String(parts[1]))
    }

    /// Checks the template: its braces, and each field a frame's own or a key of `fields`.
    ///
    /// - Throws: ``FlipbookError`` (`.invalidSettings`) quoting the template and naming the fields there are.
    public func validate(fields: [String: String]) throws {
        _ = try TextTemplate(template, given: fields.keys)
    }

    /// `TL:{shot}`, as ``init(parsing:)`` reads it.
    public var description: String { "\(corner.rawValue):\(template)" }
}

/// A card before the first picture, as dailies begin: the ``VideoSettings/fields``, the first image's
/// name and number, the timecode, rate, size, codec and colour pipeline, beside the first picture made
/// small. The timecode counts from the first picture after it, so the slate's frames have the
/// timecodes before it (``timecodeStartsOnSlate`` counts from the slate's first frame instead); the
/// soundtrack starts with the first picture.
public struct Slate: Sendable, Hashable {
    /// How long the slate is shown, in frames at the movie's rate (1 or more).
    public var frames: Int
    /// Whether the movie's timecode start is the slate's first frame rather than the first picture's.
    public var timecodeStartsOnSlate = false

    public init(frames: Int, timecodeStartsOnSlate: Bool = false) {
        self.frames = frames
        self.timecodeStartsOnSlate = timecodeStartsOnSlate
    }

    /// A slate of `length` at `frameRate`, rounded up to whole frames.
    public init(length: MediaTime, frameRate: FrameRate, timecodeStartsOnSlate: Bool = false) {
        let perFrame = Int64(length.timescale) * Int64(frameRate.denominator)
        let (frames, overflow) = length.value.multipliedReportingOverflow(by: Int64(frameRate.numerator))
        self.init(
            frames: overflow ? Int.max : Int(clamping: (frames + perFrame - 1) / perFrame),
            timecodeStartsOnSlate: timecodeStartsOnSlate)
    }
}
