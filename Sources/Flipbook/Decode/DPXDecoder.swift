import Foundation

/// DPX (SMPTE 268M) and Cineon images, read in Swift: the film scanners', compositors' and renderers'
/// interchange formats.
///
/// DPX: either byte order; the first image element, RGB, RGBA, ABGR or luminance, at 8, 10, 12 or 16
/// bits (10 and 12 bits filled into 32-bit words by method A or B), lines from any corner read upright
/// (orientations 0 to 3), and 10 and 12 bits packed across words (each word's low bits first, as
/// OpenImageIO writes 12 bits by default and ffmpeg reads them). Cineon: 10-bit RGB filled into 32-bit words. The transfer field decides what
/// the values are: printing density or logarithmic (and every Cineon file) is Cineon log, made linear
/// (reference black at code 95 and white at 685 of 1023, 0.002 density a code, 0.6 negative gamma, as
/// Kodak's conversion and Nuke's default have it) and shown through the movie's view transform as an
/// OpenEXR render is; any other transfer (linear, video, unspecified) is taken as display values, as
/// players show them (ffmpeg states `linear` for every DPX it writes). Y'CbCr descriptors and
/// run-length encoding are refused by name.
enum DPXDecoder {
    /// Whether `data` starts as a DPX file does, in either byte order.
    static func isDPX(_ data: Data) -> Bool {
        data.starts(with: Array("SDPX".utf8)) || data.starts(with: Array("XPDS".utf8))
    }

    /// Whether `data` starts as a Cineon file does, in either byte order.
    static func isCineon(_ data: Data) -> Bool {
        data.starts(with: [0x80, 0x2A, 0x5F, 0xD7]) || data.starts(with: [0xD7, 0x5F, 0x2A, 0x80])
    }

    /// Decodes a DPX or Cineon file as `request` asks: a ``DeepImage`` when it asks for 16 bits at this
    /// size (and the file has more than 8), otherwise an 8-bit frame.
    static func decodeImage(_ data: Data, request: DecodeRequest) throws -> DecodedImage {
        let bytes = [UInt8](data)
        let layout = try isCineon(data) ? DPXLayout(cineon: bytes) : DPXLayout(dpx: bytes)
        try request.limits.check(width: layout.width, height: layout.height)
        try layout.checkLength(bytes.count)
        let codes = layout.codes(in: bytes)
        let maximum = Float((1 << layout.bits) - 1)
        if layout.isLog {
            let picture = layout.sceneLinear(codes, maximum: maximum)
            return try picture.decoded(for: request)
        }
        let channels = layout.hasAlpha ? 4 : 3
        var samples = [UInt16](repeating: 0, count: layout.width * layout.height * channels)
        let scale = 65535 / maximum
        for pixel in 0..<(layout.width * layout.height) {
            let source = pixel * layout.channels
            let target = pixel * channels
            for channel in 0..<3 {
                let code = codes[source + (layout.channels == 1 ? 0 : layout.order[channel])]
                samples[target + channel] = UInt16((Float(code) * scale).rounded())
            }
            if layout.hasAlpha {
                samples[target + 3] = UInt16((Float(codes[source + layout.order[3]]) * scale).rounded())
            }
        }
        let image = DeepImage(width: layout.width, height: layout.height, samples: samples, hasAlpha: layout.hasAlpha)
        return layout.bits > 8 ? try request.delivering(image) : .frame(try image.eightBit())
    }
}

/// Where a DPX or Cineon file's picture lies and how its samples are stored.
struct DPXLayout {
    let width: Int
    let height: Int
    /// Samples a pixel in the file: 1 (luminance), 3 (RGB) or 4 (RGBA, ABGR).
    let channels: Int
    /// For R, G, B and A, the sample's place in a pixel.
    let order: [Int]
    let bits: Int
    /// 0 packed, 1 filled method A (samples in a word's high bits), 2 method B (low bits).
    let packing: Int
    let bigEndian: Bool
    let dataOffset: Int
    /// Bytes from one line's start to the next.
    let lineBytes: Int
    /// 0: left to right, top to bottom; 1 right to left; 2 bottom to top; 3 both.
    let orientation: Int
    /// Whether the values are Cineon log (printing density).
    let isLog: Bool
    /// `DPX` or `Cineon`, for messages.
    let format: String

    var hasAlpha: Bool { channels == 4 }

    private static let format = "DPX"

    /// A DPX file's layout, from its generic and image headers and its first image element.
    init(dpx bytes: [UInt8]) throws {
        guard bytes.count >= 852 else { throw FlipbookError.imageHeaderOrDataDamaged(Self.format) }
        let bigEndian = bytes[0] == UInt8(ascii: "S")
        let reader = HeaderReader(bytes: bytes, bigEndian: bigEndian)
        let orientation = reader.u16(768)
        let elements = reader.u16(770)
        let width = Int(reader.u32(772))
        let height = Int(reader.u32(776))
        let element = 780
        let descriptor = Int(bytes[element + 20])
        let transfer = Int(bytes[element + 21])
        let bits = Int(bytes[element + 23])
        let packing = Int(reader.u16(element + 24))
        let encoding = reader.u16(element + 26)
        var offset = Int(reader.u32(element + 28))
        if offset == 0 || offset == 0xFFFF_FFFF { offset = Int(reader.u32(4)) }
        let lineEnd = reader.u32(element + 32)
        guard elements >= 1, width > 0, height > 0 else { throw FlipbookError.imageHeaderOrDataDamaged(Self.format) }
        let (channels, order): (Int, [Int])
        switch descriptor {
        case 50: (channels, order) = (3, [0, 1, 2])
        case 51: (channels, order) = (4, [0, 1, 2, 3])
        case 52: (channels, order) = (4, [3, 2, 1, 0])
        case 6: (channels, order) = (1, [0, 0, 0])
        default:
            throw FlipbookError.imageFeatureNotDecoded(
                Self.format, by: "Flipbook",
                detail: "image descriptor \(descriptor)"
                    + ([100, 101, 102, 103].contains(descriptor) ? ", Y'CbCr" : "")
                    + "; Flipbook reads RGB, RGBA, ABGR and luminance")
        }
        guard encoding == 0 else {
            throw FlipbookError.imageFeatureNotDecoded(Self.format, by: "Flipbook", detail: "run-length encoded")
        }
        guard orientation <= 3 else {
            throw FlipbookError.imageFeatureNotDecoded(
                Self.format, by: "Flipbook", detail: "orientation \(orientation): lines run down the picture")
        }
        try self.init(
            width: width, height: height, channels: channels, order: order, bits: bits, packing: packing,
            bigEndian: bigEndian, dataOffset: offset, lineEnd: lineEnd == 0xFFFF_FFFF ? 0 : Int(lineEnd),
            orientation: Int(orientation), isLog: transfer == 1 || transfer == 3, format: Self.format)
    }

    /// A Cineon file's layout: three 10-bit log channels, pixel-interleaved, filled into 32-bit words.
    init(cineon bytes: [UInt8]) throws {
        guard bytes.count >= 712 else { throw FlipbookError.imageHeaderOrDataDamaged("Cineon") }
        let bigEndian = bytes[0] == 0x80
        let reader = HeaderReader(bytes: bytes, bigEndian: bigEndian)
        let offset = Int(reader.u32(4))
        let orientation = Int(bytes[192])
        let channels = Int(bytes[193])
        let bits = Int(bytes[196 + 2])
        let width = Int(reader.u32(196 + 4))
        let height = Int(reader.u32(196 + 8))
        let interleave = bytes[680]
        let packing = bytes[681]
        let lineEnd = reader.u32(684)
        guard width > 0, height > 0 else { throw FlipbookError.imageHeaderOrDataDamaged("Cineon") }
        guard channels == 3, bits == 10, interleave == 0, packing == 5 || packing == 0x85 || packing == 1 else {
            throw FlipbookError.imageFeatureNotDecoded(
                "Cineon", by: "Flipbook",
                detail: "\(channels) channels of \(bits) bits, interleave \(interleave), packing \(packing); "
                    + "Flipbook reads 10-bit RGB filled into 32-bit words")
        }
        guard orientation <= 3 else {
            throw FlipbookError.imageFeatureNotDecoded(
                "Cineon", by: "Flipbook", detail: "orientation \(orientation): lines run down the picture")
        }
        try self.init(
            width: width, height: height, channels: 3, order: [0, 1, 2], bits: 10, packing: 1, bigEndian: bigEndian,
            dataOffset: offset, lineEnd: lineEnd == 0xFFFF_FFFF ? 0 : Int(lineEnd), orientation: orientation,
            isLog: true, format: "Cineon")
    }

    private init(
        width: Int, height: Int, channels: Int, order: [Int], bits: Int, packing: Int, bigEndian: Bool,
        dataOffset: Int, lineEnd: Int, orientation: Int, isLog: Bool, format: String
    ) throws {
        let samples = width * channels
        let (perLine, overflow) = samples.multipliedReportingOverflow(by: 2)
        guard !overflow, width < 1 << 24, height < 1 << 24 else {
            throw FlipbookError.imageHeaderOrDataDamaged(format)
        }
        let bytes: Int
        switch (bits, packing) {
        case (8, 0), (8, 1), (8, 2): bytes = samples
        case (10, 1), (10, 2): bytes = (samples + 2) / 3 * 4
        case (12, 1), (12, 2), (16, 0), (16, 1), (16, 2): bytes = perLine
        case (10, 0), (12, 0): bytes = (samples * bits + 31) / 32 * 4
        default:
            throw FlipbookError.imageFeatureNotDecoded(
                "DPX", by: "Flipbook", detail: "\(bits)-bit samples, packing \(packing)")
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.order = order
        self.bits = bits
        self.packing = packing
        self.bigEndian = bigEndian
        self.dataOffset = dataOffset
        // Lines are padded to a 32-bit word, and by the end-of-line padding the element states.
        self.lineBytes = (bytes + 3) / 4 * 4 + min(max(lineEnd, 0), 1 << 20)
        self.orientation = orientation
        self.isLog = isLog
        self.format = format
    }

    /// Throws when a file of `count` bytes cannot hold the picture.
    func checkLength(_ count: Int) throws {
        let (size, overflow) = lineBytes.multipliedReportingOverflow(by: height)
        guard dataOffset >= 0, !overflow, dataOffset <= count, size <= count - dataOffset else {
            throw FlipbookError.imageDataDamaged(format)
        }
    }

    /// Every sample's code, `channels` a pixel, rows from the top, each left to right.
    func codes(in bytes: [UInt8]) -> [UInt16] {
        var codes = [UInt16](repeating: 0, count: width * height * channels)
        let perLine = width * channels
        bytes.withUnsafeBufferPointer { data in
            for row in 0..<height {
                let line = dataOffset + row * lineBytes
                let targetRow = orientation & 2 != 0 ? height - 1 - row : row
                var lineCodes = [UInt16](repeating: 0, count: perLine)
                switch bits {
                case 8:
                    for index in 0..<perLine { lineCodes[index] = UInt16(data[line + index]) }
                case 10 where packing == 0, 12 where packing == 0:
                    // Packed: one stream of samples from each word's low bits up, across words.
                    let mask = UInt64(1) << UInt64(bits) - 1
                    for index in 0..<perLine {
                        let (first, offset) = (index * bits).quotientAndRemainder(dividingBy: 32)
                        var value = UInt64(self.word(data, line + first * 4)) >> UInt64(offset)
                        if offset + bits > 32 {
                            value |= UInt64(self.word(data, line + first * 4 + 4)) << UInt64(32 - offset)
                        }
                        lineCodes[index] = UInt16(value & mask)
                    }
                case 10:
                    let shift = packing == 1 ? 22 : 20
                    for index in 0..<perLine {
                        let word = self.word(data, line + index / 3 * 4)
                        lineCodes[index] = UInt16((word >> UInt32(shift - 10 * (index % 3))) & 0x3FF)
                    }
                case 12:
                    for index in 0..<perLine {
                        let value = half(data, line + index * 2)
                        lineCodes[index] = packing == 1 ? value >> 4 : value & 0xFFF
                    }
                default:
                    for index in 0..<perLine { lineCodes[index] = half(data, line + index * 2) }
                }
                for x in 0..<width {
                    let column = orientation & 1 != 0 ? width - 1 - x : x
                    let target = (targetRow * width + column) * channels
                    for channel in 0..<channels { codes[target + channel] = lineCodes[x * channels + channel] }
                }
            }
        }
        return codes
    }

    private func word(_ data: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        let (a, b, c, d) = (UInt32(data[at]), UInt32(data[at + 1]), UInt32(data[at + 2]), UInt32(data[at + 3]))
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }

    private func half(_ data: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt16 {
        let (a, b) = (UInt16(data[at]), UInt16(data[at + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    /// Cineon log codes made linear light: white (code 685 of 1023) is 1.0, black (95) is 0.
    func sceneLinear(_ codes: [UInt16], maximum: Float) -> SceneLinearPicture {
        let table = (0...Int(maximum)).map { Self.linear(fromLogCode: Float($0) * 1023 / maximum) }
        let count = width * height
        var planes = [[Float]](repeating: [Float](repeating: 0, count: count), count: 4)
        for pixel in 0..<count {
            for channel in 0..<(hasAlpha ? 4 : 3) {
                let code = Int(codes[pixel * channels + (channels == 1 ? 0 : order[channel])])
                planes[channel][pixel] = channel == 3 ? Float(code) / maximum : table[code]
            }
        }
        return SceneLinearPicture(
            width: width, height: height, red: planes[0], green: planes[1], blue: planes[2],
            alpha: hasAlpha ? planes[3] : nil, chromaticities: nil)
    }

    /// Kodak's Cineon conversion: 0.002 density a code, negative gamma 0.6, black at 95 and white at 685.
    static func linear(fromLogCode code: Float) -> Float {
        let black = powf(10, (95 - 685) * 0.002 / 0.6)
        return (powf(10, (code - 685) * 0.002 / 0.6) - black) / (1 - black)
    }
}

/// Reads numbers of a header in its byte order; offsets past the end read as zero.
private struct HeaderReader {
    let bytes: [UInt8]
    let bigEndian: Bool

    func u16(_ at: Int) -> UInt16 {
        guard at + 2 <= bytes.count else { return 0 }
        let (a, b) = (UInt16(bytes[at]), UInt16(bytes[at + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ at: Int) -> UInt32 {
        guard at + 4 <= bytes.count else { return 0 }
        let (a, b, c, d) = (UInt32(bytes[at]), UInt32(bytes[at + 1]), UInt32(bytes[at + 2]), UInt32(bytes[at + 3]))
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }
}
