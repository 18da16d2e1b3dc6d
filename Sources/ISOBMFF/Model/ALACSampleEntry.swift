import MediaModel

/// An Apple Lossless (ALAC) sound track's description: an `alac` audio sample entry whose child box, also
/// `alac`, holds a version and flags of 0 and the 24-byte ALACSpecificConfig (Apple's ALAC specification,
/// "ALAC Specific Info"), as Apple's tools and FFmpeg write it in MP4 and QuickTime; in Matroska the same
/// 24 bytes are `A_ALAC`'s `CodecPrivate`.
///
/// The entry's `samplesize` is the configuration's bit depth. A rate above 65535 Hz (the 16.16 field's
/// limit) is written as ``AudioSampleEntryFields`` says.
package struct ALACSampleEntry: SampleEntry, Equatable {
    /// The ALACSpecificConfig: frameLength, compatibleVersion, bitDepth, pb, mb, kb, numChannels, maxRun,
    /// maxFrameBytes, avgBitRate, sampleRate, all big-endian.
    package let specificConfig: [UInt8]
    /// The speakers, as a WAVE channel mask, for a QuickTime movie's `chan` box; 0 when not known (no box).
    package var channelMask: UInt64 = 0

    /// Takes the configuration from `bytes`: the 24-byte ALACSpecificConfig alone, or the 36-byte `alac`
    /// box that holds it (as FFmpeg's demuxers hand it out); `nil` for anything else.
    package init?(configuration bytes: [UInt8]) {
        if bytes.count == 24 {
            specificConfig = bytes
        } else if bytes.count == 36, Array(bytes[4..<8]) == Array("alac".utf8) {
            specificConfig = Array(bytes[12...])
        } else {
            return nil
        }
        guard channelCount > 0, sampleRate > 0, [16, 20, 24, 32].contains(bitDepth) else { return nil }
    }

    /// Bits a sample: 16, 20, 24 or 32.
    package var bitDepth: Int { Int(specificConfig[5]) }
    /// Channels, 1 to 8.
    package var channelCount: Int { Int(specificConfig[9]) }
    /// Samples a second.
    package var sampleRate: Int { specificConfig[20..<24].reduce(0) { $0 << 8 | Int($1) } }
    /// Samples a packet holds (the last may hold fewer), 4096 as Apple's encoder writes it.
    package var frameLength: Int { specificConfig[0..<4].reduce(0) { $0 << 8 | Int($1) } }

    package var media: MediaKind { .audio }
    package var compatibleBrand: FourCC? { nil }

    /// The fields the entry starts with.
    var fields: AudioSampleEntryFields {
        AudioSampleEntryFields(
            channelCount: UInt16(channelCount), sampleRate: UInt32(sampleRate), sampleSize: UInt16(bitDepth),
            framesPerPacket: UInt32(frameLength))
    }

    package func descriptionVersion(isQuickTime: Bool) -> UInt8 { fields.descriptionVersion(isQuickTime: isQuickTime) }

    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box("alac") { w in
            fields.write(to: &w, isQuickTime: isQuickTime)
            w.fullBox("alac", version: 0, flags: 0) { w in w.putBytes(specificConfig) }
            if isQuickTime { QuickTimeChannelLayout.write(mask: channelMask, to: &w) }
        }
    }
}
