// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Flipbook",
    products: [
        .library(name: "Flipbook", targets: ["Flipbook"]),
        .executable(name: "flipbook", targets: ["flipbook"]),
    ],
    targets: [
        // C libraries from Debian, one system-library target each.
        .systemLibrary(
            name: "CX264",
            providers: [.apt(["libx264-dev"])]),
        .systemLibrary(
            name: "CX265",
            pkgConfig: "x265",
            providers: [.apt(["libx265-dev"])]),
        // No pkgConfig: SvtAv1Enc.pc adds -DEB_DLL, which SwiftPM drops with a "prohibited flag" warning
        // (it only matters on Windows); the headers are under /usr/include/svt-av1.
        .systemLibrary(
            name: "CSVTAV1",
            providers: [.apt(["libsvtav1enc-dev"])]),
        // libaom, AV1's reference encoder (`--encoder libaom`).
        .systemLibrary(
            name: "CAOM",
            pkgConfig: "aom",
            providers: [.apt(["libaom-dev"])]),
        .systemLibrary(
            name: "CVPX",
            pkgConfig: "vpx",
            providers: [.apt(["libvpx-dev"])]),
        .systemLibrary(
            name: "CSPNG",
            pkgConfig: "spng",
            providers: [.apt(["libspng-dev"])]),
        .systemLibrary(
            name: "CDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]),
        // giflib has no pkg-config file; its header is /usr/include/gif_lib.h.
        .systemLibrary(
            name: "CGIF",
            providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CWebPDemux",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]),
        // The animation encoder of animated WebP output; a module of its own beside CWebP's decoder.
        .systemLibrary(
            name: "CWebPMux",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"])]),
        // Palettes for GIF output (GPL-3.0-or-later: a binary that links it is distributed under GPLv3).
        .systemLibrary(
            name: "CImageQuant",
            pkgConfig: "imagequant",
            providers: [.apt(["libimagequant-dev"])]),
        .systemLibrary(
            name: "CTIFF",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"])]),
        // OpenColorIO 2.1 (C++ only) behind a small C interface of Flipbook's, compiled here.
        .target(
            name: "COpenColorIO",
            path: "Sources/COpenColorIO",
            linkerSettings: [.linkedLibrary("OpenColorIO")]),
        // OpenEXR's C++ library (Imf) behind a small C interface of Flipbook's, for DWAA and DWAB, which
        // OpenEXRCore 3.1 does not decode.
        .target(
            name: "COpenEXRImf",
            path: "Sources/COpenEXRImf",
            cxxSettings: [.unsafeFlags(["-I/usr/include/OpenEXR", "-I/usr/include/Imath"])],
            linkerSettings: [
                .linkedLibrary("OpenEXR-3_1"), .linkedLibrary("Iex-3_1"), .linkedLibrary("IlmThread-3_1"),
                .linkedLibrary("Imath-3_1"),
            ]),
        // OpenEXR's C API (OpenEXRCore) alone, without its C++ libraries: the module map links it by name.
        .systemLibrary(
            name: "COpenEXR",
            providers: [.apt(["libopenexr-dev"])]),
        .systemLibrary(
            name: "CHEIF",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]),
        .systemLibrary(
            name: "CAVCodec",
            pkgConfig: "libavcodec",
            providers: [.apt(["libavcodec-dev", "libavformat-dev", "libswresample-dev"])]),
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),

        // Camera raw files (CR2, CR3, NEF, ARW, RAF, ORF, RW2, DNG): LibRaw 0.20's reentrant build, by its module map.
        .systemLibrary(
            name: "CLibRaw",
            providers: [.apt(["libraw-dev"])]),
        // Burn-in and slate text: FreeType renders the glyphs, HarfBuzz shapes the lines (one module, see its shim).
        .systemLibrary(
            name: "CFreeTypeHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev", "libfreetype-dev"])]),

        // glibc's allocator settings (<malloc.h>), which the Glibc module leaves out.
        .systemLibrary(name: "CLinux"),

        // Flipbook's own per-pixel loops in C, vectorised by the compiler (AVX2 chosen at run time).
        .target(name: "CFlipbookPixels"),

        // The codec-neutral media model: tracks, samples, codec descriptions, tags, and the muxing-session
        // protocol with its write actions, which every container implements. Pure Swift.
        .target(name: "MediaModel"),

        // The MP4 writer and reader: pure Swift, no C module.
        .target(name: "ISOBMFF", dependencies: ["MediaModel"]),

        // The Matroska and WebM writer and reader (EBML): pure Swift, on the media model alone.
        .target(name: "Matroska", dependencies: ["MediaModel"]),

        // The public library.
        .target(
            name: "Flipbook",
            dependencies: [
                "MediaModel", "ISOBMFF", "Matroska", "CX264", "CX265", "CSVTAV1", "CSPNG", "CTurboJPEG", "CWebP",
                "CTIFF", "CHEIF", "COpenEXR", "COpenEXRImf", "COpenColorIO",
                "CDeflate", "CLinux", "CAVCodec", "CVPX", "CAOM", "CLCMS2", "CGIF", "CWebPDemux", "CWebPMux",
                "CImageQuant", "CFreeTypeHarfBuzz", "CLibRaw",
                "CFlipbookPixels",
            ]),

        // The command-line tool.
        .executableTarget(
            name: "flipbook",
            dependencies: ["Flipbook"]),

        // The AVAssetWriter recipe of docs/from-avassetwriter.md written with Flipbook; run by make example and
        // judged by ExampleTests. Not a product.
        .executableTarget(name: "FlipbookExample", dependencies: ["Flipbook"]),

        // Helpers the test targets share: temporary folders, sample images, ffprobe/ffmpeg as judges.
        .target(
            name: "FlipbookTestSupport",
            dependencies: ["MediaModel", "ISOBMFF", "CTurboJPEG", "CDeflate"],
            path: "Tests/FlipbookTestSupport"),

        // Stage timings for bench/compare.sh; not a product.
        .executableTarget(
            name: "FlipbookBench",
            dependencies: ["Flipbook"]),

        // libFuzzer targets, built by `make fuzz` with -DFUZZING (stubs otherwise); not products.
        .executableTarget(name: "FuzzPNG", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzPNG"),
        .executableTarget(name: "FuzzJPEG", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzJPEG"),
        .executableTarget(name: "FuzzWebP", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzWebP"),
        .executableTarget(name: "FuzzGIF", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzGIF"),
        .executableTarget(name: "FuzzTIFF", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzTIFF"),
        .executableTarget(name: "FuzzHEIF", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzHEIF"),
        .executableTarget(name: "FuzzEXR", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzEXR"),
        .executableTarget(name: "FuzzDPX", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzDPX"),
        .executableTarget(name: "FuzzRaw", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzRaw"),
        .executableTarget(
            name: "FuzzImageStream", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzImageStream"),
        .executableTarget(name: "FuzzMP4", dependencies: ["MediaModel", "ISOBMFF"], path: "fuzz/targets/FuzzMP4"),
        .executableTarget(name: "FuzzMatroska", dependencies: ["Matroska"], path: "fuzz/targets/FuzzMatroska"),
        .executableTarget(name: "FuzzSound", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzSound"),
        .executableTarget(name: "FuzzColour", dependencies: ["Flipbook"], path: "fuzz/targets/FuzzColour"),

        .testTarget(name: "ISOBMFFTests", dependencies: ["MediaModel", "ISOBMFF", "FlipbookTestSupport"]),
        .testTarget(name: "MatroskaTests", dependencies: ["MediaModel", "Matroska", "ISOBMFF", "FlipbookTestSupport"]),
        .testTarget(name: "FlipbookTests", dependencies: ["Flipbook", "MediaModel", "ISOBMFF", "FlipbookTestSupport"]),
        .testTarget(
            name: "FlipbookCLITests",
            dependencies: ["flipbook", "FlipbookExample", "MediaModel", "ISOBMFF", "FlipbookTestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
