import MediaModel

/// An Opus sample entry (`Opus` with `dOps`, "Encapsulation of Opus in ISO Base Media File Format"
/// §4.3), built from an Ogg stream's `OpusHead` packet: the same fields, big-endian.
package struct OpusSampleEntry: SampleEntry, Equatable {
    /// The `OpusHead` packet as it is in the Ogg stream (little-endian fields).
    package let opusHead: [UInt8]

    /// Creates the entry from an `OpusHead` packet of at least 19 bytes.
    package init(opusHead: [UInt8]) {
        precondition(opusHead.count >= 19, "an OpusHead packet has at least 19 bytes, got \(opusHead.count)")
        self.opusHead = opusHead
    }

    package var media: MediaKind { .audio }
    package var compatibleBrand: FourCC? { "opus" }

    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        let channels = opusHead[9]
        writer.box("Opus") { w in
            AudioSampleEntryFields(channelCount: UInt16(channels), sampleRate: 48000).write(
                to: &w, isQuickTime: isQuickTime)
            w.box("dOps") { w in
                w.putUInt8(0)  // Version
                w.putUInt8(channels)  // OutputChannelCount
                w.putUInt16(UInt16(opusHead[10]) | UInt16(opusHead[11]) << 8)  // PreSkip
                w.putUInt32((12..<16).reduce(UInt32(0)) { $0 | UInt32(opusHead[$1]) << (8 * ($1 - 12)) })
                w.putInt16(Int16(bitPattern: UInt16(opusHead[16]) | UInt16(opusHead[17]) << 8))  // OutputGain
                w.putUInt8(opusHead[18])  // ChannelMappingFamily
                if opusHead[18] != 0 {
                    // StreamCount, CoupledCount and the ChannelMapping table, as they are.
                    w.putBytes(opusHead[19..<min(opusHead.count, 21 + Int(channels))])
                }
            }
        }
    }
}
