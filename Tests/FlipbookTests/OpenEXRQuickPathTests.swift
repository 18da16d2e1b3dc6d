import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// The quick way of half RGB renders (decoded as halves into the picture's samples, shown through one
/// table or coded per pixel) and Flipbook's undoing of ZIP chunks, held to the float planes' way and
/// to the format's byte-by-byte definition: the same samples, for the OpenEXR project's sample files,
/// the fuzz seeds (every compression, tiles, parts, layers) and its damaged files.
@Suite struct OpenEXRQuickPathTests {
    /// The movies each file is decoded for: SDR at 8 and 10 bits, exposed, colour management off, over
    /// a grey (the float way), HDR10 and HLG, and outside a movie.
    static func requests(width: Int, height: Int) -> [(String, DecodeRequest)] {
        func movie(_ change: (inout VideoSettings) -> Void) -> DecodeRequest {
            var settings = VideoSettings(width: width, height: height, codec: .hevc)
            settings.bitDepth = 10
            change(&settings)
            return DecodeRequest.frame(of: settings, limits: ImageLimits())
        }
        return [
            ("HEVC 10-bit", movie { _ in }),
            (
                "H.264 8-bit",
                movie {
                    $0.codec = .h264
                    $0.bitDepth = 8
                }
            ),
            ("exposed +1.5", movie { $0.viewTransform = ViewTransform(curve: .standard, exposure: 1.5) }),
            ("colour management off", movie { $0.colourManagement = .off }),
            ("over grey", movie { $0.background = RGBColour(red: 128, green: 128, blue: 128) }),
            ("filmic", movie { $0.viewTransform = ViewTransform(curve: .filmic) }),
            ("PQ", movie { $0.colourStandard = .pq }),
            (
                "HLG exposed -1",
                movie {
                    $0.colourStandard = .hlg
                    $0.viewTransform.exposure = -1
                }
            ),
            ("outside a movie", DecodeRequest()),
        ]
    }

    static func samples(_ image: DecodedImage) -> ([UInt16], SourceColour) {
        switch image {
        case .deep(let deep): return (deep.samples, deep.sourceColour)
        case .frame(let frame): return (frame.pixels.map(UInt16.init), frame.sourceColour)
        case .planes(let planes): return ((planes.luma + planes.cb + planes.cr).map(UInt16.init), planes.sourceColour)
        }
    }

    @Test func quickPicturesAreTheFloatPlanesPictures() throws {
        var files = try FuzzSeeds.files("exr")
        for folder in ["Tests/OpenEXR/Beachball", "Tests/OpenEXR/Chromaticities", "Tests/OpenEXR/Blender"] {
            files += try FuzzSeeds.files(in: folder).filter { $0.name.hasSuffix(".exr") }
        }
        var quick = Set<String>()
        var compared = 0
        for file in files {
            let data = Data(file.bytes)
            // A seed kept because it is refused (a regression) has no picture to compare.
            guard let size = try? OpenEXRDecoder.decodeImage(data, request: DecodeRequest(), quick: false) else {
                #expect(file.name.hasPrefix("regression-"), "\(file.name) is decoded")
                continue
            }
            compared += 1
            // The large sample picture (2048 x 1556) for two movies only: time, not cover, grows with it.
            let requests = Self.requests(width: size.width, height: size.height).filter { label, _ in
                size.width * size.height < 1_000_000 || ["H.264 8-bit", "PQ"].contains(label)
            }
            for (label, request) in requests {
                let float = try OpenEXRDecoder.decodeImage(data, request: request, quick: false)
                let fast = try OpenEXRDecoder.decodeImage(data, request: request)
                let (expected, expectedColour) = Self.samples(float)
                let (found, foundColour) = Self.samples(fast)
                #expect(found == expected, "\(file.name), \(label): the quick way's samples differ")
                #expect(foundColour == expectedColour, "\(file.name), \(label): \(foundColour) != \(expectedColour)")
                if try OpenEXRDecoder.goesQuickly(data, request: request) { quick.insert("\(file.name), \(label)") }
            }
        }
        #expect(compared >= 15)
        // The quick way is taken where it should be, and only there.
        for taken in [
            "rgba-zip.exr, HEVC 10-bit", "tiled-zips.exr, PQ", "multipart.0001.exr, H.264 8-bit",
            "Rec709.exr, exposed +1.5", "multilayer.0001.exr, HLG exposed -1", "Rec709.exr, outside a movie",
        ] {
            #expect(quick.contains(taken), "\(taken) goes the quick way")
        }
        for float in [
            "rgba-zip.exr, over grey", "rgba-zip.exr, filmic", "luminance-chroma.exr, HEVC 10-bit",
            "rgba-dwaa.exr, HEVC 10-bit", "XYZ.exr, HEVC 10-bit", "rgba-piz.exr, outside a movie",
        ] {
            #expect(!quick.contains(float), "\(float) goes the float way")
        }
    }
}
