internal import CTIFF
import Foundation

/// TIFF images through libtiff, read from memory: the size is checked against the limits before any
/// pixel memory is taken and libtiff may allocate no single block larger than the image could need.
///
/// 8- and 16-bit RGB, RGBA, grey and grey with alpha, stored as contiguous samples in strips or tiles
/// under any compression libtiff decodes (none, LZW, Deflate, PackBits, JPEG, ...), are read strip by
/// strip or tile by tile and converted here (16-bit samples rounded to 8 bits unless kept deep for a
/// 10-bit movie, associated alpha
/// divided out). Every other kind (palette, 1-, 2- and 4-bit, CMYK, separate planes, YCbCr without
/// JPEG, old-style JPEG) goes through libtiff's RGBA reader. The TIFF `Orientation` tag is applied
/// like a JPEG's EXIF orientation. A page marked as a reduced-resolution preview of another image
/// (`NewSubfileType` bit 0) is not the picture: the first full page is read instead, and a file with
/// none (a camera raw file, whose photo is sensor data in a sub-IFD) is refused.
enum TIFFDecoder {
    /// Decodes page `page` (0 for the first) of a TIFF file.
    ///
    /// - Throws: `.corruptImage` for damaged or truncated data, `.unsupportedImage` for a kind
    ///   libtiff does not read (floating-point samples, for one) or an image over `limits`.
    static func decode(_ data: Data, limits: ImageLimits, page: Int = 0) throws -> Frame {
        guard case .frame(let frame) = try decodeImage(data, limits: limits, page: page) else {
            preconditionFailure("a 16-bit image although none was asked for")
        }
        return frame
    }

    /// Decodes page `page` as ``decode(_:limits:page:)`` does, or, when `deep` accepts its size, a
    /// 16-bit RGB or grey page without alpha, stored upright, to a ``DeepImage`` at its depth.
    static func decodeImage(_ data: Data, limits: ImageLimits, page: Int = 0, deep: PlanarRequest? = nil) throws
        -> DecodedImage
    {
        try TIFFFile.withOpened(data, limits: limits) { file in
            try file.select(page: page)
            if page == 0 && file.isReducedPreview {
                try file.selectFirstFullPage()
            }
            let layout = try file.layout()
            try limits.check(width: layout.width, height: layout.height)
            let colour = SourceColour(iccProfile: file.iccProfile())
            if layout.isDirect && layout.bitsPerSample == 16 && layout.alpha == nil && layout.orientation == 1,
                deep?.accepts(width: layout.width, height: layout.height) ?? false
            {
                return DecodedImage.deep(try file.readDirectDeep(layout)).withSourceColour(colour)
            }
            let stored =
                layout.isDirect ? try file.readDirect(layout) : try file.readThroughRGBA(layout)
            return DecodedImage.frame(layout.orientation == 1 ? stored : try stored.oriented(layout.orientation))
                .withSourceColour(colour)
        }
    }

    /// How many pages (image file directories) a TIFF holds.
    static func pageCount(_ data: Data, limits: ImageLimits) throws -> Int {
        try TIFFFile.withOpened(data, limits: limits) { Int(TIFFNumberOfDirectories($0.handle)) }
    }

    /// The pages (0 for the first) that are pictures, not reduced-resolution previews of another.
    static func fullPages(_ data: Data, limits: ImageLimits) throws -> [Int] {
        try TIFFFile.withOpened(data, limits: limits) { $0.fullPages() }
    }
}

/// The facts of one page that decide how it is read.
private struct TIFFLayout {
    var width: Int
    var height: Int
    var bitsPerSample: Int
    var samplesPerPixel: Int
    var photometric: Int
    /// Which sample after the colour ones is alpha, and whether it is associated (premultiplied).
    var alpha: (index: Int, associated: Bool)?
    var orientation: Int
    /// Whether the page is read strip by strip (or tile by tile) and converted here.
    var isDirect: Bool

    /// Colour samples per pixel: 1 for grey, 3 for RGB.
    var colourSamples: Int { photometric == PHOTOMETRIC_RGB || photometric == PHOTOMETRIC_YCBCR ? 3 : 1 }
}

/// One open TIFF over bytes in memory, with libtiff's first error message kept for the error Flipbook
/// throws.
private final class TIFFFile {
    let base: UnsafeRawPointer
    let count: Int
    var position = 0
    var firstError: String?
    var handle: OpaquePointer?

    private init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    /// Opens `data` for reading for the duration of `body`.
    static func withOpened<T>(_ data: Data, limits: ImageLimits, _ body: (TIFFFile) throws -> T) throws -> T {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> T in
            guard let base = raw.baseAddress, raw.count >= 8 else {
                throw FlipbookError.imageTruncated("TIFF")
            }
            let file = TIFFFile(base: base, count: raw.count)
            let options = TIFFOpenOptionsAlloc()
            defer { TIFFOpenOptionsFree(options) }
            // No single block may exceed what the largest allowed image takes at 16-bit RGBA.
            TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(min(limits.maxPixels, 1 << 28) * 8))
            let context = Unmanaged.passUnretained(file).toOpaque()
            TIFFOpenOptionsSetErrorHandlerExtR(options, TIFFFile.recordError, context)
            TIFFOpenOptionsSetWarningHandlerExtR(options, TIFFFile.ignoreWarning, context)
            // Read-only and "mapped": the map procedure hands libtiff the bytes themselves, no copies.
            guard
                let handle = TIFFClientOpenExt(
                    "memory", "r", context, TIFFFile.read, TIFFFile.write, TIFFFile.seek, TIFFFile.close,
                    TIFFFile.size, TIFFFile.map, TIFFFile.unmap, options)
            else {
                throw file.failure("TIFFClientOpenExt", "its header is damaged or the file is truncated")
            }
            file.handle = handle
            defer { TIFFClose(handle) }
            return try withExtendedLifetime(file) { try body(file) }
        }
    }

    /// Moves to page `page`.
    func select(page: Int) throws {
        guard page > 0 else { return }
        guard page < Int(TIFFNumberOfDirectories(handle)), TIFFSetDirectory(handle, tdir_t(page)) == 1 else {
            throw FlipbookError.tiffHasNoPage(page + 1)
        }
    }

    /// Whether the current page is a reduced-resolution version of another image (`NewSubfileType`
    /// bit 0): the thumbnail or preview that camera raw files (DNG, NEF, ARW, PEF) put first.
    var isReducedPreview: Bool {
        defaulted(TIFFTAG_SUBFILETYPE, as: UInt32.self) & UInt32(FILETYPE_REDUCEDIMAGE) != 0
    }

    /// The pages (0 for the first) that are not reduced-resolution previews; leaves the last page current.
    func fullPages() -> [Int] {
        (0..<Int(TIFFNumberOfDirectories(handle))).filter {
            TIFFSetDirectory(handle, tdir_t($0)) == 1 && !isReducedPreview
        }
    }

    /// Moves from a first page that is a preview to the first full page, or refuses the file when it
    /// holds none.
    func selectFirstFullPage() throws {
        let width = field(TIFFTAG_IMAGEWIDTH, as: UInt32.self) ?? 0
        let height = field(TIFFTAG_IMAGELENGTH, as: UInt32.self) ?? 0
        guard let page = fullPages().first, TIFFSetDirectory(handle, tdir_t(page)) == 1 else {
            throw FlipbookError.tiffHoldsOnlyPreview(width: Int(width), height: Int(height))
        }
    }

    /// The current page's layout, from its tags.
    func layout() throws -> TIFFLayout {
        let width = Int(field(TIFFTAG_IMAGEWIDTH, as: UInt32.self) ?? 0)
        let height = Int(field(TIFFTAG_IMAGELENGTH, as: UInt32.self) ?? 0)
        let bits = Int(defaulted(TIFFTAG_BITSPERSAMPLE, as: UInt16.self))
        let samples = Int(defaulted(TIFFTAG_SAMPLESPERPIXEL, as: UInt16.self))
        let format = Int(defaulted(TIFFTAG_SAMPLEFORMAT, as: UInt16.self))
        let planar = Int(defaulted(TIFFTAG_PLANARCONFIG, as: UInt16.self))
        let compression = Int(defaulted(TIFFTAG_COMPRESSION, as: UInt16.self))
        let orientation = Int(defaulted(TIFFTAG_ORIENTATION, as: UInt16.self))
        guard let photometricTag = field(TIFFTAG_PHOTOMETRIC, as: UInt16.self) else {
            throw FlipbookError.tiffColourUnstated()
        }
        var photometric = Int(photometricTag)
        // Colour filter array (32803) and linear raw (34892): a camera's sensor data, as raw files keep it.
        guard photometric != 32803 && photometric != 34892 else {
            throw FlipbookError.tiffHoldsSensorData()
        }
        guard format == SAMPLEFORMAT_UINT || format == 0 else {
            throw FlipbookError.tiffSampleFormatRefused(floatingPoint: format == SAMPLEFORMAT_IEEEFP)
        }
        guard (1...16).contains(bits), (1...8).contains(samples) else {
            throw FlipbookError.tiffSampleLayoutRefused(samples: samples, bits: bits)
        }
        // JPEG-compressed YCbCr is converted to RGB by libtiff's JPEG codec as it reads.
        if photometric == PHOTOMETRIC_YCBCR && compression == COMPRESSION_JPEG {
            _ = withVaList([Int32(JPEGCOLORMODE_RGB)]) { TIFFVSetField(handle, UInt32(TIFFTAG_JPEGCOLORMODE), $0) }
            photometric = Int(PHOTOMETRIC_RGB)
        }
        let colour = photometric == PHOTOMETRIC_RGB ? 3 : 1
        var alpha: (index: Int, associated: Bool)?
        var extraCount: UInt16 = 0
        var extraTypes: UnsafeMutablePointer<UInt16>?
        let hasExtra = withUnsafeMutablePointer(to: &extraCount) { countPointer in
            withUnsafeMutablePointer(to: &extraTypes) { typesPointer in
                withVaList([countPointer, typesPointer]) {
                    TIFFVGetField(handle, UInt32(TIFFTAG_EXTRASAMPLES), $0)
                }
            }
        }
        if hasExtra == 1, extraCount > 0, let types = extraTypes {
            if let first = (0..<Int(extraCount)).first(where: {
                types[$0] == EXTRASAMPLE_ASSOCALPHA || types[$0] == EXTRASAMPLE_UNASSALPHA
            }), colour + first < samples {
                // An alpha sample the pixel does not hold (more extra samples named than there are) is ignored.
                alpha = (colour + first, types[first] == EXTRASAMPLE_ASSOCALPHA)
            }
        }
        let direct =
            (bits == 8 || bits == 16) && planar == PLANARCONFIG_CONTIG
            && (photometric == PHOTOMETRIC_RGB || photometric == PHOTOMETRIC_MINISBLACK) && samples >= colour
            && compression != COMPRESSION_OJPEG
        return TIFFLayout(
            width: width, height: height, bitsPerSample: bits, samplesPerPixel: samples, photometric: photometric,
            alpha: alpha, orientation: (1...8).contains(orientation) ? orientation : 1, isDirect: direct)
    }

    /// Reads the page strip by strip or tile by tile and converts each row into RGB(A) 8-bit pixels.
    func readDirect(_ layout: TIFFLayout) throws -> Frame {
        let outChannels = layout.alpha == nil ? 3 : 4
        let outStride = layout.width * outChannels
        let converter = TIFFRowConverter(layout: layout)
        // Not zeroed first: every output byte is written before it is kept.
        let pixels = try [UInt8](unsafeUninitializedCapacity: outStride * layout.height) { output, initialized in
            // Rows stored exactly as the frame holds them (8-bit RGB or straight RGBA) are read in place.
            let inPlace = converter.isIdentity ? UnsafeMutableRawPointer(output.baseAddress!) : nil
            try readBlocks(layout, into: inPlace) { source, row, left, columns in
                converter.convert(
                    source, into: output.baseAddress! + row * outStride + left * outChannels, pixels: columns)
            }
            initialized = outStride * layout.height
        }
        return try Frame(
            width: layout.width, height: layout.height, format: outChannels == 4 ? .rgba : .rgb, pixels: pixels)
    }

    /// Reads a 16-bit RGB or grey page without alpha into native 16-bit RGB, grey repeated.
    func readDirectDeep(_ layout: TIFFLayout) throws -> DeepImage {
        let outStride = layout.width * 3
        let samples = layout.samplesPerPixel
        let grey = layout.colourSamples == 1
        let values = try [UInt16](unsafeUninitializedCapacity: outStride * layout.height) { output, initialized in
            try readBlocks(layout) { source, row, left, columns in
                let target = output.baseAddress! + row * outStride + left * 3
                for pixel in 0..<columns {
                    for channel in 0..<3 {
                        let offset = (pixel * samples + (grey ? 0 : channel)) * 2
                        target[pixel * 3 + channel] = source.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
                    }
                }
            }
            initialized = outStride * layout.height
        }
        return DeepImage(width: layout.width, height: layout.height, samples: values)
    }

    /// Reads every strip or tile of the page and hands `body` each stored row of it: the row's samples,
    /// the image row, its first column and how many columns it holds.
    ///
    /// With `destination`, a striped page whose stored rows are the frame's rows is read straight there,
    /// strip by strip, and `body` is not called.
    private func readBlocks(
        _ layout: TIFFLayout, into destination: UnsafeMutableRawPointer? = nil,
        _ body: (_ source: UnsafeRawPointer, _ row: Int, _ left: Int, _ columns: Int) -> Void
    ) throws {
        let bytesPerSample = layout.bitsPerSample / 8
        let tiled = TIFFIsTiled(handle) != 0
        let blockSize = Int(tiled ? TIFFTileSize64(handle) : TIFFStripSize64(handle))
        var (tileWidth, blockHeight): (Int, Int) = (layout.width, 0)
        if tiled {
            tileWidth = Int(field(TIFFTAG_TILEWIDTH, as: UInt32.self) ?? 0)
            blockHeight = Int(field(TIFFTAG_TILELENGTH, as: UInt32.self) ?? 0)
        } else {
            blockHeight = min(Int(defaulted(TIFFTAG_ROWSPERSTRIP, as: UInt32.self)), layout.height)
        }
        let blockStride = tileWidth * layout.samplesPerPixel * bytesPerSample
        // A declared tile or strip may not be much larger than the image (tiles are multiples of 16):
        // the block is allocated as declared, and a few header bytes could otherwise ask for terabytes.
        let rounded = { (side: Int) in (side + 15) / 16 * 16 }
        guard tileWidth <= rounded(layout.width), blockHeight <= rounded(layout.height),
            blockSize <= rounded(layout.width) * rounded(layout.height) * layout.samplesPerPixel * bytesPerSample
        else {
            throw FlipbookError.tiffBlocksTooLarge(tiled: tiled)
        }
        guard tileWidth > 0, blockHeight > 0, blockSize >= blockStride * blockHeight else {
            throw FlipbookError.tiffBlockLayoutDamaged()
        }
        let direct = tiled ? nil : destination
        // Not zeroed first: a header declaring a huge image over a few bytes of data fails at its first
        // strip without touching the memory.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: direct == nil ? blockSize : 0, alignment: 16)
        defer { buffer.deallocate() }
        var index: UInt32 = 0
        for top in stride(from: 0, to: layout.height, by: blockHeight) {
            for left in stride(from: 0, to: layout.width, by: tileWidth) {
                // Straight into the frame: this strip's rows, the last one perhaps shorter.
                let target = direct.map { $0 + top * blockStride } ?? buffer.baseAddress!
                let size = direct == nil ? blockSize : min(blockHeight, layout.height - top) * blockStride
                let read = Int(
                    tiled
                        ? TIFFReadEncodedTile(handle, index, target, tmsize_t(size))
                        : TIFFReadEncodedStrip(handle, index, target, tmsize_t(size)))
                guard read >= 0 else {
                    throw failure(
                        tiled ? "TIFFReadEncodedTile" : "TIFFReadEncodedStrip",
                        "its image data is damaged or truncated (\(tiled ? "tile" : "strip") \(index + 1))")
                }
                index += 1
                // The last strip may be shorter than a whole block; what it leaves out is zero.
                if read < size { (target + read).initializeMemory(as: UInt8.self, repeating: 0, count: size - read) }
                guard direct == nil else { continue }
                let columns = min(tileWidth, layout.width - left)
                for row in 0..<min(blockHeight, layout.height - top) {
                    body(buffer.baseAddress! + row * blockStride, top + row, left, columns)
                }
            }
        }
    }

    /// Reads the page through libtiff's RGBA reader, in the order the rows are stored (the
    /// orientation is applied afterwards, as for the direct path), alpha divided out.
    func readThroughRGBA(_ layout: TIFFLayout) throws -> Frame {
        let count = layout.width * layout.height
        // Asking for the stored orientation's unturned form keeps libtiff from flipping anything.
        let stored = UInt16((layout.orientation - 1) % 4 + 1)
        // Not zeroed first; stopping at the first error means a damaged file is refused, never kept in part.
        var ok: Int32 = 0
        // libtiff writes ABGR words, which are the bytes R, G, B, A in memory on a little-endian machine.
        var bytes = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
            let words = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt32.self)
            ok = TIFFReadRGBAImageOriented(
                handle, UInt32(layout.width), UInt32(layout.height), words, Int32(stored), 1)
            initialized = count * 4
        }
        guard ok == 1 else {
            throw failure("TIFFReadRGBAImageOriented", "libtiff cannot read this kind of TIFF or its data is damaged")
        }
        guard layout.alpha == nil else {
            // libtiff premultiplies (it turns unassociated alpha into associated).
            SampleArithmetic.unpremultiplyRGBA(&bytes)
            return try Frame(width: layout.width, height: layout.height, format: .rgba, pixels: bytes)
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: count * 3) { output, initialized in
            for pixel in 0..<count {
                output[pixel * 3] = bytes[pixel * 4]
                output[pixel * 3 + 1] = bytes[pixel * 4 + 1]
                output[pixel * 3 + 2] = bytes[pixel * 4 + 2]
            }
            initialized = count * 3
        }
        return try Frame(width: layout.width, height: layout.height, format: .rgb, pixels: pixels)
    }

    // MARK: Tags

    private func field<T: BinaryInteger>(_ tag: Int32, as type: T.Type) -> T? {
        var value: T = 0
        let found = withUnsafeMutablePointer(to: &value) { pointer in
            withVaList([pointer]) { TIFFVGetField(handle, UInt32(tag), $0) }
        }
        return found == 1 ? value : nil
    }

    /// The page's ICC profile (tag 34675), if it has one of a sensible size.
    func iccProfile() -> [UInt8]? {
        var count: UInt32 = 0
        var bytes: UnsafeMutableRawPointer?
        let found = withUnsafeMutablePointer(to: &count) { countPointer in
            withUnsafeMutablePointer(to: &bytes) { bytesPointer in
                withVaList([countPointer, bytesPointer]) { TIFFVGetField(handle, UInt32(TIFFTAG_ICCPROFILE), $0) }
            }
        }
        guard found == 1, let bytes, count > 0, Int(count) <= SourceColour.largestProfile else { return nil }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
    }

    private func defaulted<T: BinaryInteger>(_ tag: Int32, as type: T.Type) -> T {
        var value: T = 0
        _ = withUnsafeMutablePointer(to: &value) { pointer in
            withVaList([pointer]) { TIFFVGetFieldDefaulted(handle, UInt32(tag), $0) }
        }
        return value
    }

    // MARK: The funnel for libtiff's failures

    /// The error for a failed libtiff call, with libtiff's own first message when it gave one.
    func failure(_ function: String, _ reason: String) -> FlipbookError {
        let detail = firstError.map { ": \($0)" } ?? ""
        return FlipbookError.imageUndecodable(
            "TIFF", reason + detail, cause: LibraryCallError(library: "libtiff", function: function, status: 0))
    }

    private static let recordError: TIFFErrorHandlerExtR = { _, context, _, format, arguments in
        guard let context, let format, let arguments else { return 1 }
        let file = Unmanaged<TIFFFile>.fromOpaque(context).takeUnretainedValue()
        if file.firstError == nil {
            var message = [CChar](repeating: 0, count: 256)
            _ = vsnprintf(&message, message.count, format, arguments)
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            file.firstError = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return 1
    }

    private static let ignoreWarning: TIFFErrorHandlerExtR = { _, _, _, _, _ in 1 }

    // MARK: Reading from memory

    private static func file(_ context: thandle_t?) -> TIFFFile {
        Unmanaged<TIFFFile>.fromOpaque(context!).takeUnretainedValue()
    }

    private static let read: TIFFReadWriteProc = { context, buffer, size in
        let file = TIFFFile.file(context)
        let available = max(0, file.count - file.position)
        let length = min(Int(size), available)
        if length > 0, let buffer { buffer.copyMemory(from: file.base + file.position, byteCount: length) }
        file.position += length
        return tmsize_t(length)
    }

    private static let write: TIFFReadWriteProc = { _, _, _ in -1 }

    private static let seek: TIFFSeekProc = { context, offset, whence in
        let file = TIFFFile.file(context)
        let origin: Int
        switch whence {
        case SEEK_CUR: origin = file.position
        case SEEK_END: origin = file.count
        default: origin = 0
        }
        // Offsets are unsigned; a backward relative seek arrives as a wrapped value.
        let target = origin &+ Int(truncatingIfNeeded: offset)
        guard target >= 0 else { return toff_t.max }
        file.position = target
        return toff_t(target)
    }

    private static let close: TIFFCloseProc = { _ in 0 }

    private static let size: TIFFSizeProc = { context in toff_t(TIFFFile.file(context).count) }

    private static let map: TIFFMapFileProc = { context, base, size in
        let file = TIFFFile.file(context)
        base?.pointee = UnsafeMutableRawPointer(mutating: file.base)
        size?.pointee = toff_t(file.count)
        return 1
    }

    private static let unmap: TIFFUnmapFileProc = { _, _, _ in }
}

/// Converts one stored row of 8- or 16-bit grey, grey+alpha, RGB or RGB+extra samples into RGB or
/// RGBA 8-bit pixels.
private struct TIFFRowConverter {
    let samples: Int
    let colour: Int
    let wide: Bool
    let alpha: (index: Int, associated: Bool)?

    init(layout: TIFFLayout) {
        samples = layout.samplesPerPixel
        colour = layout.photometric == PHOTOMETRIC_RGB ? 3 : 1
        wide = layout.bitsPerSample == 16
        alpha = layout.alpha
    }

    /// Whether stored rows are already the frame's rows: 8-bit RGB, or RGBA with straight alpha last.
    var isIdentity: Bool {
        !wide && colour == 3 && samples == (alpha == nil ? 3 : 4) && !(alpha?.associated ?? false)
            && alpha?.index ?? 3 == 3
    }

    func convert(_ source: UnsafeRawPointer, into target: UnsafeMutablePointer<UInt8>, pixels: Int) {
        let outChannels = alpha == nil ? 3 : 4
        if isIdentity {
            target.update(from: source.assumingMemoryBound(to: UInt8.self), count: pixels * outChannels)
            return
        }
        @inline(__always) func sample(_ pixel: Int, _ index: Int) -> UInt8 {
            let offset = pixel * samples + index
            if wide {
                return SampleArithmetic.eightBit(source.loadUnaligned(fromByteOffset: offset * 2, as: UInt16.self))
            }
            return source.load(fromByteOffset: offset, as: UInt8.self)
        }
        for pixel in 0..<pixels {
            let out = target + pixel * outChannels
            var r: UInt8
            var g: UInt8
            var b: UInt8
            if colour == 3 {
                (r, g, b) = (sample(pixel, 0), sample(pixel, 1), sample(pixel, 2))
            } else {
                let grey = sample(pixel, 0)
                (r, g, b) = (grey, grey, grey)
            }
            if let alpha {
                let a = sample(pixel, alpha.index)
                if alpha.associated {
                    (r, g, b) = (
                        SampleArithmetic.unpremultiplied(r, alpha: a), SampleArithmetic.unpremultiplied(g, alpha: a),
                        SampleArithmetic.unpremultiplied(b, alpha: a)
                    )
                }
                out[3] = a
            }
            out[0] = r
            out[1] = g
            out[2] = b
        }
    }
}
