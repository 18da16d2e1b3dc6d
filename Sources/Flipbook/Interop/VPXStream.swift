internal import CVPX
import Foundation

/// One libvpx VP9 encoder handle: 4:2:0 planes in, VP9 frames out with their presentation times.
///
/// ``VP9Encoder`` owns one for the picture and, for a movie that keeps alpha, a second for the alpha
/// plane; both are configured from the same settings by ``VPXConfiguration``.
final class VPXStream {
    /// A compressed frame as libvpx hands it out: one shown frame, with any hidden frame before it
    /// packed into the same superframe.
    struct Frame {
        var data: [UInt8]
        var presentationTime: Int64
        var isKeyframe: Bool
    }

    private let context: UnsafeMutablePointer<vpx_codec_ctx_t>
    private let width: Int
    private let height: Int
    private let bitDepth: Int
    /// libvpx's speed setting for each picture, in microseconds (`VPX_DL_GOOD_QUALITY`).
    private let deadline = UInt(VPX_DL_GOOD_QUALITY)
    /// Whether the end of the stream has been signalled.
    private var isFlushed = false

    /// Opens an encoder.
    ///
    /// - Parameters:
    ///   - configuration: The libvpx configuration and controls.
    ///   - what: The stream as a message names it: `VP9`, `VP9 alpha`.
    /// - Throws: `.invalidSettings` or `.encoderFailed` when libvpx refuses the configuration.
    init(_ configuration: VPXConfiguration, what: String) throws {
        width = configuration.width
        height = configuration.height
        bitDepth = configuration.bitDepth
        context = .allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
        var settings = configuration.settings
        let flags = bitDepth > 8 ? vpx_codec_flags_t(VPX_CODEC_USE_HIGHBITDEPTH) : 0
        do {
            try vpxCall(
                "vpx_codec_enc_init", "libvpx refused the \(what) settings: \(configuration.summary)",
                flipbook_vpx_encoder_init(context, &settings, flags), context: context)
        } catch {
            context.deallocate()
            throw error
        }
        do {
            for (control, value, name) in configuration.controls {
                try vpxCall(
                    "vpx_codec_control", "libvpx refused the \(what) encoder's \(name) \(value)",
                    flipbook_vpx_control(context, control, value), context: context)
            }
        } catch {
            vpx_codec_destroy(context)
            context.deallocate()
            throw error
        }
    }

    deinit {
        vpx_codec_destroy(context)
        context.deallocate()
    }

    /// Encodes one picture of 8-bit samples (or, at 10 bits, 16-bit words holding 10-bit values) and
    /// returns the frames that became ready. libvpx copies the planes into its look-ahead during the call.
    ///
    /// - Parameter keyframe: Whether the picture must be a keyframe (when the stream places none of its own).
    func encode<Sample>(
        luma: [Sample], cb: [Sample], cr: [Sample], presentationTime: Int64, keyframe: Bool = false
    ) throws -> [Frame] {
        precondition(MemoryLayout<Sample>.size == (bitDepth > 8 ? 2 : 1), "\(bitDepth)-bit planes of \(Sample.self)")
        let bytesPerSample = MemoryLayout<Sample>.size
        var image = vpx_image_t()
        image.fmt = bitDepth > 8 ? VPX_IMG_FMT_I42016 : VPX_IMG_FMT_I420
        image.bit_depth = UInt32(bitDepth)
        (image.w, image.h) = (UInt32(width), UInt32(height))
        (image.d_w, image.d_h) = (UInt32(width), UInt32(height))
        (image.r_w, image.r_h) = (UInt32(width), UInt32(height))
        (image.x_chroma_shift, image.y_chroma_shift) = (1, 1)
        image.bps = Int32(12 * bytesPerSample)
        image.stride = (
            Int32(width * bytesPerSample), Int32(width / 2 * bytesPerSample), Int32(width / 2 * bytesPerSample), 0
        )
        try withPlaneAddresses(luma, cb, cr) { luma, cb, cr in
            image.planes = (luma, cb, cr, nil)
            try vpxCall(
                "vpx_codec_encode", "libvpx could not encode picture \(presentationTime)",
                vpx_codec_encode(
                    context, &image, presentationTime, 1, keyframe ? vpx_enc_frame_flags_t(VPX_EFLAG_FORCE_KF) : 0,
                    deadline), context: context)
        }
        return receive()
    }

    /// Ends the stream and returns every frame still held in the look-ahead.
    func flush() throws -> [Frame] {
        guard !isFlushed else { return [] }
        isFlushed = true
        var frames: [Frame] = []
        // Each call without a picture hands out what is ready; an empty round means the encoder is drained.
        while true {
            try vpxCall(
                "vpx_codec_encode", "libvpx could not finish the stream",
                vpx_codec_encode(context, nil, 0, 1, 0, deadline), context: context)
            let ready = receive()
            if ready.isEmpty { return frames }
            frames += ready
        }
    }

    /// The frames libvpx has ready, copied out: its buffers live only until the next call.
    private func receive() -> [Frame] {
        var frames: [Frame] = []
        var iterator: vpx_codec_iter_t? = nil
        while let packet = vpx_codec_get_cx_data(context, &iterator) {
            guard packet.pointee.kind == VPX_CODEC_CX_FRAME_PKT else { continue }
            let frame = packet.pointee.data.frame
            let bytes = Array(UnsafeRawBufferPointer(start: frame.buf, count: frame.sz))
            frames.append(
                Frame(
                    data: bytes, presentationTime: frame.pts,
                    isKeyframe: frame.flags & vpx_codec_frame_flags_t(VPX_FRAME_IS_KEY) != 0))
        }
        return frames
    }
}
