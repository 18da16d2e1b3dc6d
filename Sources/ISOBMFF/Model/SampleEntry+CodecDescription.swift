import MediaModel

// What each sample entry says as a codec description, for containers other than MP4 (see
// ``CodecDescription``): the codec's name as ffprobe gives it and its configuration as the codec
// defines it, which is the payload of the entry's configuration box or descriptor.

extension VideoSampleEntry {
    /// The configuration record's payload; `nil` for none or an empty one.
    package var codecConfiguration: [UInt8]? {
        configuration.flatMap { $0.payload.isEmpty ? nil : $0.payload }
    }
    /// The entry type, which names ProRes's profile.
    package var codecTag: String? { format.description }
    package var picture: PictureDescription? {
        PictureDescription(colour: colour, pixelAspectRatio: pixelAspectRatio, hasAlpha: hasAlpha)
    }
}

extension MPEG4AudioSampleEntry {
    package var codecName: String { MPEG4Audio.codecName(objectType: objectTypeIndication) }
    package var codecConfiguration: [UInt8]? { decoderSpecificInfo }
    package var sound: SoundDescription? {
        SoundDescription(sampleRate: Double(sampleRate), channelCount: Int(channelCount))
    }
}

extension CopiedAudioSampleEntry {
    /// AAC or MP3 for an `mp4a` entry, by its object type; the entry type for any other.
    package var codecName: String {
        guard type == "mp4a", let objectTypeIndication else { return type }
        return MPEG4Audio.codecName(objectType: objectTypeIndication)
    }
    package var codecConfiguration: [UInt8]? { decoderSpecificInfo }
    package var sound: SoundDescription? {
        SoundDescription(sampleRate: Double(sampleRate), channelCount: channelCount)
    }
}

extension FLACSampleEntry {
    package var codecName: String { "flac" }
    /// `fLaC` and the STREAMINFO block, as Matroska's `CodecPrivate` holds them.
    package var codecConfiguration: [UInt8]? { streamHeader }
    package var sound: SoundDescription? {
        SoundDescription(sampleRate: Double(sampleRate), channelCount: channelCount)
    }
}

extension VorbisSampleEntry {
    package var codecName: String { "vorbis" }
    package var codecConfiguration: [UInt8]? { codecPrivate }
    package var sound: SoundDescription? {
        SoundDescription(sampleRate: Double(sampleRate), channelCount: channelCount)
    }
}

extension ALACSampleEntry {
    package var codecName: String { "alac" }
    package var codecConfiguration: [UInt8]? { specificConfig }
    package var sound: SoundDescription? {
        SoundDescription(sampleRate: Double(sampleRate), channelCount: channelCount)
    }
}

extension AC3SampleEntry {
    package var codecName: String { isEnhanced ? "eac3" : "ac3" }
    package var sound: SoundDescription? {
        SoundDescription(sampleRate: Double(sampleRate), channelCount: channelCount)
    }
}

extension OpusSampleEntry {
    package var codecName: String { "opus" }
    package var codecConfiguration: [UInt8]? { opusHead }
    /// Opus is decoded at 48 kHz whatever rate it was made from.
    package var sound: SoundDescription? {
        SoundDescription(sampleRate: 48000, channelCount: opusHead.count > 9 ? Int(opusHead[9]) : 0)
    }
}

/// The MPEG-4 audio object types an `esds` names, by the codec they are.
enum MPEG4Audio {
    /// `aac` (MPEG-4 AAC and MPEG-2 AAC's profiles), `mp3` (MPEG-1 and -2 layer 3), or a name
    /// no container's table holds for any other.
    static func codecName(objectType: UInt8) -> String {
        switch objectType {
        case 0x40, 0x66, 0x67, 0x68: "aac"
        case 0x69, 0x6B: "mp3"
        default: "MPEG-4 audio of object type \(objectType)"
        }
    }
}
