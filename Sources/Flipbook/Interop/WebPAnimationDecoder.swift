internal import CWebPDemux
import Foundation

/// Animated WebPs through libwebpdemux: the canvas, frame count and every frame's duration are read
/// by the demuxer without decoding; `WebPAnimDecoder` then decodes each frame and blends and disposes
/// it onto the canvas (transparent at the start, the background colour ignored, as browsers do).
final class WebPAnimationDecoder: AnimationFrameDecoding {
    let layout: AnimationLayout
    private let decoder: OpaquePointer
    /// The file's bytes, which the decoder reads from as long as it lives; freed in `deinit`.
    private let bytes: UnsafeMutableRawBufferPointer
    private(set) var framesDecoded = 0

    /// The layout of an animated WebP, or `nil` for a still one.
    ///
    /// - Throws: `.corruptImage` when the container is damaged or cut short (a truncated animated WebP
    ///   is refused whole: libwebp's animation decoder reads complete files only).
    static func layout(_ data: Data) throws -> AnimationLayout? {
        try data.withUnsafeBytes { raw -> AnimationLayout? in
            var webp = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            guard let demux = WebPDemux(&webp) else {
                throw FlipbookError.imageContainerDamaged(
                    "WebP", cause: LibraryCallError(library: "libwebpdemux", function: "WebPDemux", status: 0))
            }
            defer { WebPDemuxDelete(demux) }
            guard WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & ANIMATION_FLAG.rawValue != 0 else { return nil }
            var delays: [MediaTime] = []
            var iterator = WebPIterator()
            if WebPDemuxGetFrame(demux, 1, &iterator) != 0 {
                repeat {
                    delays.append(
                        AnimationLayout.browserDelay(MediaTime(value: Int64(iterator.duration), timescale: 1000)))
                } while WebPDemuxNextFrame(&iterator) != 0
                WebPDemuxReleaseIterator(&iterator)
            }
            return AnimationLayout(
                kind: .webp, width: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)),
                height: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)), delays: delays, isTruncated: false)
        }
    }

    /// Opens `data`, an animated WebP whose layout was read (and checked against `limits`).
    init(_ data: Data, layout: AnimationLayout, limits: ImageLimits) throws {
        self.layout = layout
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 1)
        data.copyBytes(to: bytes)
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            bytes.deallocate()
            throw Self.failure("WebPAnimDecoderOptionsInit", frame: 0)
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        var webp = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: data.count)
        guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
            bytes.deallocate()
            throw Self.failure("WebPAnimDecoderNew", frame: 0)
        }
        self.decoder = decoder
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    func nextFrame() throws -> Frame {
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var timestamp: Int32 = 0
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0, WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0,
            let buffer
        else {
            throw Self.failure("WebPAnimDecoderGetNext", frame: framesDecoded)
        }
        let count = layout.width * layout.height * 4
        let pixels = [UInt8](UnsafeBufferPointer(start: buffer, count: count))
        framesDecoded += 1
        return try Frame(width: layout.width, height: layout.height, format: .rgba, pixels: pixels)
    }

    /// The funnel for libwebpdemux's calls, which report failure as 0 or NULL without a code.
    private static func failure(_ function: String, frame: Int) -> FlipbookError {
        FlipbookError.animationFrameUndecodable(
            frame + 1, of: "animated WebP", "its data is damaged",
            cause: LibraryCallError(library: "libwebpdemux", function: function, status: 0))
    }
}
