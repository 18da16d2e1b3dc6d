extension AVCSampleEntry {
    /// Reads an H.264 track's sample entry back from its `trak` box: size, parameter sets and colour,
    /// so that its samples can be written into another movie.
    ///
    /// - Throws: ``ISOBMFFError`` when the track is not H.264 (`avc1`/`avc3`) or a box is missing.
    package init(reading trak: Box, in bytes: [UInt8]) throws {
        guard let entry = trak.descendant(["mdia", "minf", "stbl", "stsd"])?.children.first
        else {
            throw ISOBMFFError(.missingBox, "the track has no sample description", offset: trak.offset)
        }
        guard entry.type == "avc1" || entry.type == "avc3", let avcC = entry.child("avcC") else {
            throw ISOBMFFError(
                .invalidTrack, "the track is \(entry.type), not H.264 with an avcC box", offset: entry.offset)
        }
        let visual = try VisualSampleEntry(reading: entry, in: bytes)
        let colour = try entry.child("colr").flatMap { try ColourInformationBox(reading: $0, in: bytes).colour }
        self.init(
            width: Int(visual.width), height: Int(visual.height),
            decoderConfiguration: try AVCConfigurationBox(reading: avcC, in: bytes).configuration,
            colour: colour ?? .bt709, compressorName: visual.compressorName)
    }
}
