import Foundation

/// What a frame's burn-ins say of it.
package struct FrameFacts {
    /// The image's own number, or the frame's index in the movie for a frame without one.
    let number: Int
    /// Frames of the movie's rate from the movie's first frame to this one.
    let framesFromStart: Int
    /// The image file's name, when the frame has one.
    let file: String?

    package init(number: Int, framesFromStart: Int, file: String?) {
        self.number = number
        self.framesFromStart = framesFromStart
        self.file = file
    }
}

/// Draws a movie's burn-ins into each of its pictures: the text each template makes for the frame, in
/// a box at its corner, sized by the movie's height (see ``BurnIn``). Lines are shaped and glyphs
/// rendered by ``FontFace``, which keeps each glyph once; only the boxes' samples are touched.
package final class BurnInPainter {
    private let burnIns: [(corner: BurnIn.Corner, template: TextTemplate)]
    let font: FontFace
    let overlay: PictureOverlay
    private let values: [String: String]
    /// The movie's first frame's timecode, or `nil` for one counted from `00:00:00:00`.
    private let timecodeStart: Timecode?
    private let frameRate: FrameRate
    /// Pixels from the picture's edge to a box, inside a box around its text, and between stacked boxes.
    let margin: Int
    let padding: Int
    let gap: Int
    /// Each burn-in's last text and its line.
    private var lastLines: [Int: (text: String, line: TextLine)] = [:]

    /// The text size for a movie `height` pixels high: a thirtieth of it, at least 16 pixels (legible,
    /// and read back by OCR, in a 240-line preview).
    static func pixelSize(height: Int) -> Int { max(16, height / 30) }

    /// The painter of `settings`' burn-ins (none when it has none and no slate), for a movie whose first
    /// frame's timecode is `timecodeStart` and whose creation date is `date`.
    ///
    /// - Throws: `.invalidSettings` for a template or a font that cannot be used, or text the font has no
    ///   glyphs for.
    package init?(settings: VideoSettings, timecodeStart: Timecode?, date: Date, whiteCode: Double) throws {
        guard settings.drawsText else { return nil }
        let templates = try settings.burnInTemplates()
        burnIns = zip(settings.burnIns, templates).map { ($0.corner, $1) }
        font = try settings.openFont(pixelSize: Self.pixelSize(height: settings.height))
        overlay = PictureOverlay(whiteCode: whiteCode, fullRange: settings.colourRange == .full)
        self.timecodeStart = timecodeStart
        frameRate = settings.frameRate
        var values = settings.fields
        values["fps"] = Self.rateText(settings.frameRate)
        values["date"] = Self.dateText(date)
        self.values = values
        let size = font.pixelSize
        margin = size / 2 & ~1
        padding = max(2, size / 4 & ~1)
        gap = max(2, size / 8 & ~1)
        for (_, template) in burnIns {
            let fixed = template.text { values[$0] ?? "0" }
            guard font.covers(fixed) else { throw FlipbookError.fontLacksCharacters(fixed, font: font.path) }
        }
    }

    /// The movie's date as `{date}` shows it.
    var date: String { values["date"] ?? "" }

    /// Whether there are burn-ins to draw (a painter may be there for the slate alone).
    var drawsBurnIns: Bool { !burnIns.isEmpty }

    /// The frame's timecode.
    func timecode(_ facts: FrameFacts) -> Timecode {
        guard let start = timecodeStart else {
            return Timecode(frameNumber: facts.framesFromStart, frameRate: frameRate)
        }
        return Timecode(
            frameNumber: start.frameNumber(at: frameRate) + facts.framesFromStart, frameRate: frameRate,
            dropFrame: start.dropFrame)
    }

    /// The text of each burn-in for the frame.
    func texts(_ facts: FrameFacts) -> [String] {
        burnIns.map { burnIn in
            burnIn.template.text { name in
                switch name {
                case "frame": String(facts.number)
                case "timecode": timecode(facts).description
                case "file": facts.file ?? ""
                default: values[name] ?? ""
                }
            }
        }
    }

    /// Draws the frame's burn-ins into its picture.
    package func draw(into picture: inout YUVPicture, _ facts: FrameFacts) {
        var stacked: [BurnIn.Corner: Int] = [:]
        for (index, (burnIn, text)) in zip(burnIns, texts(facts)).enumerated() {
            let line = line(index, text)
            let boxHeight = line.height + 2 * padding
            let boxWidth = min(picture.width, (line.width + 2 * padding + 1) & ~1)
            let below = stacked[burnIn.corner, default: 0]
            stacked[burnIn.corner] = below + boxHeight + gap
            let x: Int =
                switch burnIn.corner {
                case .topLeft, .bottomLeft: margin
                case .topRight, .bottomRight: picture.width - margin - boxWidth
                case .topCentre, .bottomCentre: (picture.width - boxWidth) / 2
                }
            let y = burnIn.corner.isTop ? margin + below : picture.height - margin - below - boxHeight
            place(line, box: (x & ~1, y & ~1, boxWidth, boxHeight), into: &picture)
        }
    }

    /// Burn-in `index`'s line for `text`: shaped and drawn again only when its text changed since the last
    /// frame (a shot name never does; a frame number does every frame).
    private func line(_ index: Int, _ text: String) -> TextLine {
        if let last = lastLines[index], last.text == text { return last.line }
        let line = font.line(text)
        lastLines[index] = (text, line)
        return line
    }

    /// Draws `line` in a box at (x, y), both cut to the picture.
    func place(_ line: TextLine, box: (x: Int, y: Int, width: Int, height: Int), into picture: inout YUVPicture) {
        let left = max(0, box.x)
        let top = max(0, box.y)
        let right = min(picture.width, box.x + box.width)
        let bottom = min(picture.height, (box.y + box.height + 1) & ~1)
        guard right > left && bottom > top else { return }
        overlay.drawBox(into: &picture, x: left, y: top, width: right - left, height: bottom - top)
        overlay.draw(line, into: &picture, x: box.x + padding, y: box.y + padding)
    }

    /// `24`, `29.97`, `12.5`: the rate as a person reads it.
    static func rateText(_ rate: FrameRate) -> String {
        if rate.denominator == 1 { return String(rate.numerator) }
        let hundredths = (rate.numerator * 100 + rate.denominator / 2) / rate.denominator
        let text = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        return text.hasSuffix("0") ? String(text.dropLast()) : text
    }

    /// The day of `date` in UTC, `YYYY-MM-DD`.
    static func dateText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let two = Timecode.twoDigits
        return "\(parts.year ?? 0)-\(two(parts.month ?? 0))-\(two(parts.day ?? 0))"
    }
}
