/// The canvas a GIF's or APNG's frames are composited onto, as browsers composite them: it starts
/// fully transparent; each frame is drawn into its rectangle (replacing the pixels there, or over
/// them, or, for GIF, leaving its transparent index untouched); after it is shown, its disposal
/// leaves the canvas as it is, clears the rectangle to transparent, or restores what was there
/// before the frame was drawn.
struct AnimationCanvas {
    /// What happens to a frame's rectangle after it is shown (GIF disposal methods 0/1, 2, 3; APNG
    /// `dispose_op` 0, 1, 2).
    enum Disposal: Sendable {
        case keep
        case background
        case previous
    }

    /// A frame's rectangle on the canvas (clipped to it when drawn).
    struct Rect: Sendable, Hashable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    let width: Int
    let height: Int
    /// Straight-alpha RGBA, `width * 4` bytes a row.
    private(set) var pixels: [UInt8]
    /// The disposal still to do for the frame shown last, and the canvas to restore for `.previous`.
    private var pending: (rect: Rect, disposal: Disposal, saved: [UInt8]?)?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Disposes of the previous frame, then draws the next with `draw`, which gets the canvas and the
    /// rectangle clipped to it, and returns the canvas as shown.
    mutating func compose(
        _ rect: Rect, disposal: Disposal, draw: (inout [UInt8], _ clipped: Rect) -> Void
    ) -> [UInt8] {
        if let pending {
            switch pending.disposal {
            case .keep: break
            case .background: clear(pending.rect)
            case .previous: if let saved = pending.saved { pixels = saved }
            }
        }
        let saved = disposal == .previous ? pixels : nil
        let clipped = clip(rect)
        if clipped.width > 0 && clipped.height > 0 { draw(&pixels, clipped) }
        pending = (rect, disposal, saved)
        return pixels
    }

    /// `rect` cut to the canvas.
    func clip(_ rect: Rect) -> Rect {
        let x0 = max(0, min(rect.x, width))
        let y0 = max(0, min(rect.y, height))
        let x1 = max(x0, min(rect.x + rect.width, width))
        let y1 = max(y0, min(rect.y + rect.height, height))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Makes `rect` (clipped) fully transparent.
    private mutating func clear(_ rect: Rect) {
        let clipped = clip(rect)
        guard clipped.width > 0 else { return }
        for row in clipped.y..<(clipped.y + clipped.height) {
            let start = (row * width + clipped.x) * 4
            pixels.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress.map { ($0 + start).update(repeating: 0, count: clipped.width * 4) }
            }
        }
    }
}
