import Flipbook
import Foundation

/// The options of dailies: text burnt into the pictures, the fields it names, its font, and a slate.
let dailiesOptionTable: [OptionSpec] = [
    OptionSpec(
        names: ["--burn-in"], value: "CORNER:TEXT",
        help:
            "Text drawn into every picture, in a box at a corner (TL, TC, TR, BL, BC, BR), such as 'BR:{frame}' or "
            + "'TL:{shot} v{version}'; fields: {frame} (the image's number), {timecode}, {file}, {date}, {fps} and "
            + "any --field; {{ and }} are braces. May be given again; burn-ins in one corner stack (default none)."
    ) { options, text in options.burnIns.append(try BurnIn(parsing: text)) },
    OptionSpec(
        names: ["--field"], value: "KEY=VALUE",
        help: "A value for {KEY} in burn-ins, shown on the slate too, such as shot=sh010; may be given again."
    ) { options, text in
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw UsageError(description: "--field \(text) needs KEY=VALUE, such as shot=sh010.")
        }
        options.fields[String(text[..<equals])] = String(text[text.index(after: equals)...])
    },
    OptionSpec(
        names: ["--font"], value: "FILE",
        help: "The TrueType or OpenType font of burn-ins and the slate (default DejaVu Sans, from fonts-dejavu-core)."
    ) { options, text in options.fontFile = try named(text, "--font needs a font file.") },
    OptionSpec(
        names: ["--slate"], value: "Ns|FRAMES",
        help:
            "A card before the first picture, such as 1s, 2.5s or 24 (frames, also 24f): the fields, the first image, its timecode, "
            + "the rate, size, codec and colour pipeline, beside the first picture made small. The timecode "
            + "counts from the first picture after it; the soundtrack starts with that picture (default none)."
    ) { options, text in
        if text.hasSuffix("s"), let time = MediaTime(parsingSeconds: String(text.dropLast())), time > .zero {
            options.slate = .time(time)
        } else if let frames = Int(text.hasSuffix("f") ? String(text.dropLast()) : text), frames > 0 {
            options.slate = .frames(frames)
        } else {
            throw UsageError(
                description: "--slate \(text) is not a length; use seconds such as 1s or frames such as 24.")
        }
    },
    OptionSpec(
        names: ["--timecode-on-slate"], value: nil,
        help: "With --slate, the timecode given or taken from the images is the slate's first frame's."
    ) { options, _ in options.timecodeOnSlate = true },
]

/// `--slate`'s length as given: seconds, or frames.
enum SlateLength {
    case time(MediaTime)
    case frames(Int)

    /// The slate at `frameRate`, its time rounded up to whole frames.
    func slate(at frameRate: FrameRate, timecodeOnSlate: Bool) -> Slate {
        switch self {
        case .time(let time): Slate(length: time, frameRate: frameRate, timecodeStartsOnSlate: timecodeOnSlate)
        case .frames(let frames): Slate(frames: frames, timecodeStartsOnSlate: timecodeOnSlate)
        }
    }
}

extension CommandLineOptions {
    /// Checks `--burn-in`, `--field` and `--slate` together, before any image is read.
    func validateDailies() throws {
        if slate != nil && segment != nil {
            throw UsageError(
                description: "--slate begins the whole movie, and --segment makes a part of it; leave --slate out "
                    + "of the segments (burn-ins are fine), or make the movie whole.")
        }
        if timecodeOnSlate && slate == nil {
            throw UsageError(description: "--timecode-on-slate is for a movie with --slate; add it, or leave this out.")
        }
        for burnIn in burnIns {
            try UsageError.rephrasing("burn-in", as: "--burn-in") { try burnIn.validate(fields: fields) }
        }
        try UsageError.rephrasing("", as: "--burn-in") { try videoSettings.validateText() }
    }
}
