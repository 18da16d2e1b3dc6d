import MediaModel
import Testing

@testable import ISOBMFF

/// The boxes of fragmented movies, byte for byte, from the layouts in ISO/IEC 14496-12 §8.8.
@Suite struct FragmentBoxTests {
    static func u32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    static func u64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    @Test func mehdIsAlwaysVersion1() {
        let box = written { MovieExtendsHeaderBox(fragmentDuration: 90).write(to: &$0) }
        #expect(box == bytes([0, 0, 0, 20], ascii("mehd"), [1, 0, 0, 0], Self.u64(90)))
    }

    @Test func trexHoldsTheTrackAndZeroDefaults() {
        let box = written { TrackExtendsBox().write(to: &$0) }
        #expect(
            box
                == bytes(
                    [0, 0, 0, 32], ascii("trex"), [0, 0, 0, 0], Self.u32(1), Self.u32(1),
                    [UInt8](repeating: 0, count: 12)))
    }

    @Test func mvexHoldsMehdThenTrex() {
        let box = written {
            MovieExtendsBox(header: MovieExtendsHeaderBox(fragmentDuration: 0), trackExtends: [TrackExtendsBox()])
                .write(to: &$0)
        }
        #expect(box.count == 8 + 20 + 32)
        #expect(Array(box[0..<8]) == bytes([0, 0, 0, 60], ascii("mvex")))
        #expect(Array(box[12..<16]) == ascii("mehd"))
        #expect(Array(box[32..<36]) == ascii("trex"))
    }

    @Test func mfhdTfhdTfdt() {
        let mfhd = written { MovieFragmentHeaderBox(sequenceNumber: 7).write(to: &$0) }
        #expect(mfhd == bytes([0, 0, 0, 16], ascii("mfhd"), [0, 0, 0, 0], Self.u32(7)))
        let tfhd = written { TrackFragmentHeaderBox().write(to: &$0) }
        #expect(tfhd == bytes([0, 0, 0, 16], ascii("tfhd"), [0, 2, 0, 0], Self.u32(1)))
        let tfdt = written { TrackFragmentDecodeTimeBox(baseMediaDecodeTime: 1 << 33).write(to: &$0) }
        #expect(tfdt == bytes([0, 0, 0, 20], ascii("tfdt"), [1, 0, 0, 0], Self.u64(1 << 33)))
    }

    @Test func trunStatesEverySampleField() {
        let box = written {
            TrackRunBox(
                dataOffset: 120,
                entries: [
                    .init(Sample(size: 1000, duration: 512, compositionOffset: 1024, isSync: true)),
                    .init(Sample(size: 300, duration: 512, compositionOffset: 0, isSync: false)),
                ]
            ).write(to: &$0)
        }
        #expect(
            box
                == bytes(
                    [0, 0, 0, 52], ascii("trun"), [0, 0, 0x0F, 0x01], Self.u32(2), Self.u32(120),
                    Self.u32(512), Self.u32(1000), [2, 0, 0, 0], Self.u32(1024),
                    Self.u32(512), Self.u32(300), [1, 1, 0, 0], Self.u32(0)))
    }

    @Test func tfraAndMfroInMfra() {
        let tfra = TrackFragmentRandomAccessBox(entries: [.init(time: 1024, moofOffset: 5 << 32)])
        let box = written { MovieFragmentRandomAccessBox(tracks: [tfra]).write(to: &$0) }
        let tfraBytes = bytes(
            [0, 0, 0, 43], ascii("tfra"), [1, 0, 0, 0], Self.u32(1), Self.u32(0), Self.u32(1),
            Self.u64(1024), Self.u64(5 << 32), [1, 1, 1])
        #expect(
            box
                == bytes(
                    [0, 0, 0, 67], ascii("mfra"), tfraBytes, [0, 0, 0, 16], ascii("mfro"), [0, 0, 0, 0], Self.u32(67)))
    }

    @Test func trunReadsBackWithAndWithoutOptionalFields() throws {
        let run = TrackRunBox(
            dataOffset: -8,
            entries: [.init(duration: 1, size: 2, flags: TrackRunBox.syncSampleFlags, compositionOffset: 3)])
        let file = written { run.write(to: &$0) }
        let box = try #require(try BoxReader.parse(file).first)
        #expect(try TrackRunBox(reading: box, in: file) == run)

        // Only a sample count and sizes: durations and flags come from the defaults.
        let sparse = bytes([0, 0, 0, 24], ascii("trun"), [0, 0, 0x02, 0x00], Self.u32(2), Self.u32(10), Self.u32(20))
        let sparseBox = try #require(try BoxReader.parse(sparse).first)
        let defaults = TrackExtendsBox(defaultSampleDuration: 512, defaultSampleFlags: TrackRunBox.nonSyncSampleFlags)
        let read = try TrackRunBox(reading: sparseBox, in: sparse, defaults: defaults)
        #expect(read.entries.map(\.size) == [10, 20])
        #expect(read.entries.map(\.duration) == [512, 512])
        #expect(read.entries.allSatisfy { !$0.isSync })
    }

    @Test func trunDeclaringMoreSamplesThanItHoldsThrows() {
        let lying = bytes(
            [0, 0, 0, 24], ascii("trun"), [0, 0, 0x02, 0x00], Self.u32(1_000_000), Self.u32(10), Self.u32(20))
        #expect(throws: MediaReadingError.self) {
            try TrackRunBox(reading: try #require(try BoxReader.parse(lying).first), in: lying)
        }
    }
}
