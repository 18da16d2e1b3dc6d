internal import CLibRaw
import Foundation

/// Camera raw files through LibRaw 0.20: the sensor's data developed to linear camera RGB (16 bits,
/// the white balance asked for, no brightening, half size when the movie is at most half the sensor
/// each way), made linear BT.709 by the camera's own matrix in floating point (nothing clipped on the
/// way) and shown through the movie's view like an OpenEXR render; or, with
/// ``RawDevelopment/usesPreview``, the camera's embedded JPEG preview. The orientation the camera
/// recorded is applied either way.
enum LibRawDecoder {
    /// Decodes a camera raw file as `request` asks.
    ///
    /// - Throws: `.unsupportedImage` naming the camera when LibRaw 0.20 does not know its body (with the
    ///   advice to convert to DNG), `.corruptImage` for damaged or truncated data.
    static func decodeImage(_ data: Data, request: DecodeRequest) throws -> DecodedImage {
        guard let raw = libraw_init(0) else {
            throw FlipbookError.imageDecoderNotCreated(by: "LibRaw", "a raw processor")
        }
        defer { libraw_close(raw) }
        // LibRaw's own handlers print to standard error; its failures reach the user through the funnel.
        libraw_set_dataerror_handler(raw, { _, _, _ in }, nil)
        libraw_set_memerror_handler(raw, { _, _, _ in }, nil)
        // LibRaw reads the buffer in place (it takes it non-const, and never writes it) until libraw_close.
        return try data.withUnsafeBytes { buffer in
            let opened = libraw_open_buffer(raw, UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
            // A DNG is any camera's: one LibRaw cannot develop is not a body it lacks.
            if opened == LIBRAW_FILE_UNSUPPORTED.rawValue, raw.pointee.idata.dng_version == 0,
                let camera = Self.camera(raw)
            {
                throw FlipbookError.rawCameraUnknown(camera)
            }
            try libRawCall(
                "libraw_open_buffer",
                opened == LIBRAW_FILE_UNSUPPORTED.rawValue
                    ? "the file is not a camera raw file LibRaw 0.20 reads"
                    : "the camera raw file is damaged or truncated",
                opened)
            let sizes = raw.pointee.sizes
            try request.limits.check(width: Int(sizes.raw_width), height: Int(sizes.raw_height))
            if request.raw.usesPreview { return try preview(raw, request: request) }
            try develop(raw, request: request)
            return try linearPicture(raw).decoded(for: request)
        }
    }

    /// The camera's make and model as the file names them, when it names them.
    private static func camera(_ raw: UnsafeMutablePointer<libraw_data_t>) -> String? {
        let make = withUnsafeBytes(of: raw.pointee.idata.make) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        let model = withUnsafeBytes(of: raw.pointee.idata.model) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        let name = [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? nil : name
    }

    /// Unpacks the sensor data and develops it to 16-bit linear camera RGB, balanced as asked.
    private static func develop(_ raw: UnsafeMutablePointer<libraw_data_t>, request: DecodeRequest) throws {
        raw.pointee.params.output_bps = 16
        raw.pointee.params.gamm.0 = 1
        raw.pointee.params.gamm.1 = 1
        raw.pointee.params.no_auto_bright = 1
        // Camera RGB out: the matrix is applied here in floating point, so nothing is clipped on the way.
        raw.pointee.params.output_color = 0
        raw.pointee.params.half_size = halfSizeSuffices(raw.pointee.sizes, for: request.sizeHint) ? 1 : 0
        switch request.raw.whiteBalance {
        case .camera: raw.pointee.params.use_camera_wb = 1
        case .auto: raw.pointee.params.use_auto_wb = 1
        case .daylight: break
        case .kelvin(let kelvin):
            // The camera's XYZ-to-camera matrix: LibRaw's table for the body, or a DNG's ColorMatrix1.
            let color = raw.pointee.color
            let matrix =
                multipliers(for: Double(kelvin), cameraFromXYZ: color.cam_xyz)
                ?? multipliers(for: Double(kelvin), cameraFromXYZ: color.dng_color.0.colormatrix)
            if let multipliers = matrix {
                raw.pointee.params.user_mul = (multipliers[0], multipliers[1], multipliers[2], multipliers[1])
            }
        }
        let unpacked = libraw_unpack(raw)
        try libRawCall(
            "libraw_unpack",
            [LIBRAW_IO_ERROR.rawValue, LIBRAW_DATA_ERROR.rawValue].contains(unpacked)
                ? "the camera raw file is damaged or truncated" : "the camera raw file's sensor data cannot be read",
            unpacked)
        try libRawCall("libraw_dcraw_process", "the camera raw file cannot be developed", libraw_dcraw_process(raw))
    }

    /// Whether a picture of half the sensor's sides (LibRaw's half size: each 2x2 block of the mosaic one
    /// pixel, no demosaicing) is still at least the size the movie draws it at.
    private static func halfSizeSuffices(_ sizes: libraw_image_sizes_t, for hint: DecodeSizeHint?) -> Bool {
        guard let hint else { return false }
        let swaps = sizes.flip & 4 != 0
        let (width, height) = (Int(swaps ? sizes.height : sizes.width) / 2, Int(swaps ? sizes.width : sizes.height) / 2)
        return width >= hint.width && height >= hint.height
    }

    /// The developed picture in linear BT.709: each pixel's camera RGB (0...65535 is 0...1) through the
    /// camera's matrix to sRGB's primaries (`rgb_cam`), negative and above-white values kept.
    private static func linearPicture(_ raw: UnsafeMutablePointer<libraw_data_t>) throws -> SceneLinearPicture {
        var status: Int32 = 0
        guard let image = libraw_dcraw_make_mem_image(raw, &status) else {
            try libRawCall("libraw_dcraw_make_mem_image", "the developed picture cannot be handed over", status)
            throw FlipbookError.imageDecoderNotCreated(by: "LibRaw", "the developed picture")
        }
        defer { libraw_dcraw_clear_mem(image) }
        let (width, height) = (Int(image.pointee.width), Int(image.pointee.height))
        let colours = Int(image.pointee.colors)
        guard image.pointee.type == LIBRAW_IMAGE_BITMAP, image.pointee.bits == 16, colours == 3 || colours == 1,
            Int(image.pointee.data_size) >= width * height * colours * 2
        else {
            throw FlipbookError.rawPictureUnexpected(bits: Int(image.pointee.bits), colours: colours)
        }
        let matrix = withUnsafeBytes(of: raw.pointee.color.rgb_cam) { Array($0.bindMemory(to: Float.self)) }
        let count = width * height
        var (red, green, blue) = (
            [Float](repeating: 0, count: count), [Float](repeating: 0, count: count),
            [Float](repeating: 0, count: count)
        )
        let samples = UnsafeRawPointer(image).advanced(by: MemoryLayout<libraw_processed_image_t>.offset(of: \.data)!)
            .bindMemory(to: UInt16.self, capacity: count * colours)
        let scale: Float = 1 / 65535
        // rgb_cam is 3 rows of 4 (camera colours); a camera of three colours uses the first three.
        let m = (0..<3).map { row in (0..<3).map { matrix[row * 4 + $0] * scale } }
        for pixel in 0..<count {
            if colours == 1 {
                let value = Float(samples[pixel]) * scale
                (red[pixel], green[pixel], blue[pixel]) = (value, value, value)
                continue
            }
            let (r, g, b) = (Float(samples[pixel * 3]), Float(samples[pixel * 3 + 1]), Float(samples[pixel * 3 + 2]))
            red[pixel] = m[0][0] * r + m[0][1] * g + m[0][2] * b
            green[pixel] = m[1][0] * r + m[1][1] * g + m[1][2] * b
            blue[pixel] = m[2][0] * r + m[2][1] * g + m[2][2] * b
        }
        return SceneLinearPicture(
            width: width, height: height, red: red, green: green, blue: blue, alpha: nil, chromaticities: nil)
    }

    /// The camera's embedded preview, turned as the camera recorded.
    private static func preview(_ raw: UnsafeMutablePointer<libraw_data_t>, request: DecodeRequest) throws
        -> DecodedImage
    {
        try libRawCall("libraw_unpack_thumb", "the camera raw file's preview cannot be read", libraw_unpack_thumb(raw))
        let thumbnail = raw.pointee.thumbnail
        guard thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG, let bytes = thumbnail.thumb, thumbnail.tlength > 0 else {
            throw FlipbookError.rawPreviewNotJPEG()
        }
        let jpeg = Data(bytes: bytes, count: Int(thumbnail.tlength))
        let orientation = exifOrientation(flip: raw.pointee.sizes.flip)
        var request = request
        request.storedPlanes = request.storedPlanes && orientation == 1
        let image = try TurboJPEGDecoder.decodeImage(
            jpeg, limits: request.limits, sizeHint: request.sizeHint, swapsSides: orientation >= 5,
            planes: request.storedPlanes ? request.planes : nil)
        switch image {
        case .frame(let frame): return .frame(try frame.oriented(orientation))
        case .planes, .deep: return image
        }
    }

    /// The EXIF orientation of LibRaw's `flip`: 3 upside down, 5 a quarter anticlockwise, 6 clockwise.
    static func exifOrientation(flip: Int32) -> Int {
        switch flip {
        case 3: 3
        case 5: 8
        case 6: 6
        default: 1
        }
    }

    /// White balance multipliers (red, green, blue; green 1) that make a black body of `kelvin` white in
    /// the camera's colours, through its XYZ-to-camera matrix; `nil` when the file has no matrix.
    static func multipliers(
        for kelvin: Double,
        cameraFromXYZ matrix: (
            (Float, Float, Float), (Float, Float, Float), (Float, Float, Float), (Float, Float, Float)
        )
    ) -> [Float]? {
        let (x, y) = planckianChromaticity(kelvin)
        let xyz = [x / y, 1, (1 - x - y) / y]
        let rows = [matrix.0, matrix.1, matrix.2].map { [Double($0.0), Double($0.1), Double($0.2)] }
        let camera = rows.map { row in zip(row, xyz).map(*).reduce(0, +) }
        guard camera.allSatisfy({ $0 > 1e-6 }) else { return nil }
        return camera.map { Float(camera[1] / $0) }
    }

    /// The CIE 1931 chromaticity of a black body at `kelvin` (1667 to 25000 K), by Kim et al.'s cubic
    /// approximation of the Planckian locus.
    static func planckianChromaticity(_ kelvin: Double) -> (x: Double, y: Double) {
        let t = kelvin
        let x =
            t <= 4000
            ? -0.266_123_9e9 / (t * t * t) - 0.234_358_9e6 / (t * t) + 0.877_695_6e3 / t + 0.179_910
            : -3.025_846_9e9 / (t * t * t) + 2.107_037_9e6 / (t * t) + 0.222_634_7e3 / t + 0.240_390
        let y: Double
        if t <= 2222 {
            y = -1.106_381_4 * x * x * x - 1.348_110_20 * x * x + 2.185_558_32 * x - 0.202_196_83
        } else if t <= 4000 {
            y = -0.954_947_6 * x * x * x - 1.374_185_93 * x * x + 2.091_370_15 * x - 0.167_488_67
        } else {
            y = 3.081_758_0 * x * x * x - 5.873_386_70 * x * x + 3.751_129_97 * x - 0.370_014_83
        }
        return (x, y)
    }
}
