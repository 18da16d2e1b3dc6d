internal import COpenEXR

/// The quick way of the commonest render, half R, G and B, shown through the standard view for an SDR
/// movie or coded for an HDR one: OpenEXRCore decodes the three channels as halves straight into the
/// picture's interleaved 16-bit samples, and each sample is made what it shows in place: through one
/// table of every half's display code (SDR), or through a table of every half's value and the
/// ``HDRPixelCoder`` (HDR). The picture is the one the float planes and
/// ``SceneLinearPicture/decoded(for:view:)`` make, sample for sample, without the planes or their copies.
extension OpenEXRFile {
    /// `picture` shown through `view` as `request` asks for it, when it can go the quick way; `nil` when
    /// it cannot and the float planes read it: another curve or a config's view (for an SDR movie), a
    /// luminance file, alpha kept or composited over a colour other than black (over black, associated
    /// alpha leaves the light as it is), primaries to convert, channels not half or subsampled, DWAA or
    /// DWAB, or a data window reaching outside the display window.
    func displayedHalves(
        _ picture: OpenEXRLayers.Picture, for request: DecodeRequest, view: ViewTransform
    ) throws -> DecodedImage? {
        let hdr = request.colour.flatMap { $0.target.isHDR ? $0 : nil }
        guard hdr != nil || (view.curve == .standard && view.openColorIO == nil), !picture.isLuminance,
            let red = picture.channels["R"], let green = picture.channels["G"],
            let blue = picture.channels["B"]
        else { return nil }
        if picture.channels["A"] != nil {
            guard let background = request.background,
                background.red == 0 && background.green == 0 && background.blue == 0
            else { return nil }
        }
        let part = picture.part
        var storage = EXR_STORAGE_SCANLINE
        var compression = EXR_COMPRESSION_NONE
        try exrCall(exr_get_storage(context, part, &storage), "exr_get_storage", damaged)
        try exrCall(exr_get_compression(context, part, &compression), "exr_get_compression", damaged)
        guard storage == EXR_STORAGE_SCANLINE || storage == EXR_STORAGE_TILED,
            compression != EXR_COMPRESSION_DWAA && compression != EXR_COMPRESSION_DWAB,
            try halfChannels(part, [red, green, blue], fullResolution: Array(picture.channels.values))
        else { return nil }
        let chromaticities = chromaticities(part)
        var (primaries, stated) = SceneLinearPicture.shownPrimaries(
            for: request, view: view, chromaticities: chromaticities)
        guard hdr != nil || SceneLinearPicture.conversion(from: chromaticities, to: primaries) == nil else {
            return nil
        }

        let windows = try windows(part, limits: request.limits)
        let (width, height, window) = (windows.width, windows.height, windows.window)
        guard window.left >= 0, window.top >= 0, window.left + window.width <= width,
            window.top + window.height <= height
        else { return nil }

        // Outside the data window the samples stay 0: black, as a half 0 shows.
        var samples = [UInt16](repeating: 0, count: width * height * 3)
        let offsets = [red: 0, green: 1, blue: 2]
        let zip = OpenEXRZipChunks(compression)
        try samples.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try forEachChunk(
                part, storage: storage, data: windows.data, dataWidth: window.width, dataHeight: window.height
            ) { chunk, origin in
                let first = base + ((window.top + origin.y) * width + window.left + origin.x) * 3
                try decodeHalves(chunk, part: part, zip: zip, offsets: offsets, first: first, lineLength: width * 3)
            }
        }
        if let hdr {
            let coder = HDRPixelCoder(hdr, chromaticities: chromaticities)
            Self.halfValues.withUnsafeBufferPointer { value in
                samples.withUnsafeMutableBufferPointer { samples in
                    for base in stride(from: 0, to: samples.count, by: 3) {
                        (samples[base], samples[base + 1], samples[base + 2]) = coder.code(
                            value[Int(samples[base])], value[Int(samples[base + 1])], value[Int(samples[base + 2])])
                    }
                }
            }
            stated = hdr.target.codedColour ?? .unstated
        } else {
            let table = Self.displayCodes(gain: view.gain)
            table.withUnsafeBufferPointer { table in
                samples.withUnsafeMutableBufferPointer { samples in
                    for index in samples.indices { samples[index] = table[Int(samples[index])] }
                }
            }
        }
        let image = DeepImage(width: width, height: height, samples: samples, hasAlpha: false)
        var shown = stated
        shown.viewExposed = true
        return try request.delivering(image).withSourceColour(shown)
    }

    /// Whether the part's channels `named` are halves and those of `fullResolution` sampled at every pixel.
    private func halfChannels(_ part: Int32, _ named: [String], fullResolution: [String]) throws -> Bool {
        let listed = try channels(part).filter { fullResolution.contains($0.name) }
        guard listed.allSatisfy({ $0.x == 1 && $0.y == 1 }) else { return false }
        let halves = Set(listed.filter { $0.type == EXR_PIXEL_HALF }.map(\.name))
        return named.allSatisfy(halves.contains)
    }

    /// Decodes one chunk's channels named in `offsets` as halves into interleaved samples: the chunk's
    /// first pixel at `first`, each channel at its offset in a pixel of three, `lineLength` samples a line.
    private func decodeHalves(
        _ chunk: exr_chunk_info_t, part: Int32, zip: OpenEXRZipChunks?, offsets: [String: Int],
        first: UnsafeMutablePointer<UInt16>,
        lineLength: Int
    ) throws {
        var chunk = chunk
        var pipeline = exr_decode_pipeline_t()
        try exrCall(exr_decoding_initialize(context, part, &chunk, &pipeline), "exr_decoding_initialize", dataDamaged)
        defer { exr_decoding_destroy(context, &pipeline) }
        for index in 0..<Int(pipeline.channel_count) {
            let channel = pipeline.channels[index]
            let name = channel.channel_name.map { String(cString: $0) } ?? ""
            guard let offset = offsets[name] else {
                pipeline.channels[index].decode_to_ptr = nil
                continue
            }
            guard channel.width == chunk.width, channel.height == chunk.height else {
                throw FlipbookError.imageDataDamaged("OpenEXR")
            }
            pipeline.channels[index].decode_to_ptr = UnsafeMutableRawPointer(first + offset)
                .assumingMemoryBound(to: UInt8.self)
            pipeline.channels[index].user_pixel_stride = Int32(3 * MemoryLayout<UInt16>.size)
            pipeline.channels[index].user_line_stride = Int32(lineLength * MemoryLayout<UInt16>.size)
            pipeline.channels[index].user_data_type = UInt16(EXR_PIXEL_HALF.rawValue)
            pipeline.channels[index].user_bytes_per_element = Int16(MemoryLayout<UInt16>.size)
        }
        try exrCall(
            exr_decoding_choose_default_routines(context, part, &pipeline), "exr_decoding_choose_default_routines",
            dataDamaged)
        zip?.take(&pipeline)
        try exrCall(exr_decoding_run(context, part, &pipeline), "exr_decoding_run", dataDamaged)
    }

    /// The value of every half, by its bits.
    private static let halfValues: [Float] = (0...Int(UInt16.max)).map { Float(Float16(bitPattern: UInt16($0))) }

    /// The 16-bit display code of every half (by its bits) through the standard curve after `gain`:
    /// what ``ViewTransform/display(_:_:_:gain:)`` and the float path's rounding make of it. Made once
    /// for each exposure.
    static func displayCodes(gain: Float) -> [UInt16] {
        if let known = madeCodes.withLock({ $0[gain] }) { return known }
        let codes = halfValues.map { value in
            UInt16(ViewTransform.standard.display(value, gain: gain) * 65535 + 0.5)
        }
        madeCodes.withLock { $0[gain] = codes }
        return codes
    }

    private static let madeCodes = LockedValue([Float: [UInt16]]())
}
