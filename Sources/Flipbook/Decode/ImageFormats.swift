import Foundation

/// One record per image format. A new format is a record here and its decoder under `Interop/`
/// (with its library in `Package.swift` and the Makefile's packages).
enum ImageFormats {
    // Camera raw before TIFF: most raw files are laid out as TIFFs.
    static let all: [ImageFormat] = [png, jpeg, webp, gif, cameraRaw, tiff, heif, openEXR, dpx, cineon]

    static let png = ImageFormat(
        name: "PNG", fileExtensions: ["png"],
        summary: ["8/16-bit, grey, palette, alpha, interlaced; APNG: every frame at its own delay"], hasPages: false,
        recognises: { $0.starts(with: ImageSniffing.pngSignature) }, readColour: SourceColour.init(png:),
        decode: { data, request in
            // The size is checked from the header before either decoder takes any memory.
            if let size = ImageSniffing.pngSize(data) {
                try request.limits.check(width: size.width, height: size.height)
                if request.deep, request.planes?.accepts(width: size.width, height: size.height) ?? false,
                    let image = try DeflatePNGDecoder.decodeImage(
                        data, limits: request.limits, deep: true, deepAlpha: request.deepAlpha)
                {
                    return image
                }
            }
            return .frame(
                try DeflatePNGDecoder.decode(data, limits: request.limits)
                    ?? SPNGDecoder.decode(ImageSniffing.pngPixelChunks(data), limits: request.limits))
        })

    static let jpeg = ImageFormat(
        name: "JPEG", fileExtensions: ["jpg", "jpeg"],
        summary: ["baseline, progressive, 4:2:0/4:2:2/4:4:4, grey, CMYK; EXIF orientation applied"], hasPages: false,
        recognises: { $0.starts(with: [0xFF, 0xD8, 0xFF]) }, readColour: SourceColour.init(jpeg:),
        decode: { data, request in
            let limits = request.limits
            let layout = data.withUnsafeBytes { ImageSniffing.jpegLayout($0) }
            if layout?.manyScans ?? true {
                let scans = data.withUnsafeBytes { ImageSniffing.jpegScanCount($0, from: layout?.firstScan ?? 0) }
                guard scans <= limits.maxJPEGScans else {
                    throw FlipbookError.jpegHasTooManyScans(scans, limit: limits.maxJPEGScans)
                }
            }
            let orientation = data.withUnsafeBytes { ExifOrientation.read(fromJPEG: $0) }
            let image = try TurboJPEGDecoder.decodeImage(
                data, limits: limits, sizeHint: request.sizeHint, swapsSides: (orientation ?? 1) >= 5,
                planes: request.storedPlanes ? request.planes : nil, keepsCMYK: request.keepsCMYK)
            switch image {
            case .frame(let frame):
                var upright = try orientation.map { try frame.oriented($0) } ?? frame
                upright.sourceColour.pixelsAreCMYK = frame.sourceColour.pixelsAreCMYK
                return .frame(upright)
            case .planes(let stored): return .planes(orientation.map { stored.oriented($0) } ?? stored)
            case .deep: preconditionFailure("TurboJPEG hands out 8-bit pictures only")
            }
        })

    static let webp = ImageFormat(
        name: "WebP", fileExtensions: ["webp"],
        summary: ["lossy, lossless, alpha; animated: every frame at its own delay"], hasPages: false,
        recognises: ImageSniffing.isWebP, readColour: SourceColour.init(webp:),
        decode: { data, request in
            try WebPDecoder.decodeImage(
                data, limits: request.limits, planes: request.storedPlanes ? request.planes : nil)
        })

    static let gif = ImageFormat(
        name: "GIF", fileExtensions: ["gif"],
        summary: [
            "animated: every frame at its own delay (0 or 1 hundredth shown as 1/10 s, as browsers do);",
            "palettes, transparency, interlace, every disposal method",
        ], hasPages: false, streams: false,
        recognises: { $0.starts(with: Array("GIF8".utf8)) },
        decode: { data, request in
            // A still GIF, or the first frame of an animated one given on its own.
            let layout = try GIFLayout.read(data)
            guard !layout.delays.isEmpty else {
                throw FlipbookError.gifHasNoWholeImage()
            }
            try request.limits.check(width: layout.width, height: layout.height)
            return .frame(try GIFAnimationDecoder(data, layout: layout, limits: request.limits).nextFrame())
        })

    static let cameraRaw = ImageFormat(
        name: "camera raw", fileExtensions: CameraRaw.extensions,
        summary: [
            "CR2, CR3, NEF, ARW, RAF, ORF, RW2, PEF, SRW and DNG through LibRaw 0.20: developed linear (half size when",
            "the movie is at most half the sensor), --white-balance, the camera's matrix, its orientation, shown",
            "through the view transform; or the embedded preview (--raw-preview)",
        ], hasPages: false, streams: false,
        recognises: { ImageSniffing.cameraRawFormat($0) != nil || ImageSniffing.isTIFFCameraRaw($0) },
        decode: { data, request in try LibRawDecoder.decodeImage(data, request: request) })

    static let tiff = ImageFormat(
        name: "TIFF", fileExtensions: ["tif", "tiff"],
        summary: [
            "8/16-bit RGB, RGBA, grey, palette, bilevel, CMYK; uncompressed, LZW, Deflate, PackBits, JPEG;",
            "strips or tiles; Orientation tag applied; the first page (every page with --tiff-pages all)",
        ], hasPages: true,
        recognises: ImageSniffing.isTIFF,
        decode: { data, request in
            try TIFFDecoder.decodeImage(
                data, limits: request.limits, page: request.page ?? 0, deep: request.deep ? request.planes : nil)
        })

    static let heif = ImageFormat(
        name: "HEIC, AVIF", fileExtensions: ["heic", "heif", "avif"],
        summary: ["the primary image, with its rotation, mirroring and colour (nclx) applied"], hasPages: false,
        recognises: { ImageSniffing.heifFormat($0) != nil },
        decode: { data, request in
            try HEIFDecoder.decodeImage(
                data, limits: request.limits, format: ImageSniffing.heifFormat(data) ?? "HEIF",
                deep: request.deep ? request.planes : nil)
        })

    static let openEXR = ImageFormat(
        name: "OpenEXR", fileExtensions: ["exr"],
        summary: [
            "scene-linear half, float or uint RGB, RGBA, Y or luminance-chroma; scanline or tiled; every compression;",
            "a part or layer (--layer), shown through the view transform (--view, --exposure, --ocio)",
        ], hasPages: false, streams: false,
        recognises: { $0.starts(with: [0x76, 0x2F, 0x31, 0x01]) },
        decode: { data, request in try OpenEXRDecoder.decodeImage(data, request: request) })

    static let dpx = ImageFormat(
        name: "DPX", fileExtensions: ["dpx"],
        summary: [
            "8-, 10-, 12- or 16-bit RGB, RGBA, ABGR or luminance, either byte order, 10 and 12 bits filled;",
            "printing density (Cineon log) made linear and shown through the view transform, other transfers as they are",
        ], hasPages: false, streams: false,
        recognises: { DPXDecoder.isDPX($0) },
        decode: { data, request in try DPXDecoder.decodeImage(data, request: request) })

    static let cineon = ImageFormat(
        name: "Cineon", fileExtensions: ["cin"],
        summary: ["10-bit log RGB, made linear and shown through the view transform"], hasPages: false,
        streams: false,
        recognises: { DPXDecoder.isCineon($0) },
        decode: { data, request in try DPXDecoder.decodeImage(data, request: request) })
}
