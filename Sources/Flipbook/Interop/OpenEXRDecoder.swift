internal import COpenEXR
import Foundation

/// OpenEXR images through OpenEXRCore (OpenEXR 3.1's C API), read from memory.
///
/// The first part of the file is read, scanline or tiled (its full-resolution level), under every
/// compression OpenEXRCore 3.1 decodes (none, RLE, ZIPS, ZIP, PIZ, PXR24, B44, B44A; not DWAA and DWAB,
/// which it leaves to OpenEXR's C++ library and which are refused by name): its `R`, `G`, `B`
/// and `A` channels, or `Y` for a luminance file, of half, float or uint samples, decoded to float. The
/// data window is placed in the display window, which is the picture's size (outside the data window
/// is black, and transparent when the file has alpha). The scene-linear values go through the movie's
/// ``ViewTransform`` to sRGB-encoded 16-bit samples (alpha, associated in OpenEXR, is divided out first);
/// the `chromaticities` attribute, when the file has one, is stated as the image's primaries. Sizes are
/// checked against the limits before any pixel memory is taken. Deep parts are refused by name.
enum OpenEXRDecoder {
    /// Decodes the first part of an OpenEXR file as `request` asks: a ``DeepImage`` when it asks for
    /// 16 bits at this size (with alpha only when it keeps alpha), otherwise an 8-bit frame.
    static func decodeImage(_ data: Data, request: DecodeRequest) throws -> DecodedImage {
        let view = request.colour?.view ?? .standard
        return try data.withUnsafeBytes { raw in
            try OpenEXRFile.withOpened(raw, limits: request.limits) { file in
                let picture = try file.readFirstPart(limits: request.limits)
                let image = picture.displayed(through: view)
                let wantsDeep =
                    request.deep && (request.planes?.accepts(width: image.width, height: image.height) ?? false)
                    && (!image.hasAlpha || request.deepAlpha)
                let decoded: DecodedImage = wantsDeep ? .deep(image) : .frame(try image.eightBit())
                return decoded.withSourceColour(SourceColour(chromaticities: picture.chromaticities))
            }
        }
    }
}

/// The float planes of one OpenEXR part, placed in its display window.
struct SceneLinearPicture {
    let width: Int
    let height: Int
    /// R, G, B planes (one plane repeated for a luminance file) and A when the file has alpha, each
    /// `width * height` values, associated alpha as OpenEXR stores it.
    let red: [Float]
    let green: [Float]
    let blue: [Float]
    let alpha: [Float]?
    /// White point then red, green and blue (x, y), from the `chromaticities` attribute.
    let chromaticities: [Double]?

    /// The picture through `view`: sRGB-encoded 16-bit samples, straight alpha.
    func displayed(through view: ViewTransform) -> DeepImage {
        let channels = alpha == nil ? 3 : 4
        let gain = view.gain
        var samples = [UInt16](repeating: 0, count: width * height * channels)
        func code(_ value: Float) -> UInt16 { UInt16((value * 65535).rounded()) }
        for index in 0..<(width * height) {
            var colour = (red[index], green[index], blue[index])
            let base = index * channels
            if let alpha {
                let coverage = alpha[index].isNaN ? 0 : min(max(alpha[index], 0), 1)
                samples[base + 3] = code(coverage)
                guard coverage > 0 else { continue }
                colour = (colour.0 / coverage, colour.1 / coverage, colour.2 / coverage)
            }
            samples[base] = code(view.display(colour.0, gain: gain))
            samples[base + 1] = code(view.display(colour.1, gain: gain))
            samples[base + 2] = code(view.display(colour.2, gain: gain))
        }
        return DeepImage(width: width, height: height, samples: samples, hasAlpha: alpha != nil)
    }
}

/// A read context over bytes in memory.
private final class OpenEXRFile {
    private let context: exr_context_t

    private init(context: exr_context_t) {
        self.context = context
    }

    /// Opens `bytes` (a read context whose header is parsed), runs `body` and closes it.
    static func withOpened<Result>(
        _ bytes: UnsafeRawBufferPointer, limits: ImageLimits, _ body: (OpenEXRFile) throws -> Result
    ) throws -> Result {
        guard let base = bytes.baseAddress else { throw FlipbookError.imageFileEmpty() }
        var memory = flipbook_exr_memory(bytes: base.assumingMemoryBound(to: UInt8.self), count: UInt64(bytes.count))
        // The context reads through this pointer until it is finished: both live inside this closure.
        return try withUnsafeMutablePointer(to: &memory) { memory in
            var context: exr_context_t?
            try exrCall(
                flipbook_exr_start_read_memory(&context, memory, Int32(clamping: limits.maxDimension)), "exr_start_read"
            ) { FlipbookError.imageHeaderOrDataDamaged("OpenEXR", cause: $0) }
            guard let context else {
                throw FlipbookError.imageDecoderNotCreated(by: "OpenEXR", "a read context")
            }
            defer {
                var finished: exr_context_t? = context
                exr_finish(&finished)
            }
            return try body(OpenEXRFile(context: context))
        }
    }

    /// The first part's picture, as floats in its display window.
    func readFirstPart(limits: ImageLimits) throws -> SceneLinearPicture {
        let part: Int32 = 0
        var storage = EXR_STORAGE_SCANLINE
        try exrCall(exr_get_storage(context, part, &storage), "exr_get_storage", damaged)
        guard storage == EXR_STORAGE_SCANLINE || storage == EXR_STORAGE_TILED else {
            throw FlipbookError.exrIsDeep()
        }
        var display = exr_attr_box2i_t()
        var data = exr_attr_box2i_t()
        try exrCall(exr_get_display_window(context, part, &display), "exr_get_display_window", damaged)
        try exrCall(exr_get_data_window(context, part, &data), "exr_get_data_window", damaged)
        let width = Int(display.max.x) - Int(display.min.x) + 1
        let height = Int(display.max.y) - Int(display.min.y) + 1
        let dataWidth = Int(data.max.x) - Int(data.min.x) + 1
        let dataHeight = Int(data.max.y) - Int(data.min.y) + 1
        try limits.check(width: width, height: height)
        try limits.check(width: dataWidth, height: dataHeight)

        var compression = EXR_COMPRESSION_NONE
        try exrCall(exr_get_compression(context, part, &compression), "exr_get_compression", damaged)
        guard compression != EXR_COMPRESSION_DWAA && compression != EXR_COMPRESSION_DWAB else {
            throw FlipbookError.exrCompressionNotDecoded(compression == EXR_COMPRESSION_DWAA ? "DWAA" : "DWAB")
        }
        let names = try channelNames(part)
        let colourNames = names.contains("R") && names.contains("G") && names.contains("B") ? ["R", "G", "B"] : nil
        guard let wanted = colourNames ?? (names.contains("Y") ? ["Y"] : nil) else {
            throw FlipbookError.exrHasNoPictureChannels(names)
        }
        let hasAlpha = names.contains("A")
        let planes = try decodePlanes(
            part, names: wanted + (hasAlpha ? ["A"] : []), storage: storage, data: data, dataWidth: dataWidth,
            dataHeight: dataHeight)

        // The data window placed in the display window: each display row takes the data it overlaps.
        func placed(_ name: String) -> [Float] {
            if data.min.x == display.min.x && data.min.y == display.min.y && dataWidth == width && dataHeight == height
            {
                return planes.values(of: name)
            }
            // Rows copied straight from the decoded plane into the display window.
            guard let plane = planes.start(of: name) else { return [] }
            var result = [Float](repeating: 0, count: width * height)
            let left = max(Int(data.min.x), Int(display.min.x))
            let right = min(Int(data.max.x), Int(display.max.x))
            let top = max(Int(data.min.y), Int(display.min.y))
            let bottom = min(Int(data.max.y), Int(display.max.y))
            guard left <= right, top <= bottom else { return result }
            for y in top...bottom {
                let from = (y - Int(data.min.y)) * dataWidth + (left - Int(data.min.x))
                let to = (y - Int(display.min.y)) * width + (left - Int(display.min.x))
                result.replaceSubrange(
                    to..<(to + right - left + 1),
                    with: UnsafeBufferPointer(start: plane + from, count: right - left + 1))
            }
            return result
        }
        let colour = wanted.map { placed($0) }
        return SceneLinearPicture(
            width: width, height: height, red: colour[0], green: colour[colour.count == 3 ? 1 : 0],
            blue: colour[colour.count == 3 ? 2 : 0], alpha: hasAlpha ? placed("A") : nil,
            chromaticities: chromaticities(part))
    }

    private let damaged: (any Error) -> FlipbookError = { FlipbookError.imageHeaderOrDataDamaged("OpenEXR", cause: $0) }

    /// The part's channel names, each at full resolution; a subsampled channel is refused.
    private func channelNames(_ part: Int32) throws -> [String] {
        var list: UnsafePointer<exr_attr_chlist_t>?
        try exrCall(exr_get_channels(context, part, &list), "exr_get_channels", damaged)
        guard let list, let entries = list.pointee.entries else { return [] }
        return try (0..<Int(list.pointee.num_channels)).map { index in
            let entry = entries[index]
            let name = entry.name.str.map { String(cString: $0) } ?? ""
            guard entry.x_sampling == 1 && entry.y_sampling == 1 else {
                throw FlipbookError.imageFeatureNotDecoded(
                    "OpenEXR", by: "Flipbook", detail: "channel \(name) is subsampled (luminance-chroma files)")
            }
            return name
        }
    }

    /// The `chromaticities` attribute as white point then red, green and blue (x, y), if the file has one.
    private func chromaticities(_ part: Int32) -> [Double]? {
        var value = exr_attr_chromaticities_t()
        guard
            exr_attr_get_chromaticities(context, part, "chromaticities", &value)
                == exr_result_t(EXR_ERR_SUCCESS.rawValue)
        else {
            return nil
        }
        return [
            value.white_x, value.white_y, value.red_x, value.red_y, value.green_x, value.green_y,
            value.blue_x, value.blue_y,
        ].map(Double.init)
    }

    /// Every chunk of the part (scanline blocks, or the tiles of the full-resolution level) decoded into
    /// one float plane per channel named, the size of the data window.
    private func decodePlanes(
        _ part: Int32, names: [String], storage: exr_storage_t, data: exr_attr_box2i_t, dataWidth: Int, dataHeight: Int
    ) throws -> FloatPlanes {
        let planes = FloatPlanes(names: names, count: dataWidth * dataHeight)
        if storage == EXR_STORAGE_SCANLINE {
            var lines: Int32 = 0
            try exrCall(exr_get_scanlines_per_chunk(context, part, &lines), "exr_get_scanlines_per_chunk", damaged)
            var y = data.min.y
            while y <= data.max.y {
                var chunk = exr_chunk_info_t()
                try exrCall(
                    exr_read_scanline_chunk_info(context, part, y, &chunk), "exr_read_scanline_chunk_info", damaged)
                try decode(
                    chunk, at: (Int(chunk.start_x) - Int(data.min.x), Int(chunk.start_y) - Int(data.min.y)), part: part,
                    into: planes, dataWidth: dataWidth, dataHeight: dataHeight)
                let (next, overflow) = y.addingReportingOverflow(max(lines, 1))
                guard !overflow else { break }
                y = next
            }
            return planes
        }
        var (tileWidth, tileHeight): (UInt32, UInt32) = (0, 0)
        var level = EXR_TILE_ONE_LEVEL
        var round = EXR_TILE_ROUND_DOWN
        try exrCall(
            exr_get_tile_descriptor(context, part, &tileWidth, &tileHeight, &level, &round), "exr_get_tile_descriptor",
            damaged)
        guard tileWidth > 0, tileHeight > 0 else { throw FlipbookError.imageHeaderOrDataDamaged("OpenEXR") }
        let columns = (dataWidth + Int(tileWidth) - 1) / Int(tileWidth)
        let rows = (dataHeight + Int(tileHeight) - 1) / Int(tileHeight)
        for row in 0..<rows {
            for column in 0..<columns {
                var chunk = exr_chunk_info_t()
                try exrCall(
                    exr_read_tile_chunk_info(context, part, Int32(column), Int32(row), 0, 0, &chunk),
                    "exr_read_tile_chunk_info", damaged)
                // A tile's chunk says which tile it is; its pixels start a whole number of tiles in.
                try decode(
                    chunk, at: (column * Int(tileWidth), row * Int(tileHeight)), part: part, into: planes,
                    dataWidth: dataWidth, dataHeight: dataHeight)
            }
        }
        return planes
    }

    /// Decodes one chunk into the planes of the channels it holds, its first pixel at `origin` in the
    /// data window.
    private func decode(
        _ chunk: exr_chunk_info_t, at origin: (x: Int, y: Int), part: Int32, into planes: FloatPlanes,
        dataWidth: Int, dataHeight: Int
    ) throws {
        var chunk = chunk
        // The chunk's rectangle in the data window; a damaged offset table could name any other.
        let (x, y) = origin
        guard x >= 0, y >= 0, chunk.width >= 0, chunk.height >= 0, x + Int(chunk.width) <= dataWidth,
            y + Int(chunk.height) <= dataHeight
        else {
            throw FlipbookError.imageDataDamaged("OpenEXR")
        }
        var pipeline = exr_decode_pipeline_t()
        try exrCall(exr_decoding_initialize(context, part, &chunk, &pipeline), "exr_decoding_initialize", dataDamaged)
        defer { exr_decoding_destroy(context, &pipeline) }
        for index in 0..<Int(pipeline.channel_count) {
            let name = pipeline.channels[index].channel_name.map { String(cString: $0) } ?? ""
            guard let plane = planes.start(of: name) else {
                pipeline.channels[index].decode_to_ptr = nil
                continue
            }
            pipeline.channels[index].decode_to_ptr = UnsafeMutableRawPointer(plane + y * dataWidth + x)
                .assumingMemoryBound(to: UInt8.self)
            pipeline.channels[index].user_pixel_stride = Int32(MemoryLayout<Float>.size)
            pipeline.channels[index].user_line_stride = Int32(dataWidth * MemoryLayout<Float>.size)
            pipeline.channels[index].user_data_type = UInt16(EXR_PIXEL_FLOAT.rawValue)
            pipeline.channels[index].user_bytes_per_element = Int16(MemoryLayout<Float>.size)
        }
        try exrCall(
            exr_decoding_choose_default_routines(context, part, &pipeline), "exr_decoding_choose_default_routines",
            dataDamaged)
        try exrCall(exr_decoding_run(context, part, &pipeline), "exr_decoding_run", dataDamaged)
    }

    private let dataDamaged: (any Error) -> FlipbookError = { FlipbookError.imageDataDamaged("OpenEXR", cause: $0) }
}

/// Float planes that stay where they are while OpenEXRCore decodes chunks into them.
private final class FloatPlanes {
    private let planes: [String: UnsafeMutableBufferPointer<Float>]

    init(names: [String], count: Int) {
        var planes: [String: UnsafeMutableBufferPointer<Float>] = [:]
        for name in names where planes[name] == nil {
            let plane = UnsafeMutableBufferPointer<Float>.allocate(capacity: count)
            plane.initialize(repeating: 0)
            planes[name] = plane
        }
        self.planes = planes
    }

    deinit {
        for plane in planes.values { plane.deallocate() }
    }

    /// The first value of the plane of channel `name`, if it is one of the planes.
    func start(of name: String) -> UnsafeMutablePointer<Float>? { planes[name]?.baseAddress }

    /// A copy of the plane of channel `name`.
    func values(of name: String) -> [Float] { planes[name].map(Array.init) ?? [] }
}

/// Runs one OpenEXRCore call: a status other than success becomes the error `failure` makes of it,
/// with the library's name for the status as its cause.
private func exrCall(
    _ status: exr_result_t, _ function: String, _ failure: (any Error) -> FlipbookError
) throws {
    guard status != exr_result_t(EXR_ERR_SUCCESS.rawValue) else { return }
    let name = exr_get_error_code_as_string(status).map { String(cString: $0) }
    throw failure(LibraryCallError(library: "OpenEXR", function: function, status: Int(status), libraryMessage: name))
}
