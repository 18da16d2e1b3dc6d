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

        var display = exr_attr_box2i_t()
        var data = exr_attr_box2i_t()
        try exrCall(exr_get_display_window(context, part, &display), "exr_get_display_window", damaged)
        try exrCall(exr_get_data_window(context, part, &data), "exr_get_data_window", damaged)
        let width = Int(display.max.x) - Int(display.min.x) + 1
        let height = Int(display.max.y) - Int(display.min.y) + 1
        let dataWidth = Int(data.max.x) - Int(data.min.x) + 1
        let dataHeight = Int(data.max.y) - Int(data.min.y) + 1
        try request.limits.check(width: width, height: height)
        try request.limits.check(width: dataWidth, height: dataHeight)
        let left = Int(data.min.x) - Int(display.min.x)
        let top = Int(data.min.y) - Int(display.min.y)
        guard left >= 0, top >= 0, left + dataWidth <= width, top + dataHeight <= height else { return nil }

        // Outside the data window the samples stay 0: black, as a half 0 shows.
        var samples = [UInt16](repeating: 0, count: width * height * 3)
        let offsets = [red: 0, green: 1, blue: 2]
        let zip = OpenEXRZipChunks(compression)
        try samples.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try forEachChunk(part, storage: storage, data: data, dataWidth: dataWidth, dataHeight: dataHeight) {
                chunk, origin in
                // The chunk's rectangle in the data window; a damaged offset table could name any other.
                guard origin.x >= 0, origin.y >= 0, chunk.width >= 0, chunk.height >= 0,
                    origin.x + Int(chunk.width) <= dataWidth, origin.y + Int(chunk.height) <= dataHeight
                else {
                    throw FlipbookError.imageDataDamaged("OpenEXR")
                }
                let first = base + ((top + origin.y) * width + left + origin.x) * 3
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
        return try request.delivering(image).withSourceColour(stated)
    }

    /// Whether the part's channels `named` are halves and those of `fullResolution` sampled at every pixel.
    private func halfChannels(_ part: Int32, _ named: [String], fullResolution: [String]) throws -> Bool {
        var list: UnsafePointer<exr_attr_chlist_t>?
        try exrCall(exr_get_channels(context, part, &list), "exr_get_channels", damaged)
        guard let list, let entries = list.pointee.entries else { return false }
        var halves = Set<String>()
        for index in 0..<Int(list.pointee.num_channels) {
            let entry = entries[index]
            let name = entry.name.str.map { String(cString: $0) } ?? ""
            guard fullResolution.contains(name) else { continue }
            guard entry.x_sampling == 1, entry.y_sampling == 1 else { return false }
            if entry.pixel_type == EXR_PIXEL_HALF { halves.insert(name) }
        }
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
