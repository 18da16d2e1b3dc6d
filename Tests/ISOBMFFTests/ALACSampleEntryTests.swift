import Testing

@testable import ISOBMFF

/// The ALAC sample entry, byte for byte as ffmpeg writes it in an `.m4a`: an `alac` entry whose sample size
/// is the bit depth, and an `alac` child holding the 24-byte ALACSpecificConfig.
@Suite struct ALACSampleEntryTests {
    /// ffmpeg's ALACSpecificConfig for 24-bit stereo at 44.1 kHz: frameLength 4096, bitDepth 24, pb 40,
    /// mb 10, kb 14, 2 channels, maxRun 0, maxFrameBytes 24580, avgBitRate 2116800, sampleRate 44100, as
    /// `ffmpeg -c:a alac -sample_fmt s32p` writes it.
    static let config: [UInt8] = [
        0x00, 0x00, 0x10, 0x00, 0x00, 0x18, 0x28, 0x0A, 0x0E, 0x02, 0x00, 0x00,
        0x00, 0x00, 0x60, 0x04, 0x00, 0x20, 0x4C, 0xC0, 0x00, 0x00, 0xAC, 0x44,
    ]

    @Test func theEntryIsTheOneFFmpegWrites() throws {
        let entry = try #require(ALACSampleEntry(configuration: Self.config))
        #expect(entry.bitDepth == 24 && entry.channelCount == 2 && entry.sampleRate == 44100)
        #expect(entry.frameLength == 4096)
        let bytes = written { entry.write(to: &$0, isQuickTime: false) }
        let expected: [UInt8] =
            [0, 0, 0, 0x48] + Array("alac".utf8) + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
            + [0, 2, 0, 0x18, 0, 0, 0, 0, 0xAC, 0x44, 0, 0]
            + [0, 0, 0, 0x24] + Array("alac".utf8) + [0, 0, 0, 0] + Self.config
        #expect(bytes == expected)
    }

    /// FFmpeg's demuxers hand the configuration out inside its 12-byte `alac` box header.
    @Test func theConfigurationIsTakenBareOrInItsBox() throws {
        let boxed: [UInt8] = [0, 0, 0, 36] + Array("alac".utf8) + [0, 0, 0, 0] + Self.config
        #expect(ALACSampleEntry(configuration: boxed) == ALACSampleEntry(configuration: Self.config))
        #expect(ALACSampleEntry(configuration: Array(Self.config.prefix(20))) == nil)
        var noChannels = Self.config
        noChannels[9] = 0
        #expect(ALACSampleEntry(configuration: noChannels) == nil)
    }
}
