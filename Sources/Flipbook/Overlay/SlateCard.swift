import Foundation

/// The picture of a movie's slate: on black, a line for each field and for what the movie is (its first
/// image, timecode, rate, size, codec and colour pipeline, the date), beside the first picture made
/// small, drawn with the burn-ins' font into a picture of the movie's own format.
struct SlateCard {
    /// The card's lines, top to bottom.
    let lines: [String]

    /// The lines of a movie of `settings` in `codec`, beginning with the picture `first` facts give, whose
    /// timecode is `timecode`, made on `date`.
    init(settings: VideoSettings, codec: String, first: FrameFacts, timecode: Timecode, date: String) {
        var lines = settings.fields.keys.sorted().map { "\($0): \(settings.fields[$0] ?? "")" }
        if let file = first.file { lines.append("file: \(file)") }
        lines.append("frame: \(first.number)")
        lines.append("timecode: \(timecode)")
        lines.append("rate: \(BurnInPainter.rateText(settings.frameRate)) fps")
        lines.append("size: \(settings.width)x\(settings.height)")
        lines.append(
            "codec: \(codec), \(settings.pictureFormat.bitDepth)-bit \(settings.pictureFormat.chroma.rawValue)")
        lines.append("colour: \(Self.colourPipeline(settings))")
        lines.append("date: \(date)")
        self.lines = lines
    }

    /// The colour pipeline in a few words: the movie's colours, its range, and the view that made them.
    static func colourPipeline(_ settings: VideoSettings) -> String {
        var words = "\(settings.colourStandard.rawValue), \(settings.colourRange.rawValue) range"
        if settings.colourStandard.isHDR { words += ", white \(Int(settings.peakLuminance)) nits" }
        let view = settings.viewTransform
        if let ocio = view.openColorIO {
            let config = URL(filePath: ocio.config).lastPathComponent
            words += ", OCIO \(config) \(ocio.inputColourspace ?? "scene_linear") to \(ocio.display ?? "default")"
            if let name = ocio.view { words += " / \(name)" }
        } else {
            words += ", view \(view.curve.rawValue)"
            if view.exposure != 0 { words += " \(view.exposure > 0 ? "+" : "")\(view.exposure) EV" }
        }
        if settings.colourManagement == .off { words += ", unmanaged" }
        return words
    }

    /// The card, drawn with `painter`'s font, the first picture `thumbnail` made small at its right.
    func picture(like thumbnail: YUVPicture, painter: BurnInPainter) -> YUVPicture {
        var card = YUVPicture.black(like: thumbnail)
        let (width, height) = (card.width, card.height)
        // The first picture has the movie's size (it is prepared): two fifths of it each way.
        let small = (width: width * 2 / 5 & ~1, height: height * 2 / 5 & ~1)
        if small.width >= 2 && small.height >= 2 {
            card.draw(thumbnail, scaledTo: small, atX: width * 11 / 20 & ~1, y: height / 10 & ~1)
        }
        var y = height / 10
        let left = width / 20
        for text in lines {
            let line = painter.font.line(text)
            painter.overlay.draw(line, into: &card, x: left, y: y)
            y += line.height + painter.gap
        }
        return card
    }
}
