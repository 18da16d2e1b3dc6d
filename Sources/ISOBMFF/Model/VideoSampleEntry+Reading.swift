import MediaModel

extension VideoSampleEntry {
    /// Reads a video track's sample entry back from its `trak` box (size, configuration record,
    /// colour, pixel shape, compressor name), so that its samples can be written into another movie.
    ///
    /// - Throws: ``MediaReadingError`` when the track has no sample entry, when ``VisualCodecs`` does not
    ///   know its type, or when its configuration box is missing.
    package init(reading trak: Box, in bytes: [UInt8]) throws {
        guard let entry = trak.descendant(["mdia", "minf", "stbl", "stsd"])?.children.first else {
            throw MediaReadingError.isoBMFF(.missing, "the track has no sample description", offset: trak.offset)
        }
        guard entry.offset >= 0, entry.end <= bytes.count else {
            throw MediaReadingError.isoBMFF(
                .truncated, "the sample entry runs past the end of the file", offset: entry.offset)
        }
        guard let record = VisualCodecs.record(forEntryType: entry.type), record.isWritten else {
            throw MediaReadingError.isoBMFF(
                .unsupported, "the track's \(entry.type) entry is not a codec Flipbook writes", offset: entry.offset)
        }
        var configuration: CodecConfiguration?
        if let boxType = record.configurationBox {
            guard let box = entry.child(boxType.description) else {
                throw MediaReadingError.isoBMFF(
                    .missing, "the \(entry.type) entry has no \(boxType) box", offset: entry.offset)
            }
            var header = ByteReader(payloadOf: box, in: bytes)
            configuration = CodecConfiguration(boxType: boxType, payload: try header.readBytes(header.remaining))
        }
        let visual = try VisualSampleEntry(reading: entry, in: bytes)
        var colour = try entry.child("colr").flatMap { try ColourInformationBox(reading: $0, in: bytes).colour }
        if var stated = colour {
            try HDRMetadataBoxes.read(entry, in: bytes, into: &stated)
            colour = stated
        }
        let shape = try entry.child("pasp").map { try PixelAspectRatioBox(reading: $0, in: bytes).ratio }
        self.init(
            format: FourCC(entry.type), width: Int(visual.width), height: Int(visual.height),
            configuration: configuration, colour: colour ?? .bt709, pixelAspectRatio: shape ?? .square,
            compressorName: visual.compressorName)
        hasAlpha = visual.depth == 0x20
        if let fields = try entry.child("fiel").map({ try FieldHandlingBox(reading: $0, in: bytes).fields }) {
            quickTimeDetails = QuickTimeVideoDetails(
                vendor: FourCC(rawValue: visual.vendor), spatialQuality: visual.spatialQuality, fields: fields)
        }
    }
}
