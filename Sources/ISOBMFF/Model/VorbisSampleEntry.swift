import MediaModel

/// A Vorbis sound track's description, for Matroska and WebM (`A_VORBIS`), where Vorbis from an Ogg file is
/// copied: its three header packets, Xiph-laced as Matroska's `CodecPrivate` holds them.
///
/// MP4 has no Vorbis sample entry players read: Flipbook copies Vorbis into Matroska and WebM only, and an
/// MP4 writer given this entry writes a bare `vorb` entry that no player plays.
package struct VorbisSampleEntry: SampleEntry, Equatable {
    /// The identification, comment and setup headers, Xiph-laced (a first byte of 2, then the first two
    /// lengths in 255-lacing).
    package let codecPrivate: [UInt8]
    package let channelCount: Int
    package let sampleRate: Int

    package init(codecPrivate: [UInt8], channelCount: Int, sampleRate: Int) {
        self.codecPrivate = codecPrivate
        self.channelCount = channelCount
        self.sampleRate = sampleRate
    }

    package var media: MediaKind { .audio }
    package var compatibleBrand: FourCC? { nil }

    /// A bare audio sample entry: Flipbook never puts Vorbis in an MP4 (see the type's discussion).
    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box("vorb") { w in
            AudioSampleEntryFields(channelCount: UInt16(channelCount), sampleRate: UInt32(sampleRate)).write(
                to: &w, isQuickTime: isQuickTime)
        }
    }
}
