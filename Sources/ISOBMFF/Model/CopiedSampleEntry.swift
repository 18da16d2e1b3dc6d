/// A visual sample entry copied as it is from another movie (a segment being joined): its box's
/// bytes, written back unchanged, for codecs whose entry Flipbook copies rather than rebuilds
/// (`hvc1`, `av01`).
package struct CopiedSampleEntry: SampleEntry, Equatable {
    /// The whole sample entry box, header included.
    package let box: [UInt8]
    /// The entry's type, such as `hvc1`.
    package let type: String
    /// The picture width in pixels.
    package let width: Int
    /// The picture height in pixels.
    package let height: Int

    /// Reads the first sample entry of a `trak` box.
    ///
    /// - Throws: ``ISOBMFFError`` when the track has no visual sample entry.
    package init(reading trak: Box, in bytes: [UInt8]) throws {
        guard let entry = trak.descendant(["mdia", "minf", "stbl", "stsd"])?.children.first else {
            throw ISOBMFFError(.missingBox, "the track has no sample description", offset: trak.offset)
        }
        guard entry.offset >= 0, entry.end <= bytes.count else {
            throw ISOBMFFError(.truncated, "the sample entry runs past the end of the file", offset: entry.offset)
        }
        let visual = try VisualSampleEntry(reading: entry, in: bytes)
        box = Array(bytes[entry.offset..<entry.end])
        type = entry.type
        width = Int(visual.width)
        height = Int(visual.height)
    }

    package var media: MediaKind { .video(width: width, height: height) }

    package var compatibleBrand: FourCC? {
        switch type {
        case "avc1", "avc3": "avc1"
        case "av01": "av01"
        default: nil
        }
    }

    /// The codec's name as ffprobe gives it.
    package var codecName: String {
        switch type {
        case "avc1", "avc3": "h264"
        case "hvc1", "hev1": "hevc"
        case "av01": "av1"
        default: type.trimmingCharacters(in: .whitespaces)
        }
    }

    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.putBytes(box)
    }
}
