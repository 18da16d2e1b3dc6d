internal import CGIF
import Foundation

/// Animated (and still) GIFs through giflib, read record by record: each image's LZW data is
/// decoded by giflib into palette indices, de-interlaced here, and drawn onto the logical screen
/// (``AnimationCanvas``) with its own or the global colour table, its transparent index and its
/// disposal method, so each frame is what a browser shows.
final class GIFAnimationDecoder: AnimationFrameDecoding {
    let layout: AnimationLayout
    private let limits: ImageLimits
    private let file: UnsafeMutablePointer<GifFileType>
    /// The file's bytes, which giflib reads through ``GIFInput``; owned here, freed in `deinit`.
    private let input: UnsafeMutablePointer<GIFInput>
    private var canvas: AnimationCanvas
    private(set) var framesDecoded = 0

    /// Opens `data`, a GIF whose layout was read (and checked against `limits`).
    ///
    /// - Throws: `.corruptImage` when giflib cannot read its header.
    init(_ data: Data, layout: AnimationLayout, limits: ImageLimits) throws {
        self.layout = layout
        self.limits = limits
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 1)
        data.copyBytes(to: bytes)
        input = .allocate(capacity: 1)
        input.initialize(to: GIFInput(bytes: bytes, count: data.count, offset: 0))
        var error: Int32 = 0
        let opened = DGifOpen(
            input,
            { file, buffer, length in
                guard let file, let buffer, length > 0,
                    let input = file.pointee.UserData?.assumingMemoryBound(to: GIFInput.self)
                else { return 0 }
                let count = max(0, min(Int(length), input.pointee.count - input.pointee.offset))
                if count > 0 {
                    UnsafeMutableRawPointer(buffer).copyMemory(
                        from: input.pointee.bytes.baseAddress! + input.pointee.offset, byteCount: count)
                }
                input.pointee.offset += count
                return Int32(count)
            }, &error)
        guard let opened else {
            input.pointee.bytes.deallocate()
            input.deallocate()
            throw Self.failure("DGifOpen", error, frame: 0)
        }
        file = opened
        canvas = AnimationCanvas(width: layout.width, height: layout.height)
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(file, &error)
        input.pointee.bytes.deallocate()
        input.deallocate()
    }

    /// Decodes the next image and returns the screen as shown with it, RGBA.
    ///
    /// - Throws: `.corruptImage` naming the frame when its data is damaged or cut short.
    func nextFrame() throws -> Frame {
        var control = GraphicsControlBlock(
            DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
            TransparentColor: NO_TRANSPARENT_COLOR)
        while true {
            var type = UNDEFINED_RECORD_TYPE
            try call("DGifGetRecordType", DGifGetRecordType(file, &type))
            switch type {
            case IMAGE_DESC_RECORD_TYPE:
                try call("DGifGetImageDesc", DGifGetImageDesc(file))
                let frame = try drawImage(control)
                framesDecoded += 1
                return frame
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>? = nil
                try call("DGifGetExtension", DGifGetExtension(file, &code, &block))
                if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
                    _ = DGifExtensionToGCB(Int(block[0]), block + 1, &control)
                }
                while block != nil { try call("DGifGetExtensionNext", DGifGetExtensionNext(file, &block)) }
            default:
                throw FlipbookError.animationEndsEarly("GIF", beforeFrame: framesDecoded + 1, of: layout.delays.count)
            }
        }
    }

    /// Reads the current image's indices and draws them onto the canvas.
    private func drawImage(_ control: GraphicsControlBlock) throws -> Frame {
        let description = file.pointee.Image
        let width = Int(description.Width)
        let height = Int(description.Height)
        guard width > 0, height > 0 else {
            try skipImageData()
            return try shown(canvas.compose(.init(x: 0, y: 0, width: 0, height: 0), disposal: .keep) { _, _ in })
        }
        try limits.check(width: width, height: height)
        guard let map = description.ColorMap ?? file.pointee.SColorMap else {
            throw FlipbookError.gifFrameHasNoColourTable(framesDecoded + 1)
        }
        let palette = Self.palette(map.pointee, transparent: Int(control.TransparentColor))
        var indices = [UInt8](repeating: 0, count: width * height)
        try indices.withUnsafeMutableBufferPointer { buffer in
            for row in Self.rowOrder(height: height, interlaced: description.Interlace) {
                try call("DGifGetLine", DGifGetLine(file, buffer.baseAddress! + row * width, Int32(width)))
            }
        }
        let rect = AnimationCanvas.Rect(
            x: Int(description.Left), y: Int(description.Top), width: width, height: height)
        let disposal: AnimationCanvas.Disposal =
            switch control.DisposalMode {
            case DISPOSE_BACKGROUND: .background
            case DISPOSE_PREVIOUS: .previous
            default: .keep
            }
        let screenWidth = layout.width
        return try shown(
            canvas.compose(rect, disposal: disposal) { pixels, clipped in
                pixels.withUnsafeMutableBufferPointer { canvas in
                    palette.withUnsafeBufferPointer { colours in
                        for row in clipped.y..<(clipped.y + clipped.height) {
                            let source = (row - rect.y) * width - rect.x
                            for column in clipped.x..<(clipped.x + clipped.width) {
                                let colour = Int(indices[source + column]) * 4
                                guard colours[colour + 3] != 0 else { continue }
                                let target = (row * screenWidth + column) * 4
                                canvas[target] = colours[colour]
                                canvas[target + 1] = colours[colour + 1]
                                canvas[target + 2] = colours[colour + 2]
                                canvas[target + 3] = 255
                            }
                        }
                    }
                }
            })
    }

    private func shown(_ pixels: [UInt8]) throws -> Frame {
        try Frame(width: layout.width, height: layout.height, format: .rgba, pixels: pixels)
    }

    /// Reads past an empty image's LZW data.
    private func skipImageData() throws {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>? = nil
        try call("DGifGetCode", DGifGetCode(file, &codeSize, &block))
        while block != nil { try call("DGifGetCodeNext", DGifGetCodeNext(file, &block)) }
    }

    /// 256 RGBA entries: the colour map's colours, opaque; the transparent index and indices past
    /// the map's end are transparent (drawn as nothing), as browsers draw them.
    private static func palette(_ map: ColorMapObject, transparent: Int) -> [UInt8] {
        var palette = [UInt8](repeating: 0, count: 256 * 4)
        for index in 0..<min(256, Int(map.ColorCount)) where index != transparent {
            let colour = map.Colors[index]
            palette[index * 4] = colour.Red
            palette[index * 4 + 1] = colour.Green
            palette[index * 4 + 2] = colour.Blue
            palette[index * 4 + 3] = 255
        }
        return palette
    }

    /// The rows in the order they are stored: top to bottom, or the four passes of an interlaced
    /// image (every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        return [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
            Array(stride(from: start, to: height, by: step))
        }
    }

    /// The funnel for giflib's status (GIF_OK or GIF_ERROR, the code in the file's `Error`).
    private func call(_ function: String, _ status: Int32) throws {
        guard status != GIF_OK else { return }
        throw Self.failure(function, file.pointee.Error, frame: framesDecoded)
    }

    private static func failure(_ function: String, _ code: Int32, frame: Int) -> FlipbookError {
        let cause = LibraryCallError(
            library: "giflib", function: function, status: Int(code),
            libraryMessage: GifErrorString(code).map { String(cString: $0) })
        let what =
            code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON
            ? "the file is truncated" : "its data is damaged"
        return FlipbookError.animationFrameUndecodable(frame + 1, of: "GIF", what, cause: cause)
    }
}

/// The bytes giflib reads from, and how far it has read.
struct GIFInput {
    let bytes: UnsafeMutableRawBufferPointer
    let count: Int
    var offset: Int
}
