extension VideoSampleEntry {
    /// Reads a video track's sample entry back from its `trak` box (size, configuration record,
    /// colour, pixel shape, compressor name), so that its samples can be written into another movie.
    ///
    /// - Throws: ``ISOBMFFError`` when the track has no sample entry, when ``VisualCodecs`` does not
    ///   know its type, or when its configuration box is missing.
    package init(reading trak: Box, in bytes: [UInt8]) throws {
        guard let entry = trak.descendant(["mdia", "minf", "stbl", "stsd"])?.children.first else {
            throw ISOBMFFError(.missingBox, "the track has no sample description", offset: trak.offset)
        }
        guard entry.offset >= 0, entry.end <= bytes.count else {
            throw ISOBMFFError(.truncated, "the sample entry runs past the end of the file", offset: entry.offset)
        }
        guard let record = VisualCodecs.record(forEntryType: entry.type), let boxType = record.configurationBox else {
            throw ISOBMFFError(
                .invalidTrack, "the track's \(entry.type) entry is not a codec Flipbook writes", offset: entry.offset)
        }
        guard let configuration = entry.child(boxType.description) else {
            throw ISOBMFFError(.missingBox, "the \(entry.type) entry has no \(boxType) box", offset: entry.offset)
        }
        let visual = try VisualSampleEntry(reading: entry, in: bytes)
        let colour = try entry.child("colr").flatMap { try ColourInformationBox(reading: $0, in: bytes).colour }
        let shape = try entry.child("pasp").map { try PixelAspectRatioBox(reading: $0, in: bytes).ratio }
        var header = ByteReader(payloadOf: configuration, in: bytes)
        let payload = try header.readBytes(header.remaining)
        self.init(
            format: FourCC(entry.type), width: Int(visual.width), height: Int(visual.height),
            configuration: CodecConfiguration(boxType: boxType, payload: payload), colour: colour ?? .bt709,
            pixelAspectRatio: shape ?? .square, compressorName: visual.compressorName)
    }
}
