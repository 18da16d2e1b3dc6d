import FlipbookTestSupport
import Testing

@testable import Flipbook

/// Every kept input of the image fuzz targets, replayed through the target's own entry point on
/// every `make test` (and under AddressSanitizer in `make test-sanitizers`): a crash found once
/// stays found.
@Suite struct FuzzSeedReplayTests {
    @Test(arguments: ["png", "jpeg", "webp", "gif", "tiff", "heif"])
    func everyKeptImageInputIsDecodedOrRefusedWithoutACrash(kind: String) throws {
        let seeds = try FuzzSeeds.files(kind)
        #expect(seeds.count >= 2, "fuzz/seeds/\(kind) holds its seeds")
        for seed in seeds {
            switch kind {
            case "png": FuzzEntry.pngTarget(seed.bytes)
            case "jpeg": FuzzEntry.jpegTarget(seed.bytes)
            case "gif": FuzzEntry.gifTarget(seed.bytes)
            default: FuzzEntry.decodeImage(seed.bytes)
            }
        }
    }

    /// The OpenEXR fuzz target's kept inputs (tiny files OpenEXR's library wrote: compressions, tiles,
    /// luminance-chroma, parts, layers) and the OpenEXR project's Damaged sample files it starts from,
    /// through OpenEXR's decoder for every part and layer choice, alpha kept and composited.
    @Test func everyKeptOpenEXRInputIsDecodedOrRefusedWithoutACrash() throws {
        let seeds = try FuzzSeeds.files("exr")
        #expect(seeds.count >= 8, "fuzz/seeds/exr holds its seeds")
        let damaged = try FuzzSeeds.files(in: "Tests/OpenEXR/Damaged")
        #expect(damaged.count >= 150, "Tests/OpenEXR/Damaged holds the sample set's damaged files")
        for seed in seeds + damaged { FuzzEntry.exrTarget(seed.bytes) }
    }

    /// The DPX fuzz target's kept inputs (tiny DPX files ffmpeg wrote, a printing-density one, a Cineon
    /// file), through the DPX and Cineon reader in either byte order, alpha kept and composited.
    @Test func everyKeptDPXInputIsDecodedOrRefusedWithoutACrash() throws {
        let seeds = try FuzzSeeds.files("dpx")
        #expect(seeds.count >= 8, "fuzz/seeds/dpx holds its seeds")
        for seed in seeds { FuzzEntry.dpxTarget(seed.bytes) }
    }

    /// The camera raw fuzz target's kept inputs (tiny DNGs pidng wrote, one turned, one cut short),
    /// developed at full and half size and asked for their preview.
    @Test func everyKeptRawInputIsDevelopedOrRefusedWithoutACrash() throws {
        let seeds = try FuzzSeeds.files("raw")
        #expect(seeds.count >= 3, "fuzz/seeds/raw holds its seeds")
        for seed in seeds { FuzzEntry.rawTarget(seed.bytes) }
    }

    /// The image-stream splitter's kept inputs (images back to back, cut short, with garbage between),
    /// replayed through its fuzz entry, which checks its own invariants.
    @Test func everyKeptImageStreamInputIsCutWithoutACrash() throws {
        let seeds = try FuzzSeeds.files("stream")
        #expect(seeds.count >= 2, "fuzz/seeds/stream holds its seeds")
        for seed in seeds { FuzzEntry.imageStreamTarget(seed.bytes) }
    }

    /// The sound fuzz target's kept inputs (WAV, AIFF, FLAC, Vorbis, AC-3 and ALAC, and what a run once
    /// crashed on), replayed through libavformat, libavcodec and libswresample as a soundtrack is read.
    @Test func everyKeptSoundInputIsDecodedOrRefusedWithoutACrash() throws {
        let seeds = try FuzzSeeds.files("sound")
        #expect(seeds.count >= 6, "fuzz/seeds/sound holds its seeds")
        for seed in seeds { FuzzEntry.soundTarget(seed.bytes) }
    }

    /// The colour fuzz target's kept inputs (ICC profiles Little CMS built, one cut short, and code
    /// points with gAMA and cHRM values), applied to frames of every layout in every movie space.
    @Test func everyKeptColourInputIsAppliedOrRefusedWithoutACrash() throws {
        let seeds = try FuzzSeeds.files("colour")
        #expect(seeds.count >= 4, "fuzz/seeds/colour holds its seeds")
        for seed in seeds { FuzzEntry.colourTarget(seed.bytes) }
    }
}
