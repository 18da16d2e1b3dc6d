internal import COpenEXR
internal import COpenEXRImf
import Foundation

/// OpenEXR images through OpenEXRCore (OpenEXR 3.1's C API), read from memory.
///
/// One picture of the file is read (``OpenEXRLayers``: the layer or part `--layer` names, by default the
/// first part's bare channels), scanline or tiled (its full-resolution level), under every
/// compression (none, RLE, ZIPS, ZIP, PIZ, PXR24, B44, B44A by OpenEXRCore; DWAA and DWAB, which
/// OpenEXRCore 3.1 leaves to it, by OpenEXR's C++ library): its `R`, `G`, `B`
/// and `A` channels, or `Y` for a luminance file (with subsampled `RY` and `BY` for a luminance-chroma
/// file, interpolated and made RGB with the file's luminance weights), of half, float or uint samples,
/// decoded to float. The
/// data window is placed in the display window, which is the picture's size (outside the data window
/// is black, and transparent when the file has alpha). The scene-linear values go through the movie's
/// ``ViewTransform`` to sRGB-encoded 16-bit samples (alpha, associated in OpenEXR, is divided out first);
/// the picture's primaries (its `chromaticities` attribute, or BT.709's) are made the movie's in linear light. Sizes are
/// checked against the limits before any pixel memory is taken. Deep parts are refused by name.
enum OpenEXRDecoder {
    /// Decodes the picture of an OpenEXR file `request` asks for (``DecodeRequest/layer``): a ``DeepImage`` when it asks for
    /// 16 bits at this size (with alpha only when it keeps alpha), otherwise an 8-bit frame.
    /// A render of half R, G, B channels shown through the standard view goes the quick way
    /// (``OpenEXRFile/displayedHalves(_:for:view:)``) unless `quick` is false; the picture is the same.
    static func decodeImage(_ data: Data, request: DecodeRequest, quick: Bool = true) throws -> DecodedImage {
        let view = request.colour?.view ?? .standard
        return try data.withUnsafeBytes { raw in
            try OpenEXRFile.withOpened(raw, limits: request.limits) { file in
                let chosen = try file.layers().choose(request.layer)
                if quick, let image = try file.displayedHalves(chosen, for: request, view: view) { return image }
                let picture = try file.read(chosen, limits: request.limits)
                return try picture.decoded(for: request, view: view)
            }
        }
    }

    /// Whether `request`'s picture of the file goes the quick way; for the tests that hold both ways
    /// to one picture.
    static func goesQuickly(_ data: Data, request: DecodeRequest) throws -> Bool {
        try data.withUnsafeBytes { raw in
            try OpenEXRFile.withOpened(raw, limits: request.limits) { file in
                try file.displayedHalves(
                    file.layers().choose(request.layer), for: request, view: request.colour?.view ?? .standard) != nil
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

    /// The picture as `request` asks for it: a ``DeepImage`` when it asks for 16 bits at this size (with
    /// alpha only when it keeps alpha), otherwise an 8-bit frame; shown through `view` for a movie of
    /// standard dynamic range, coded with the movie's transfer for an HDR one (light above white kept,
    /// as no picture at 8 or 16 bits of sRGB's curve could keep it).
    func decoded(for request: DecodeRequest, view: ViewTransform? = nil) throws -> DecodedImage {
        let image: DeepImage
        let colour: SourceColour
        if let settings = request.colour, settings.target.isHDR {
            image = coded(for: settings, over: request.background)
            colour = image.sourceColour
        } else {
            let view = view ?? request.colour?.view ?? .standard
            let (primaries, stated) = Self.shownPrimaries(
                for: request, view: view, chromaticities: chromaticities)
            image = try displayed(through: view, over: request.background, in: primaries)
            colour = stated
        }
        var shown = colour
        shown.viewExposed = true
        return try request.delivering(image).withSourceColour(shown)
    }

    /// The primaries (white then red, green, blue x, y) a picture of `chromaticities` is made in linear
    /// light before `view` shows it for an SDR movie of `request`, and the colour the shown picture states.
    ///
    /// The file's primaries (its `chromaticities`, or BT.709's, OpenEXR's default) are made the movie's,
    /// and the picture is then the movie's; with colour management off its values are taken as they are;
    /// an OpenColorIO config's input colour space says the primaries instead. Outside a movie, stated
    /// primaries are made BT.709's.
    static func shownPrimaries(
        for request: DecodeRequest, view: ViewTransform, chromaticities: [Double]?
    ) -> (primaries: [Double]?, stated: SourceColour) {
        guard view.openColorIO == nil else { return (nil, .unstated) }
        guard let settings = request.colour else {
            return (chromaticities == nil ? nil : PrimariesConversion.bt709, .unstated)
        }
        guard settings.management == .on else { return (nil, .unstated) }
        return (PrimariesConversion.primaries(of: settings.target), .inMovieSpace)
    }

    /// The conversion of light in `chromaticities` (BT.709's when `nil`) to `primaries` (white then red,
    /// green, blue x, y); `nil` when none is asked for or they are the same.
    static func conversion(from chromaticities: [Double]?, to primaries: [Double]?) -> PrimariesConversion? {
        let own = chromaticities ?? PrimariesConversion.bt709
        guard let primaries, own != primaries else { return nil }
        return PrimariesConversion(from: own, to: primaries)
    }

    /// The picture coded for an HDR movie of `colour`: exposed, its primaries made BT.2020's, its light
    /// relative to white coded with the movie's transfer (reference white at `colour`'s peak luminance),
    /// 16 bits, stated as BT.2020 with that transfer. Alpha as ``displayed(through:over:)`` treats it.
    func coded(for colour: ColourSettings, over background: RGBColour?) -> DeepImage {
        let coder = HDRPixelCoder(colour, chromaticities: chromaticities)
        let keepsAlpha = alpha != nil && background == nil
        let channels = keepsAlpha ? 4 : 3
        var samples = [UInt16](repeating: 0, count: width * height * channels)
        let under = background.map { colour in
            [colour.red, colour.green, colour.blue].map { ViewTransform.linear(Float($0) / 255) / coder.gain }
        }
        samples.withUnsafeMutableBufferPointer { out in
            for index in 0..<(width * height) {
                let base = index * channels
                let (light, coverage) = self.light(at: index, under: under)
                if let coverage, under == nil {
                    out[base + 3] = UInt16(coverage * 65535 + 0.5)
                    guard coverage > 0 else { continue }
                }
                (out[base], out[base + 1], out[base + 2]) = coder.code(light.0, light.1, light.2)
            }
        }
        var image = DeepImage(width: width, height: height, samples: samples, hasAlpha: keepsAlpha)
        image.sourceColour = colour.target.codedColour ?? .unstated
        return image
    }

    /// Pixel `index`'s light (in other primaries, through `conversion`) and its coverage (`nil` without
    /// alpha): composited over `under` (the background as scene light), or, without one, with the alpha
    /// divided out (black where it is 0).
    @inline(__always) private func light(
        at index: Int, under: [Float]?, through conversion: PrimariesConversion? = nil
    ) -> ((Float, Float, Float), Float?) {
        let light = conversion?.apply(red[index], green[index], blue[index]) ?? (red[index], green[index], blue[index])
        guard let alpha else { return (light, nil) }
        let coverage = alpha[index].isNaN ? 0 : min(max(alpha[index], 0), 1)
        if let under {
            let behind = 1 - coverage
            return ((light.0 + under[0] * behind, light.1 + under[1] * behind, light.2 + under[2] * behind), coverage)
        }
        guard coverage > 0 else { return ((0, 0, 0), 0) }
        return ((light.0 / coverage, light.1 / coverage, light.2 / coverage), coverage)
    }

    /// The picture through `view`: sRGB-encoded 16-bit samples. With a `background`, alpha is
    /// composited over it in linear light (the background's sRGB values made linear) and the picture has
    /// none; without one, alpha is divided out and kept, straight. The light is made `primaries`' first
    /// (white then red, green, blue x, y), when given, in the same pass.
    func displayed(
        through view: ViewTransform, over background: RGBColour? = nil, in primaries: [Double]? = nil
    ) throws -> DeepImage {
        let conversion = Self.conversion(from: chromaticities, to: primaries)
        let keepsAlpha = alpha != nil && background == nil
        let channels = keepsAlpha ? 4 : 3
        let gain = view.gain
        var samples = [UInt16](repeating: 0, count: width * height * channels)
        // Values are within 0...1 here: rounded by adding a half, without a call into libm.
        @inline(__always) func code(_ value: Float) -> UInt16 { UInt16(value * 65535 + 0.5) }
        // The background as scene light that the view shows as the background's own values.
        let under = background.map { colour in
            [colour.red, colour.green, colour.blue].map { ViewTransform.linear(Float($0) / 255) / gain }
        }
        // The light to show, exposed, alpha composited or divided out. Without alpha or a config's view,
        // one pass from the planes to the samples.
        if alpha == nil && view.openColorIO == nil {
            samples.withUnsafeMutableBufferPointer { out in
                for index in 0..<(width * height) {
                    let (r, g, b) =
                        conversion?.apply(red[index], green[index], blue[index]) ?? (
                            red[index], green[index], blue[index]
                        )
                    let shown = view.display(r, g, b, gain: gain)
                    out[3 * index] = code(shown.0)
                    out[3 * index + 1] = code(shown.1)
                    out[3 * index + 2] = code(shown.2)
                }
            }
            return DeepImage(width: width, height: height, samples: samples, hasAlpha: false)
        }
        var light = [Float](repeating: 0, count: width * height * 3)
        for index in 0..<(width * height) {
            let (colour, coverage) = self.light(at: index, under: under, through: conversion)
            if let coverage, under == nil {
                samples[index * channels + 3] = code(coverage)
                guard coverage > 0 else { continue }
            }
            light[3 * index] = colour.0 * gain
            light[3 * index + 1] = colour.1 * gain
            light[3 * index + 2] = colour.2 * gain
        }
        if let config = view.openColorIO {
            // The config's processor makes display values; NaN (which it passes on) is black.
            guard try config.processor().apply(&light) else {
                throw FlipbookError.colourConfigNotRead(config.config)
            }
            for index in 0..<(width * height) {
                for channel in 0..<3 {
                    let value = light[3 * index + channel]
                    samples[index * channels + channel] = code(value.isNaN ? 0 : min(max(value, 0), 1))
                }
            }
        } else {
            for index in 0..<(width * height) {
                let shown = view.display(light[3 * index], light[3 * index + 1], light[3 * index + 2], gain: 1)
                samples[index * channels] = code(shown.0)
                samples[index * channels + 1] = code(shown.1)
                samples[index * channels + 2] = code(shown.2)
            }
        }
        return DeepImage(width: width, height: height, samples: samples, hasAlpha: keepsAlpha)
    }
}

/// A read context over bytes in memory.
final class OpenEXRFile {
    let context: exr_context_t
    /// The file's bytes, for OpenEXR's C++ library where OpenEXRCore does not decode (DWAA, DWAB).
    private let bytes: UnsafeRawBufferPointer

    private init(context: exr_context_t, bytes: UnsafeRawBufferPointer) {
        self.context = context
        self.bytes = bytes
    }

    /// Opens `bytes` (a read context whose header is parsed), runs `body` and closes it.
    static func withOpened<Result>(
        _ bytes: UnsafeRawBufferPointer, limits: ImageLimits, strict: Bool = false,
        _ body: (OpenEXRFile) throws -> Result
    ) throws -> Result {
        guard let base = bytes.baseAddress else { throw FlipbookError.imageFileEmpty() }
        var memory = flipbook_exr_memory(bytes: base.assumingMemoryBound(to: UInt8.self), count: UInt64(bytes.count))
        // The context reads through this pointer until it is finished: both live inside this closure.
        return try withUnsafeMutablePointer(to: &memory) { memory in
            var context: exr_context_t?
            try exrCall(
                flipbook_exr_start_read_memory(&context, memory, Int32(clamping: limits.maxDimension), strict ? 1 : 0),
                "exr_start_read"
            ) { FlipbookError.imageHeaderOrDataDamaged("OpenEXR", cause: $0) }
            guard let context else {
                throw FlipbookError.imageDecoderNotCreated(by: "OpenEXR", "a read context")
            }
            defer {
                var finished: exr_context_t? = context
                exr_finish(&finished)
            }
            return try body(OpenEXRFile(context: context, bytes: bytes))
        }
    }

    /// The file's parts and their channels, for choosing the picture to read.
    func layers() throws -> OpenEXRLayers {
        var count: Int32 = 0
        try exrCall(exr_get_count(context, &count), "exr_get_count", damaged)
        let parts = try (0..<max(count, 0)).map { part in
            var storage = EXR_STORAGE_SCANLINE
            try exrCall(exr_get_storage(context, part, &storage), "exr_get_storage", damaged)
            var name: UnsafePointer<CChar>?
            let named = exr_get_name(context, part, &name) == exr_result_t(EXR_ERR_SUCCESS.rawValue)
            return OpenEXRLayers.Part(
                index: part, name: named ? name.map { String(cString: $0) } : nil,
                deep: storage != EXR_STORAGE_SCANLINE && storage != EXR_STORAGE_TILED,
                channels: try channels(part).map(\.name))
        }
        return OpenEXRLayers(parts: parts)
    }

    /// One picture of the file, as floats in its part's display window.
    func read(_ picture: OpenEXRLayers.Picture, limits: ImageLimits) throws -> SceneLinearPicture {
        let part = picture.part
        var storage = EXR_STORAGE_SCANLINE
        try exrCall(exr_get_storage(context, part, &storage), "exr_get_storage", damaged)
        guard storage == EXR_STORAGE_SCANLINE || storage == EXR_STORAGE_TILED else {
            throw FlipbookError.exrIsDeep()
        }
        let windows = try windows(part, limits: limits)
        let (width, height, data, window) = (windows.width, windows.height, windows.data, windows.window)
        let (dataWidth, dataHeight) = (window.width, window.height)

        var compression = EXR_COMPRESSION_NONE
        try exrCall(exr_get_compression(context, part, &compression), "exr_get_compression", damaged)
        let isDWA = compression == EXR_COMPRESSION_DWAA || compression == EXR_COMPRESSION_DWAB
        let sampling = Dictionary(
            try channels(part).map { ($0.name, ($0.x, $0.y)) }, uniquingKeysWith: { first, _ in first })
        var shapes: [String: FloatPlanes.Shape] = [:]
        for (role, name) in picture.channels {
            let (x, y) = sampling[name] ?? (1, 1)
            // Only a luminance-chroma file's chroma may be subsampled, and only evenly across the window.
            guard (x == 1 && y == 1) || (["RY", "BY"].contains(role) && x > 0 && y > 0),
                Int(data.min.x) % x == 0, Int(data.min.y) % y == 0, dataWidth % x == 0, dataHeight % y == 0
            else {
                throw FlipbookError.imageFeatureNotDecoded(
                    "OpenEXR", by: "Flipbook", detail: "channel \(name) is sampled every \(x) x \(y) pixels")
            }
            shapes[name] = FloatPlanes.Shape(width: dataWidth / x, height: dataHeight / y, xSampling: x, ySampling: y)
        }
        let planes =
            isDWA
            ? try decodeWithImf(part, shapes: shapes, limits: limits)
            : try decodePlanes(
                part, shapes: shapes, zip: OpenEXRZipChunks(compression), storage: storage, data: data,
                dataWidth: dataWidth, dataHeight: dataHeight)

        let chromaticities = chromaticities(part)
        func placed(_ role: String) -> [Float] {
            guard let name = picture.channels[role] else { return [] }
            return window.placed(planes.fullResolution(of: name), width: width, height: height)
        }
        let alpha = picture.channels["A"] == nil ? nil : placed("A")
        if !picture.isLuminance {
            return SceneLinearPicture(
                width: width, height: height, red: placed("R"), green: placed("G"), blue: placed("B"), alpha: alpha,
                chromaticities: chromaticities)
        }
        let luminance = placed("Y")
        guard picture.hasChroma else {
            return SceneLinearPicture(
                width: width, height: height, red: luminance, green: luminance, blue: luminance, alpha: alpha,
                chromaticities: chromaticities)
        }
        let (red, green, blue) = LuminanceChroma.rgb(
            luminance: luminance, redDifference: placed("RY"), blueDifference: placed("BY"),
            weights: LuminanceChroma.weights(chromaticities))
        return SceneLinearPicture(
            width: width, height: height, red: red, green: green, blue: blue, alpha: alpha,
            chromaticities: chromaticities)
    }

    let damaged: (any Error) -> FlipbookError = { FlipbookError.imageHeaderOrDataDamaged("OpenEXR", cause: $0) }

    /// The part's display window (the picture's size) and data window, both checked against `limits`.
    func windows(_ part: Int32, limits: ImageLimits) throws -> PartWindows {
        var display = exr_attr_box2i_t()
        var data = exr_attr_box2i_t()
        try exrCall(exr_get_display_window(context, part, &display), "exr_get_display_window", damaged)
        try exrCall(exr_get_data_window(context, part, &data), "exr_get_data_window", damaged)
        let windows = PartWindows(
            width: Int(display.max.x) - Int(display.min.x) + 1, height: Int(display.max.y) - Int(display.min.y) + 1,
            data: data,
            window: DataWindow(
                left: Int(data.min.x) - Int(display.min.x), top: Int(data.min.y) - Int(display.min.y),
                width: Int(data.max.x) - Int(data.min.x) + 1, height: Int(data.max.y) - Int(data.min.y) + 1))
        try limits.check(width: windows.width, height: windows.height)
        try limits.check(width: windows.window.width, height: windows.window.height)
        return windows
    }

    /// The part's channels: each name, its sampling (1 for every pixel) and its sample type.
    func channels(_ part: Int32) throws -> [(name: String, x: Int, y: Int, type: exr_pixel_type_t)] {
        var list: UnsafePointer<exr_attr_chlist_t>?
        try exrCall(exr_get_channels(context, part, &list), "exr_get_channels", damaged)
        guard let list, let entries = list.pointee.entries else { return [] }
        return (0..<Int(list.pointee.num_channels)).map { index in
            let entry = entries[index]
            return (
                entry.name.str.map { String(cString: $0) } ?? "", Int(entry.x_sampling), Int(entry.y_sampling),
                entry.pixel_type
            )
        }
    }

    /// The `chromaticities` attribute as white point then red, green and blue (x, y), if the file has one.
    func chromaticities(_ part: Int32) -> [Double]? {
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
    /// one float plane per channel named, the size of the data window (over its sampling).
    private func decodePlanes(
        _ part: Int32, shapes: [String: FloatPlanes.Shape], zip: OpenEXRZipChunks?, storage: exr_storage_t,
        data: exr_attr_box2i_t,
        dataWidth: Int, dataHeight: Int
    ) throws -> FloatPlanes {
        let planes = FloatPlanes(shapes)
        try forEachChunk(part, storage: storage, data: data, dataWidth: dataWidth, dataHeight: dataHeight) {
            chunk, origin in
            try decode(
                chunk, at: origin, part: part, into: planes, zip: zip, dataWidth: dataWidth, dataHeight: dataHeight)
        }
        return planes
    }

    /// Runs `body` with every chunk of the part (scanline blocks, or the tiles of the full-resolution
    /// level) and where its first pixel lies in the data window, once its rectangle is checked to lie
    /// inside the window (a damaged offset table could name any other).
    func forEachChunk(
        _ part: Int32, storage: exr_storage_t, data: exr_attr_box2i_t, dataWidth: Int, dataHeight: Int,
        _ body: (exr_chunk_info_t, (x: Int, y: Int)) throws -> Void
    ) throws {
        func checked(_ chunk: exr_chunk_info_t, at origin: (x: Int, y: Int)) throws {
            guard origin.x >= 0, origin.y >= 0, chunk.width >= 0, chunk.height >= 0,
                origin.x + Int(chunk.width) <= dataWidth, origin.y + Int(chunk.height) <= dataHeight
            else {
                throw FlipbookError.imageDataDamaged("OpenEXR")
            }
            try body(chunk, origin)
        }
        if storage == EXR_STORAGE_SCANLINE {
            var lines: Int32 = 0
            try exrCall(exr_get_scanlines_per_chunk(context, part, &lines), "exr_get_scanlines_per_chunk", damaged)
            var y = data.min.y
            while y <= data.max.y {
                var chunk = exr_chunk_info_t()
                try exrCall(
                    exr_read_scanline_chunk_info(context, part, y, &chunk), "exr_read_scanline_chunk_info", damaged)
                try checked(chunk, at: (Int(chunk.start_x) - Int(data.min.x), Int(chunk.start_y) - Int(data.min.y)))
                let (next, overflow) = y.addingReportingOverflow(max(lines, 1))
                guard !overflow else { break }
                y = next
            }
            return
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
                try checked(chunk, at: (column * Int(tileWidth), row * Int(tileHeight)))
            }
        }
    }

    /// The part's channels named in `shapes` read by OpenEXR's C++ library (which decodes DWAA and DWAB,
    /// as OpenEXRCore 3.1 does not), as float planes the size of the data window over their sampling.
    private func decodeWithImf(_ part: Int32, shapes: [String: FloatPlanes.Shape], limits: ImageLimits) throws
        -> FloatPlanes
    {
        // The C++ library takes attribute sizes from the header as they come: the header must first pass
        // OpenEXRCore's strict reading, which checks every one.
        try Self.withOpened(bytes, limits: limits, strict: true) { _ in }
        let planes = FloatPlanes(shapes)
        let names = Array(shapes.keys)
        var message = [CChar](repeating: 0, count: 512)
        let status = withArrayOfCStrings(names) { cNames in
            var starts = names.map { planes.start(of: $0) }
            var widths = names.map { Int32(shapes[$0]!.width) }
            var xs = names.map { Int32(shapes[$0]!.xSampling) }
            var ys = names.map { Int32(shapes[$0]!.ySampling) }
            return flipbook_exr_imf_read(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count), part, cNames,
                Int32(names.count), &starts, &widths, &xs, &ys, Int32(clamping: limits.maxDimension), &message,
                message.count)
        }
        guard status == 0 else {
            throw FlipbookError.imageDataDamaged(
                "OpenEXR", cause: LibraryCallError.thrown(by: "OpenEXR", "InputPart::readPixels", message: message))
        }
        return planes
    }

    /// Decodes one chunk into the planes of the channels it holds, its first pixel at `origin` in the
    /// data window.
    private func decode(
        _ chunk: exr_chunk_info_t, at origin: (x: Int, y: Int), part: Int32, into planes: FloatPlanes,
        zip: OpenEXRZipChunks?, dataWidth: Int, dataHeight: Int
    ) throws {
        var chunk = chunk
        let (x, y) = origin
        var pipeline = exr_decode_pipeline_t()
        try exrCall(exr_decoding_initialize(context, part, &chunk, &pipeline), "exr_decoding_initialize", dataDamaged)
        defer { exr_decoding_destroy(context, &pipeline) }
        // OpenEXRCore 3.1.5's routines that change type (half to float) for three or four channels write
        // every channel of the part, past a subsampled plane and through the null pointer of a channel
        // not asked for: unless every channel is filled at full resolution, each comes as stored (each
        // sample in a float's room) through its general routine, and is made float after the part is read.
        let filled = (0..<Int(pipeline.channel_count)).filter { index in
            planes.start(of: pipeline.channels[index].channel_name.map { String(cString: $0) } ?? "") != nil
        }
        let asStored = planes.hasSubsampled || filled.count < Int(pipeline.channel_count)
        for index in 0..<Int(pipeline.channel_count) {
            let channel = pipeline.channels[index]
            let name = channel.channel_name.map { String(cString: $0) } ?? ""
            guard let plane = planes.start(of: name), let shape = planes.shape(of: name) else {
                pipeline.channels[index].decode_to_ptr = nil
                continue
            }
            // A subsampled channel's first sample in the chunk: the first row of it at or below the chunk's top.
            let column = (x + shape.xSampling - 1) / shape.xSampling
            let row = (y + shape.ySampling - 1) / shape.ySampling
            guard channel.width >= 0, channel.height >= 0, column + Int(channel.width) <= shape.width,
                row + Int(channel.height) <= shape.height
            else {
                throw FlipbookError.imageDataDamaged("OpenEXR")
            }
            pipeline.channels[index].decode_to_ptr = UnsafeMutableRawPointer(plane + row * shape.width + column)
                .assumingMemoryBound(to: UInt8.self)
            pipeline.channels[index].user_pixel_stride = Int32(MemoryLayout<Float>.size)
            pipeline.channels[index].user_line_stride = Int32(shape.width * MemoryLayout<Float>.size)
            if asStored {
                pipeline.channels[index].user_data_type = channel.data_type
                pipeline.channels[index].user_bytes_per_element = Int16(channel.bytes_per_element)
                planes.store(
                    name,
                    as: channel.data_type == UInt16(EXR_PIXEL_HALF.rawValue)
                        ? .half : channel.data_type == UInt16(EXR_PIXEL_UINT.rawValue) ? .uint : .float)
            } else {
                pipeline.channels[index].user_data_type = UInt16(EXR_PIXEL_FLOAT.rawValue)
                pipeline.channels[index].user_bytes_per_element = Int16(MemoryLayout<Float>.size)
            }
        }
        try exrCall(
            exr_decoding_choose_default_routines(context, part, &pipeline), "exr_decoding_choose_default_routines",
            dataDamaged)
        zip?.take(&pipeline)
        try exrCall(exr_decoding_run(context, part, &pipeline), "exr_decoding_run", dataDamaged)
    }

    let dataDamaged: (any Error) -> FlipbookError = { FlipbookError.imageDataDamaged("OpenEXR", cause: $0) }
}

/// Float planes that stay where they are while OpenEXRCore decodes chunks into them.
private final class FloatPlanes {
    /// A plane's size in samples and how many pixels apart its samples are.
    struct Shape {
        let width: Int
        let height: Int
        let xSampling: Int
        let ySampling: Int

        var isSubsampled: Bool { xSampling > 1 || ySampling > 1 }
    }

    /// How a plane's samples are stored until ``fullResolution(of:)`` reads them.
    enum Stored {
        /// A half in the low two bytes of each float's room.
        case half
        /// A float.
        case float
        /// A 32-bit unsigned integer.
        case uint
    }

    private let planes: [String: (UnsafeMutableBufferPointer<Float>, Shape)]
    private var stored: [String: Stored] = [:]

    init(_ shapes: [String: Shape]) {
        planes = shapes.mapValues { shape in
            let plane = UnsafeMutableBufferPointer<Float>.allocate(capacity: shape.width * shape.height)
            plane.initialize(repeating: 0)
            return (plane, shape)
        }
    }

    deinit {
        for (plane, _) in planes.values { plane.deallocate() }
    }

    /// The first value of the plane of channel `name`, if it is one of the planes.
    func start(of name: String) -> UnsafeMutablePointer<Float>? { planes[name]?.0.baseAddress }

    /// The shape of the plane of channel `name`.
    func shape(of name: String) -> Shape? { planes[name]?.1 }

    /// Whether any plane is subsampled.
    var hasSubsampled: Bool { planes.values.contains { $0.1.isSubsampled } }

    /// Records how the samples of plane `name` are stored, when they are not floats.
    func store(_ name: String, as kind: Stored) { stored[name] = kind }

    /// The plane of channel `name` at every pixel of the data window: a subsampled plane is
    /// interpolated linearly between its samples.
    func fullResolution(of name: String) -> [Float] {
        guard let (plane, shape) = planes[name] else { return [] }
        if stored[name] == .half {
            let raw = UnsafeMutableRawBufferPointer(plane)
            for index in 0..<plane.count {
                plane[index] = Float(Float16(bitPattern: raw.load(fromByteOffset: index * 4, as: UInt16.self)))
            }
            stored[name] = .float
        } else if stored[name] == .uint {
            let raw = UnsafeMutableRawBufferPointer(plane)
            for index in 0..<plane.count {
                plane[index] = Float(raw.load(fromByteOffset: index * 4, as: UInt32.self))
            }
            stored[name] = .float
        }
        guard shape.isSubsampled else { return Array(plane) }
        let width = shape.width * shape.xSampling
        let height = shape.height * shape.ySampling
        var result = [Float](repeating: 0, count: width * height)
        func position(_ pixel: Int, _ sampling: Int, _ count: Int) -> (Int, Int, Float) {
            let before = pixel / sampling
            let after = min(before + 1, count - 1)
            return (before, after, Float(pixel % sampling) / Float(sampling))
        }
        for y in 0..<height {
            let (top, bottom, down) = position(y, shape.ySampling, shape.height)
            for x in 0..<width {
                let (left, right, across) = position(x, shape.xSampling, shape.width)
                let upper = plane[top * shape.width + left] * (1 - across) + plane[top * shape.width + right] * across
                let lower =
                    plane[bottom * shape.width + left] * (1 - across) + plane[bottom * shape.width + right] * across
                result[y * width + x] = upper * (1 - down) + lower * down
            }
        }
        return result
    }
}

/// A part's display window (the picture's size) and data window.
struct PartWindows {
    let width: Int
    let height: Int
    let data: exr_attr_box2i_t
    /// Where the data window lies in the display window.
    let window: DataWindow
}

/// Where a part's data window lies in its display window.
struct DataWindow {
    let left: Int
    let top: Int
    let width: Int
    let height: Int

    /// `plane` (the data window's values) placed in a display window of `width` x `height`: zero outside.
    func placed(_ plane: [Float], width displayWidth: Int, height displayHeight: Int) -> [Float] {
        if left == 0, top == 0, width == displayWidth, height == displayHeight { return plane }
        var result = [Float](repeating: 0, count: displayWidth * displayHeight)
        let first = max(left, 0)
        let last = min(left + width, displayWidth) - 1
        let firstRow = max(top, 0)
        let lastRow = min(top + height, displayHeight) - 1
        guard first <= last, firstRow <= lastRow, plane.count == width * height else { return result }
        plane.withUnsafeBufferPointer { source in
            for y in firstRow...lastRow {
                let from = (y - top) * width + (first - left)
                let to = y * displayWidth + first
                result.replaceSubrange(
                    to..<(to + last - first + 1),
                    with: UnsafeBufferPointer(rebasing: source[from..<(from + last - first + 1)]))
            }
        }
        return result
    }
}

/// Runs one OpenEXRCore call: a status other than success becomes the error `failure` makes of it,
/// with the library's name for the status as its cause.
func exrCall(
    _ status: exr_result_t, _ function: String, _ failure: (any Error) -> FlipbookError
) throws {
    guard status != exr_result_t(EXR_ERR_SUCCESS.rawValue) else { return }
    let name = exr_get_error_code_as_string(status).map { String(cString: $0) }
    throw failure(LibraryCallError(library: "OpenEXR", function: function, status: Int(status), libraryMessage: name))
}

/// Runs `body` with `strings` as an array of C strings, alive until it returns.
private func withArrayOfCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
