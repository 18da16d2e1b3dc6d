internal import CHEIF
import Foundation

/// HEIC (HEVC, through libde265) and AVIF (AV1, through dav1d) still images through libheif.
///
/// The primary image is decoded, as a photo viewer shows it: its rotation and mirroring (`irot`,
/// `imir`) and crop (`clap`) applied, its Y'CbCr converted to RGB by the matrix and range its `colr`
/// (nclx) box names, deeper than 8 bits rounded to 8. Its size is checked against the limits from the
/// `ispe` box before any pixel memory is taken.
enum HEIFDecoder {
    /// Decodes the primary image of a HEIF or AVIF file.
    ///
    /// - Throws: `.corruptImage` for damaged or truncated data, `.unsupportedImage` for a kind libheif
    ///   does not decode or an image over `limits`.
    static func decode(_ data: Data, limits: ImageLimits, format: String) throws -> Frame {
        guard case .frame(let frame) = try decodeImage(data, limits: limits, format: format) else {
            preconditionFailure("a 16-bit image although none was asked for")
        }
        return frame
    }

    /// Decodes as ``decode(_:limits:format:)`` does, or, when `deep` is given and the image is deeper than
    /// 8 bits without alpha, at its depth as a ``DeepImage`` (an 8-bit frame if `deep` refuses its size).
    static func decodeImage(_ data: Data, limits: ImageLimits, format: String, deep: PlanarRequest? = nil) throws
        -> DecodedImage
    {
        try HEIFReferences.check(data, format: format)
        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> DecodedImage in
            guard let context = heif_context_alloc() else {
                throw FlipbookError.imageDecoderNotCreated(by: "libheif", "a context", code: .unsupportedImage)
            }
            defer { heif_context_free(context) }
            // libheif refuses a larger declared size itself, before decoding.
            heif_context_set_maximum_image_size_limit(context, Int32(clamping: limits.maxDimension))
            // libheif decodes the tiles of a grid image on many threads at once by default. With 1 it
            // starts one thread per tile but waits for each before the next (0 would decode on this
            // thread, whose stack the codecs can overrun); Flipbook already decodes one image per core.
            heif_context_set_max_decoding_threads(context, 1)
            try check(
                heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil),
                "heif_context_read_from_memory_without_copy", format: format)
            var handle: OpaquePointer?
            try check(
                heif_context_get_primary_image_handle(context, &handle), "heif_context_get_primary_image_handle",
                format: format)
            defer { heif_image_handle_release(handle) }
            try limits.check(
                width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            let hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
            let premultiplied = hasAlpha && heif_image_handle_is_premultiplied_alpha(handle) != 0
            let colour = sourceColour(of: handle)
            if let deep, !hasAlpha, heif_image_handle_get_luma_bits_per_pixel(handle) > 8 {
                let image = try decodeDeep(handle, format: format, limits: limits)
                return
                    (deep.accepts(width: image.width, height: image.height)
                    ? DecodedImage.deep(image) : .frame(try image.eightBit())).withSourceColour(colour)
            }

            let channels = hasAlpha ? 4 : 3
            return try withDecodedPicture(
                handle, chroma: hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                bytesPerPixel: channels, deep: false, format: format, limits: limits
            ) { plane, stride, width, height, _ in
                let rowBytes = width * channels
                var pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, initialized in
                    for row in 0..<height {
                        (buffer.baseAddress! + row * rowBytes).update(from: plane + row * stride, count: rowBytes)
                    }
                    initialized = rowBytes * height
                }
                if premultiplied { SampleArithmetic.unpremultiplyRGBA(&pixels) }
                return DecodedImage.frame(
                    try Frame(width: width, height: height, format: hasAlpha ? .rgba : .rgb, pixels: pixels)
                ).withSourceColour(colour)
            }
        }
    }

    /// Decodes the image `handle` names to interleaved `chroma` (8-bit, or at its depth with `deep`),
    /// turned and cropped, checks its size against `limits`, and hands `body` its samples: the plane,
    /// its stride in bytes, the size after rotation and crop, and the bits a sample holds.
    private static func withDecodedPicture<T>(
        _ handle: OpaquePointer?, chroma: heif_chroma, bytesPerPixel: Int, deep: Bool, format: String,
        limits: ImageLimits,
        _ body: (_ plane: UnsafePointer<UInt8>, _ stride: Int, _ width: Int, _ height: Int, _ bits: Int) throws -> T
    ) throws -> T {
        let options = heif_decoding_options_alloc()
        defer { heif_decoding_options_free(options) }
        options?.pointee.convert_hdr_to_8bit = deep ? 0 : 1
        var image: OpaquePointer?
        try check(
            heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options), "heif_decode_image", format: format
        )
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_primary_width(image))
        let height = Int(heif_image_get_primary_height(image))
        try limits.check(width: width, height: height)
        var stride: Int32 = 0
        let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
            deep ? (9...16).contains(bits) : bits == 8
        else {
            throw FlipbookError.heifDecodedToNoPicture(format, deep: deep)
        }
        guard Int(stride) >= width * bytesPerPixel else {
            throw FlipbookError.heifDecodedNarrow(format)
        }
        return try body(plane, Int(stride), width, height, bits)
    }

    /// Decodes a deeper-than-8-bit image without alpha to 16-bit RGB, each sample rescaled from its
    /// depth (`v * 65535 / max`, rounded), turned and cropped as ``decode(_:limits:format:)`` turns it.
    private static func decodeDeep(_ handle: OpaquePointer?, format: String, limits: ImageLimits) throws -> DeepImage {
        try withDecodedPicture(
            handle, chroma: heif_chroma_interleaved_RRGGBB_LE, bytesPerPixel: 6, deep: true, format: format,
            limits: limits
        ) { plane, stride, width, height, bits in
            let maximum = UInt32(1 << bits - 1)
            let samples = [UInt16](unsafeUninitializedCapacity: width * height * 3) { buffer, initialized in
                for row in 0..<height {
                    let source = UnsafeRawPointer(plane + row * stride)
                    for index in 0..<width * 3 {
                        let value = UInt32(
                            UInt16(littleEndian: source.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)))
                        buffer[row * width * 3 + index] = UInt16((min(value, maximum) * 65535 + maximum / 2) / maximum)
                    }
                }
                initialized = width * height * 3
            }
            return DeepImage(width: width, height: height, samples: samples)
        }
    }

    /// What the primary image's `colr` boxes say: its ICC profile and its `nclx` code points.
    private static func sourceColour(of handle: OpaquePointer?) -> SourceColour {
        var colour = SourceColour()
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        if size > 0 && size <= SourceColour.largestProfile {
            var bytes = [UInt8](repeating: 0, count: size)
            if heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok {
                colour.iccProfile = bytes
            }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        if heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let profile = nclx?.pointee {
            colour.codePoints = SourceColour.CodePoints(
                primaries: Int(profile.color_primaries.rawValue),
                transfer: Int(profile.transfer_characteristics.rawValue),
                matrix: Int(profile.matrix_coefficients.rawValue), fullRange: profile.full_range_flag != 0)
        }
        heif_nclx_color_profile_free(nclx)
        return colour
    }

    /// The funnel for libheif's errors.
    private static func check(_ error: heif_error, _ function: String, format: String) throws {
        guard error.code != heif_error_Ok else { return }
        // libheif's messages may end in or hold line breaks; the error stays one line.
        let detail = (error.message.map { String(cString: $0) } ?? "no detail")
            .split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        let cause = LibraryCallError(library: "libheif", function: function, status: Int(error.code.rawValue))
        switch error.code {
        case heif_error_Unsupported_filetype, heif_error_Unsupported_feature:
            throw FlipbookError.imageFeatureNotDecoded(format, by: "libheif", detail: detail, cause: cause)
        case heif_error_Memory_allocation_error:
            throw FlipbookError.imageTooLargeToDecode(format, detail: detail, cause: cause)
        default:
            throw FlipbookError.imageUndecodable(format, detail, cause: cause)
        }
    }
}
