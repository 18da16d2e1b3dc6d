import MediaModel

/// An AC-3 or E-AC-3 sound track's description, for Matroska (`A_AC3`, `A_EAC3`), where Dolby Digital from a
/// raw `.ac3` or `.eac3` file is copied frame for frame; each frame states its own configuration, so the track
/// needs no `CodecPrivate`.
///
/// Flipbook does not copy AC-3 into MP4 (its `dac3`/`dec3` boxes are not written): an MP4 writer given this
/// entry writes a bare `ac-3` or `ec-3` entry.
package struct AC3SampleEntry: SampleEntry, Equatable {
    /// Whether the frames are E-AC-3 (Dolby Digital Plus) rather than AC-3.
    package let isEnhanced: Bool
    package let channelCount: Int
    package let sampleRate: Int

    package init(isEnhanced: Bool, channelCount: Int, sampleRate: Int) {
        self.isEnhanced = isEnhanced
        self.channelCount = channelCount
        self.sampleRate = sampleRate
    }

    package var media: MediaKind { .audio }
    package var compatibleBrand: FourCC? { nil }

    /// A bare audio sample entry: Flipbook never puts AC-3 in an MP4 (see the type's discussion).
    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box(isEnhanced ? "ec-3" : "ac-3") { w in
            AudioSampleEntryFields(channelCount: UInt16(channelCount), sampleRate: UInt32(sampleRate)).write(
                to: &w, isQuickTime: isQuickTime)
        }
    }
}
