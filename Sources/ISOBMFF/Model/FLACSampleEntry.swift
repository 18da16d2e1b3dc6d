import MediaModel

/// A FLAC sample entry (`fLaC` with `dfLa`, "Encapsulation of FLAC in ISO Base Media File Format"
/// §3.3), from the stream's STREAMINFO block; Matroska's `A_FLAC` track takes the same block.
package struct FLACSampleEntry: SampleEntry, Equatable {
    /// The STREAMINFO block's 34 bytes.
    package let streamInfo: [UInt8]

    /// Creates the entry from a STREAMINFO block of 34 bytes.
    package init(streamInfo: [UInt8]) {
        precondition(streamInfo.count == 34, "a STREAMINFO block has 34 bytes, got \(streamInfo.count)")
        self.streamInfo = streamInfo
    }

    /// Samples a second.
    package var sampleRate: Int { Int(streamInfo[10]) << 12 | Int(streamInfo[11]) << 4 | Int(streamInfo[12]) >> 4 }
    /// Channels.
    package var channelCount: Int { Int(streamInfo[12] >> 1 & 7) + 1 }
    /// The metadata as a FLAC stream starts: `fLaC`, then STREAMINFO marked as the last block.
    package var streamHeader: [UInt8] { Array("fLaC".utf8) + [0x80, 0, 0, 34] + streamInfo }

    package var media: MediaKind { .audio }

    /// The fields the entry starts with.
    var fields: AudioSampleEntryFields {
        AudioSampleEntryFields(channelCount: UInt16(channelCount), sampleRate: UInt32(sampleRate))
    }

    package func descriptionVersion(isQuickTime: Bool) -> UInt8 { fields.descriptionVersion(isQuickTime: isQuickTime) }

    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box("fLaC") { w in
            fields.write(to: &w, isQuickTime: isQuickTime)
            w.fullBox("dfLa", version: 0, flags: 0) { w in
                w.putBytes([0x80, 0, 0, 34])  // the last metadata block, STREAMINFO, 34 bytes
                w.putBytes(streamInfo)
            }
        }
    }
}
