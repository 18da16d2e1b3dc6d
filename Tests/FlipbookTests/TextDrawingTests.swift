import Foundation
import Testing

@testable import Flipbook

/// The text of burn-ins and slates, in the library: HarfBuzz's shaping through ``FontFace`` (a ligature
/// where Arabic joins, kerning, right-to-left order), the coverage FreeType renders, each template's
/// fields, and the samples ``PictureOverlay`` writes for a box and for text in 8-bit, 10-bit, full-range
/// and packed RGBA pictures, checked against the arithmetic it documents.
@Suite struct TextDrawingTests {
    static let font = URL(filePath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

    @Test func harfBuzzJoinsArabicKernsLatinAndOrdersHebrewRightToLeft() throws {
        let face = try FontFace(file: Self.font, pixelSize: 32)
        // Lam and alef become one ligature glyph; each alone is a glyph of its own.
        #expect(face.shape("\u{0644}\u{0627}").glyphs.count == 1)
        #expect(face.shape("\u{0644} \u{0627}").glyphs.count == 3)
        // "AV" is kerned: shorter than "A" and "V" apart.
        let pair = face.shape("AV").advance
        #expect(pair < face.shape("A").advance + face.shape("V").advance)
        // Hebrew is laid out right to left: the last letter typed is the first glyph drawn.
        let hebrew = face.shape("\u{05D0}\u{05D1}").glyphs
        let bet = face.shape("\u{05D1}").glyphs[0].glyph
        #expect(hebrew.first?.glyph == bet)
        #expect(face.covers("Сцена 1 \u{0644}\u{0627}") && !face.covers("镜头"))
    }

    @Test func aLineHasInkWhereItsGlyphsAreAndNoneElsewhere() throws {
        let face = try FontFace(file: Self.font, pixelSize: 40)
        let line = face.line("1")
        #expect(line.height == face.ascent + face.descent && line.ascent == face.ascent)
        let inked = line.coverage.filter { $0 > 0 }.count
        #expect(inked > 100 && inked < line.width * line.height / 2)
        #expect(line.coverage.contains(255))
        // Below the baseline a "1" has no ink.
        #expect(line.coverage.dropFirst((line.ascent + 1) * line.width).allSatisfy { $0 == 0 })
        #expect(face.line("").width == 0)
    }

    @Test func templatesReadFieldsAndBraces() throws {
        let template = try TextTemplate("{{{shot}}} f{frame}", given: ["shot"])
        #expect(template.text { $0 == "shot" ? "sh010" : "1001" } == "{sh010} f1001")
        #expect(template.names("frame") && !template.names("timecode"))
        #expect(throws: FlipbookError.self) { try TextTemplate("{nope}", given: ["shot"]) }
        #expect(throws: FlipbookError.self) { try TextTemplate("{}", given: []) }
        #expect(BurnInPainter.rateText(FrameRate(30000, 1001)) == "29.97")
        #expect(BurnInPainter.rateText(FrameRate(25, 2)) == "12.5")
        #expect(BurnInPainter.rateText(FrameRate(24)) == "24")
        #expect(BurnInPainter.dateText(Date(timeIntervalSince1970: 86_400 * 365)) == "1971-01-01")
    }

    @Test func aBoxKeepsItsShareAndTextBlendsToTheRangesWhite() {
        // 8-bit limited 4:2:0: grey 200 with colour; a 4x2 box at (2, 0); full ink at (2, 0) and (3, 0).
        var picture = YUVPicture(width: 8, height: 4, format: .yuv420)
        picture.withEightBitPlanes { planes in
            planes.luma = [UInt8](repeating: 200, count: 32)
            planes.cb = [UInt8](repeating: 60, count: 8)
            planes.cr = [UInt8](repeating: 200, count: 8)
        }
        let overlay = PictureOverlay(whiteCode: 1, fullRange: false)
        overlay.drawBox(into: &picture, x: 2, y: 0, width: 4, height: 2)
        let line = TextLine(width: 2, height: 2, ascent: 2, coverage: [255, 255, 0, 0])
        overlay.draw(line, into: &picture, x: 2, y: 0)
        guard case .eightBit(let planes) = picture.storage else {
            Issue.record("8-bit planes expected")
            return
        }
        let kept = 16 + (200 - 16) * 90 / 256
        #expect(planes.luma[0] == 200 && planes.luma[1] == 200)
        #expect(planes.luma[2] == 235 && planes.luma[3] == 235)
        #expect(planes.luma[4] == UInt8(kept) && planes.luma[8 + 2] == UInt8(kept))
        #expect(planes.luma[16 + 2] == 200)
        // Chroma: the box's share of its distance from neutral, then half the way to neutral where half the
        // four luma samples it stands for are inked.
        let cb = 128 + (60 - 128) * 90 / 256
        #expect(planes.cb[0] == 60)
        #expect(planes.cb[1] == UInt8(cb + ((128 - cb) * 510 + 510) / 1020))
        #expect(planes.cb[2] == UInt8(cb))
        #expect(planes.cb[4 + 1] == 60)
    }

    @Test func tenBitFullRangeAndRGBAPicturesHaveTheirOwnWhite() {
        var deep = YUVPicture(width: 4, height: 2, format: PictureFormat(chroma: .yuv444, bitDepth: 10, hasAlpha: true))
        let full = PictureOverlay(whiteCode: 1, fullRange: true)
        full.drawBox(into: &deep, x: 0, y: 0, width: 2, height: 2)
        full.draw(TextLine(width: 1, height: 1, ascent: 1, coverage: [255]), into: &deep, x: 0, y: 0)
        guard case .tenBit(let planes) = deep.storage else {
            Issue.record("10-bit planes expected")
            return
        }
        // The blank picture is video-range black (64); the box keeps its share of that in full range.
        #expect(planes.luma[0] == 1023 && planes.luma[1] == 64 * 90 / 256 && planes.alpha?[1] == 1023)
        var pq = YUVPicture(width: 2, height: 2, format: PictureFormat(chroma: .yuv420, bitDepth: 10, hasAlpha: false))
        pq.withDeepPlanes { _ in }
        let white = HDRTransfer.code(1, curve: .pq, whiteNits: 203)
        PictureOverlay(whiteCode: white, fullRange: false).draw(
            TextLine(width: 1, height: 1, ascent: 1, coverage: [255]), into: &pq, x: 0, y: 0)
        guard case .tenBit(let coded) = pq.storage else {
            Issue.record("10-bit planes expected")
            return
        }
        #expect(coded.luma[0] == UInt16(64 + (876 * white).rounded()))
        var rgba = YUVPicture(width: 2, height: 2, format: .rgba(hasAlpha: false))
        rgba.withRGBA { $0 = [UInt8](repeating: 100, count: 16) }
        full.drawBox(into: &rgba, x: 1, y: 0, width: 1, height: 1)
        guard case .rgba(let pixels) = rgba.storage else {
            Issue.record("RGBA expected")
            return
        }
        #expect(Array(pixels[0..<8]) == [100, 100, 100, 100, 35, 35, 35, 255])
    }
}
