import MediaModel

/// An MPEG-4 audio sample entry (`mp4a`, ISO/IEC 14496-14 §5.6) built from its fields: a version 0
/// audio sample entry with an elementary stream descriptor (`esds`) naming the codec by its
/// `objectTypeIndication` (0x40 for MPEG-4 audio such as AAC, 0x6B for MP3) and carrying its
/// decoder configuration (an AAC AudioSpecificConfig; none for MP3).
package struct MPEG4AudioSampleEntry: SampleEntry, Equatable {
    /// The codec: 0x40 (MPEG-4 audio, AAC) or 0x6B (MPEG-1 audio layer 3).
    package var objectTypeIndication: UInt8
    /// The DecoderSpecificInfo payload: an AudioSpecificConfig for AAC, empty for MP3.
    package var decoderSpecificInfo: [UInt8]
    /// Channels, for the sample entry's `channelcount`.
    package var channelCount: UInt16
    /// Samples a second.
    package var sampleRate: UInt32
    /// The stream's average bit rate in bits a second, 0 when unknown.
    package var averageBitrate: UInt32
    /// The stream's largest bit rate over a second, 0 when unknown.
    package var maximumBitrate: UInt32
    /// The largest sample in bytes.
    package var bufferSize: UInt32
    /// The speakers the channels are for, as a WAVE channel mask (FFmpeg's native order: `0x3F` for 5.1), which a
    /// QuickTime movie states in a `chan` box; 0 when not known (no box).
    package var channelMask: UInt64 = 0

    /// Creates an entry.
    package init(
        objectTypeIndication: UInt8, decoderSpecificInfo: [UInt8], channelCount: UInt16, sampleRate: UInt32,
        averageBitrate: UInt32 = 0, maximumBitrate: UInt32 = 0, bufferSize: UInt32 = 0
    ) {
        self.objectTypeIndication = objectTypeIndication
        self.decoderSpecificInfo = decoderSpecificInfo
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.averageBitrate = averageBitrate
        self.maximumBitrate = maximumBitrate
        self.bufferSize = bufferSize
    }

    package var media: MediaKind { .audio }

    package func validate() throws {
        guard sampleRate > 0, channelCount > 0 else {
            throw MuxingError.invalidTrack(
                "an mp4a entry cannot hold \(channelCount) channels at \(sampleRate) Hz")
        }
    }

    /// The fields the entry starts with.
    var fields: AudioSampleEntryFields {
        AudioSampleEntryFields(channelCount: channelCount, sampleRate: sampleRate, framesPerPacket: 1024)
    }

    package func descriptionVersion(isQuickTime: Bool) -> UInt8 { fields.descriptionVersion(isQuickTime: isQuickTime) }

    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box("mp4a") { w in
            fields.write(to: &w, isQuickTime: isQuickTime)
            w.fullBox("esds", version: 0, flags: 0) { w in
                var config: [UInt8] = [objectTypeIndication, 0x15]  // streamType 5 (audio) << 2 | upStream 0 | 1
                config += [UInt8(bufferSize >> 16 & 0xFF), UInt8(bufferSize >> 8 & 0xFF), UInt8(bufferSize & 0xFF)]
                for value in [maximumBitrate, averageBitrate] {
                    config += [
                        UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
                    ]
                }
                if !decoderSpecificInfo.isEmpty { config += Self.descriptor(0x05, decoderSpecificInfo) }
                let elementary = [0, 0, 0] + Self.descriptor(0x04, config) + Self.descriptor(0x06, [0x02])
                w.putBytes(Self.descriptor(0x03, elementary))
            }
            if isQuickTime { QuickTimeChannelLayout.write(mask: channelMask, to: &w) }
        }
    }

    /// A descriptor of ISO/IEC 14496-1: its tag, its size in 7-bit groups, its payload.
    static func descriptor(_ tag: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var size: [UInt8] = [UInt8(payload.count & 0x7F)]
        var rest = payload.count >> 7
        while rest > 0 {
            size.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return [tag] + size + payload
    }
}

/// The fields every audio sample entry starts with (ISO/IEC 14496-12 §12.2.3).
///
/// A rate up to 65535 Hz fits the 16.16 `samplerate` field of a version 0 entry. A higher one (88.2, 96,
/// 176.4, 192 kHz) is written as each format says: in an MP4, an `AudioSampleEntryV1` (`entry_version` 1, in
/// an `stsd` of version 1) whose `samplerate` is the rate halved until it fits and whose `srat` box
/// (SamplingRateBox) holds the rate itself; in a QuickTime movie, a version 2 sound description, whose rate
/// is a 64-bit float (Apple's QuickTime File Format, "Sound sample description (version 2)").
package struct AudioSampleEntryFields: Sendable, Equatable {
    /// Channels.
    package var channelCount: UInt16
    /// Samples a second.
    package var sampleRate: UInt32

    /// Bits a sample: 16, except for a lossless codec that states its own (ALAC's 20, 24 or 32).
    package var sampleSize: UInt16

    /// Samples a packet decodes to, which a version 2 QuickTime description states (ALAC's 4096, AAC's
    /// 1024); 0 when packets vary.
    package var framesPerPacket: UInt32

    /// Creates the fields.
    package init(channelCount: UInt16, sampleRate: UInt32, sampleSize: UInt16 = 16, framesPerPacket: UInt32 = 0) {
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.sampleSize = sampleSize
        self.framesPerPacket = framesPerPacket
    }

    /// Whether the rate is past what the 16.16 field holds.
    package var isHighRate: Bool { sampleRate > 0xFFFF }

    /// The version of the `stsd` that holds an entry with these fields: 1 for an MP4's `AudioSampleEntryV1`.
    package func descriptionVersion(isQuickTime: Bool) -> UInt8 { isHighRate && !isQuickTime ? 1 : 0 }

    /// The rate halved until it fits the 16.16 field (96000 Hz → 48000), as an MP4's version 1 entry states it
    /// beside its `srat`.
    var fittingRate: UInt32 {
        var rate = sampleRate
        while rate > 0xFFFF { rate /= 2 }
        return rate
    }

    /// Writes the fields after the entry's box header: 28 bytes (version 0, and an MP4's version 1 with its
    /// `srat` box after them), or 64 for a QuickTime version 2 description.
    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.putZeros(6)
        writer.putUInt16(1)  // data_reference_index
        guard isHighRate else {
            writer.putZeros(8)  // reserved (QuickTime: version, revision level, vendor)
            writer.putUInt16(channelCount)
            writer.putUInt16(sampleSize)
            writer.putZeros(4)  // pre_defined, reserved
            writer.putUInt32(sampleRate << 16)
            return
        }
        if isQuickTime {
            writer.putUInt16(2)  // version
            writer.putZeros(6)  // revision level, vendor
            writer.putUInt16(3)  // always 3
            writer.putUInt16(16)  // always 16
            writer.putUInt16(0xFFFE)  // always -2
            writer.putUInt16(0)  // always 0
            writer.putUInt32(0x0001_0000)  // always 65536
            writer.putUInt32(72)  // sizeOfStructOnly
            writer.putUInt64(Double(sampleRate).bitPattern)
            writer.putUInt32(UInt32(channelCount))
            writer.putUInt32(0x7F00_0000)  // always 0x7F000000
            writer.putUInt32(0)  // constBitsPerChannel: compressed
            writer.putUInt32(0)  // formatSpecificFlags
            writer.putUInt32(0)  // constBytesPerAudioPacket: packets vary
            writer.putUInt32(framesPerPacket)  // constLPCMFramesPerAudioPacket
            return
        }
        writer.putUInt16(1)  // entry_version
        writer.putZeros(6)  // reserved
        writer.putUInt16(channelCount)
        writer.putUInt16(sampleSize)
        writer.putZeros(4)  // pre_defined, reserved
        writer.putUInt32(fittingRate << 16)
        writer.fullBox("srat", version: 0, flags: 0) { w in w.putUInt32(sampleRate) }
    }
}

/// An audio sample entry copied as it is from another file (an `.m4a` soundtrack): its box's
/// bytes, written back unchanged, so the codec's configuration (`esds`, `dOps`) is the source's.
package struct CopiedAudioSampleEntry: SampleEntry, Equatable {
    /// The whole sample entry box, header included.
    package let box: [UInt8]
    /// The entry's type, such as `mp4a`.
    package let type: String
    /// Channels, from the entry's `channelcount`.
    package let channelCount: Int
    /// The `objectTypeIndication` of the entry's `esds`, if it has one.
    package let objectTypeIndication: UInt8?
    /// The DecoderSpecificInfo of the entry's `esds` (an AAC AudioSpecificConfig), if it has one.
    package let decoderSpecificInfo: [UInt8]?
    /// Samples a second, from the entry's `samplerate` (16.16 fixed point, whole part).
    package let sampleRate: Int

    /// Reads the first sample entry of a `trak` box.
    ///
    /// - Throws: ``MediaReadingError`` when the track has no sample entry or it is cut short.
    package init(reading trak: Box, in bytes: [UInt8]) throws {
        guard let entry = trak.descendant(["mdia", "minf", "stbl", "stsd"])?.children.first else {
            throw MediaReadingError.isoBMFF(.missing, "the track has no sample description", offset: trak.offset)
        }
        guard entry.offset >= 0, entry.end <= bytes.count, entry.size >= entry.headerSize + 28 else {
            throw MediaReadingError.isoBMFF(.truncated, "the sample entry is cut short", offset: entry.offset)
        }
        box = Array(bytes[entry.offset..<entry.end])
        type = entry.type
        let fields = entry.offset + entry.headerSize
        channelCount = Int(bytes[fields + 16]) << 8 | Int(bytes[fields + 17])
        sampleRate = Int(bytes[fields + 24]) << 8 | Int(bytes[fields + 25])
        (objectTypeIndication, decoderSpecificInfo) = Self.decoderConfiguration(in: box)
    }

    package var media: MediaKind { .audio }

    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.putBytes(box)
    }

    /// The `objectTypeIndication` of the DecoderConfigDescriptor inside an entry's `esds`, and the
    /// DecoderSpecificInfo that follows it.
    private static func decoderConfiguration(in box: [UInt8]) -> (UInt8?, [UInt8]?) {
        let esds: [UInt8] = Array("esds".utf8)
        guard box.count > 8, let at = (8..<(box.count - 4)).first(where: { Array(box[$0..<$0 + 4]) == esds }) else {
            return (nil, nil)
        }
        // The descriptors after esds's version and flags: ES_Descriptor (tag 3), then tag 4.
        var position = at + 8
        func readSize() -> Int {
            var size = 0
            while position < box.count {
                let byte = box[position]
                position += 1
                size = size << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            return size
        }
        func skipSize() { _ = readSize() }
        guard position < box.count, box[position] == 0x03 else { return (nil, nil) }
        position += 1
        skipSize()
        guard position + 3 <= box.count else { return (nil, nil) }
        let flags = box[position + 2]
        position += 3
        if flags & 0x80 != 0 { position += 2 }
        if flags & 0x40 != 0, position < box.count { position += 1 + Int(box[position]) }
        if flags & 0x20 != 0 { position += 2 }
        guard position < box.count, box[position] == 0x04 else { return (nil, nil) }
        position += 1
        skipSize()
        guard position < box.count else { return (nil, nil) }
        let objectType = box[position]
        // objectTypeIndication, streamType, bufferSizeDB (3), maxBitrate (4), avgBitrate (4).
        position += 13
        guard position < box.count, box[position] == 0x05 else { return (objectType, nil) }
        position += 1
        let size = readSize()
        guard size > 0, position + size <= box.count else { return (objectType, nil) }
        return (objectType, Array(box[position..<position + size]))
    }
}

/// QuickTime's channel layout box (`chan`, Apple's QuickTime File Format, "Audio channel layout atom"), as
/// ffmpeg and Apple's tools write it after a sound entry's configuration: a version and flags of 0, the layout
/// tag `kAudioChannelLayoutTag_UseChannelBitmap`, the speakers as a channel bitmap (whose bits are a WAVE
/// channel mask's), no channel descriptions.
package enum QuickTimeChannelLayout {
    /// Writes the box for the speakers of `mask`; nothing when the mask is 0 (not known) or names speakers a
    /// bitmap cannot.
    package static func write(mask: UInt64, to writer: inout ByteWriter) {
        guard mask != 0, mask <= 0x3FFFF else { return }
        writer.fullBox("chan", version: 0, flags: 0) { w in
            w.putUInt32(0x0001_0000)  // kAudioChannelLayoutTag_UseChannelBitmap
            w.putUInt32(UInt32(mask))
            w.putUInt32(0)  // mNumberChannelDescriptions
        }
    }
}
