internal import CAOM
internal import CAVCodec
internal import CDeflate
internal import CFreeTypeHarfBuzz
internal import CGIF
internal import CHEIF
internal import CImageQuant
internal import CLCMS2
internal import CLibRaw
internal import COpenEXR
internal import CSPNG
internal import CSVTAV1
internal import CTIFF
internal import CTurboJPEG
internal import CVPX
internal import CWebP
internal import CX264
internal import CX265
import Foundation

/// The version each C library reports, asked of the loaded library where it has a call for it, or
/// taken from the headers Flipbook was built against where it has none (x264's build number is
/// part of the symbol Flipbook links, so a library of another build does not load at all).
enum LibraryVersions {
    /// Every library, in the order `flipbook --version` lists them: encoders, FFmpeg, image decoders.
    static var all: [LinkedLibrary] {
        [
            LinkedLibrary(name: "x264", version: X264_POINTVER, source: .headers),
            LinkedLibrary(name: "x265", version: x265Version, source: .runtime),
            LinkedLibrary(name: "SVT-AV1", version: string(svt_av1_get_version()), source: .runtime),
            LinkedLibrary(name: "libvpx", version: string(vpx_codec_version_str()), source: .runtime),
            LinkedLibrary(name: "libaom", version: string(aom_codec_version_str()), source: .runtime),
            LinkedLibrary(name: "FFmpeg", version: string(av_version_info()), source: .runtime),
            LinkedLibrary(name: "libavcodec", version: dotted(avcodec_version()), source: .runtime),
            LinkedLibrary(name: "libavformat", version: dotted(avformat_version()), source: .runtime),
            LinkedLibrary(name: "libswresample", version: dotted(swresample_version()), source: .runtime),
            LinkedLibrary(name: "libjpeg-turbo", version: turboJPEGVersion, source: .headers),
            LinkedLibrary(name: "libspng", version: string(spng_version_string()), source: .runtime),
            LinkedLibrary(name: "libwebp", version: dotted(UInt32(WebPGetDecoderVersion())), source: .runtime),
            LinkedLibrary(name: "libtiff", version: tiffVersion, source: .runtime),
            LinkedLibrary(name: "libheif", version: string(heif_get_version()), source: .runtime),
            LinkedLibrary(name: "OpenEXR", version: openEXRVersion, source: .runtime),
            LinkedLibrary(name: "OpenColorIO", version: OpenColorIOConfig.version, source: .runtime),
            LinkedLibrary(name: "libdeflate", version: LIBDEFLATE_VERSION_STRING, source: .headers),
            LinkedLibrary(
                name: "giflib", version: "\(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)", source: .headers),
            LinkedLibrary(name: "lcms2", version: lcmsVersion, source: .runtime),
            LinkedLibrary(name: "libimagequant", version: LIQ_VERSION_STRING, source: .headers),
            LinkedLibrary(name: "LibRaw", version: libRawVersion, source: .runtime),
            LinkedLibrary(
                name: "FreeType", version: "\(FREETYPE_MAJOR).\(FREETYPE_MINOR).\(FREETYPE_PATCH)", source: .headers),
            LinkedLibrary(name: "HarfBuzz", version: string(hb_version_string()), source: .runtime),
        ]
    }

    /// x265's version string from the 8-bit API table (the library holds every bit depth, one version).
    private static var x265Version: String {
        guard let api = flipbook_x265_api_get(8) else { return "unknown" }
        return string(api.pointee.version_str)
    }

    /// OpenEXRCore's major, minor and patch numbers (and its extra tag, when it has one).
    private static var openEXRVersion: String {
        var (major, minor, patch): (Int32, Int32, Int32) = (0, 0, 0)
        var extra: UnsafePointer<CChar>?
        exr_get_library_version(&major, &minor, &patch, &extra)
        let tag = extra.map { String(cString: $0) } ?? ""
        return "\(major).\(minor).\(patch)" + (tag.isEmpty ? "" : "-\(tag)")
    }

    /// libtiff's banner is "LIBTIFF, Version 4.5.0" and a copyright notice: the number alone.
    private static var tiffVersion: String {
        let banner = string(TIFFGetVersion())
        let firstLine = banner.split(separator: "\n").first.map(String.init) ?? banner
        guard let range = firstLine.range(of: "Version ") else { return firstLine }
        return String(firstLine[range.upperBound...]).trimmingCharacters(in: .whitespaces)
    }

    /// LibRaw's version number is major, minor and patch a byte each (its string adds "-Release").
    private static var libRawVersion: String {
        let number = Int(libraw_versionNumber())
        return "\(number >> 16).\(number >> 8 & 0xFF).\(number & 0xFF)"
    }

    /// Little CMS states its version as a number, 2140 for 2.14.
    private static var lcmsVersion: String {
        let number = Int(cmsGetEncodedCMMversion())
        return "\(number / 1000).\(number / 10 % 100)"
    }

    /// LIBJPEG_TURBO_VERSION_NUMBER is MMMmmmppp: 2001005 is 2.1.5.
    private static var turboJPEGVersion: String {
        let number = Int(LIBJPEG_TURBO_VERSION_NUMBER)
        return "\(number / 1_000_000).\(number / 1000 % 1000).\(number % 1000)"
    }

    /// FFmpeg's and libwebp's packed versions: major in bits 16 and up, minor in 8-15, micro in 0-7.
    private static func dotted(_ packed: UInt32) -> String {
        "\(packed >> 16).\((packed >> 8) & 0xFF).\(packed & 0xFF)"
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? "unknown"
    }
}
