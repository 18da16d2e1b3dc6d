@testable import ISOBMFF

/// Concatenates byte arrays; spelled as a call because long `+` chains of literals are slow to type-check.
func bytes(_ parts: [UInt8]...) -> [UInt8] {
    parts.flatMap { $0 }
}

/// The bytes of an ASCII string, for spelling box types and brands in expected byte literals.
func ascii(_ text: String) -> [UInt8] {
    Array(text.utf8)
}

/// A fake High-profile (100) level 3.1 SPS: NAL header, profile_idc, constraint flags, level_idc, payload.
let fakeSPS: [UInt8] = [0x67, 0x64, 0x00, 0x1F, 0xAC, 0xD9, 0x40]
/// A fake PPS.
let fakePPS: [UInt8] = [0x68, 0xEB, 0xE3, 0xCB]

func makeTrack(width: Int = 64, height: Int = 48, timescale: UInt32 = 30) -> VideoTrack {
    VideoTrack(
        width: width, height: height, timescale: timescale,
        decoderConfiguration: AVCDecoderConfiguration(sequenceParameterSets: [fakeSPS], pictureParameterSets: [fakePPS])
    )
}

/// Writes one box with a `write(to:)` method and returns its bytes.
func written(_ write: (inout ByteWriter) -> Void) -> [UInt8] {
    var writer = ByteWriter()
    write(&writer)
    return writer.bytes
}

/// A deterministic pseudo-random generator (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A synthetic movie whose sample payloads are identifiable: sample `i` starts with `i` as a
/// big-endian UInt32 and is filled with `UInt8(i & 0xFF)`.
struct SyntheticMovie {
    var samples: [Sample]
    var table: SampleTable
    var layout: MovieLayout
    var file: [UInt8]

    init(
        count: Int = 100, brand: FileBrand = .mp4, timescale: UInt32 = 15360, maximumChunkSize: UInt64 = 1 << 20,
        editList: [EditListEntry]? = nil
    ) throws {
        let offsets: [UInt32] = [1024, 0, 512]
        samples = (0..<count).map { (i: Int) -> Sample in
            let size = UInt32(100 + (i * 37) % 900)
            let duration: UInt32 = i % 7 == 6 ? 1024 : 512
            return Sample(size: size, duration: duration, compositionOffset: offsets[i % 3], isSync: i % 10 == 0)
        }
        table = SampleTable(timescale: timescale, maximumChunkSize: maximumChunkSize)
        for sample in samples { table.append(sample) }
        layout = try MovieLayout(
            brand: brand, track: makeTrack(timescale: timescale), sampleTable: table, editList: editList)
        file = layout.header
        for (i, sample) in samples.enumerated() {
            file += withUnsafeBytes(of: UInt32(i).bigEndian) { Array($0) }
            file += Array(repeating: UInt8(i & 0xFF), count: Int(sample.size) - 4)
        }
    }
}
