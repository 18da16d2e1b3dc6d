/// This build of Flipbook: its version and the C libraries it runs with.
///
/// ```swift
/// print(FlipbookBuild.version)               // 0.1.0
/// for library in FlipbookBuild.linkedLibraries {
///     print(library.name, library.version)   // x265 3.5+1-f0c1022b6 …
/// }
/// ```
public enum FlipbookBuild {
    /// Flipbook's version, as its release tags name it (`0.1.0` is tag `v0.1.0`).
    public static let version = "0.1.0"

    /// The C libraries that encode and decode, with the versions they report: x264, x265,
    /// SVT-AV1, libvpx, FFmpeg and its libavcodec, libavformat and libswresample, libjpeg-turbo,
    /// libspng, libwebp, libtiff, libheif and libdeflate.
    ///
    /// Each version is read from the library loaded in this process where the library has a call
    /// for it; the few that have none (x264, libjpeg-turbo's TurboJPEG API, libdeflate) give the
    /// version of the headers Flipbook was built with, and say so in ``LinkedLibrary/source``.
    public static var linkedLibraries: [LinkedLibrary] { LibraryVersions.all }
}

/// A C library Flipbook calls, and its version.
public struct LinkedLibrary: Sendable, Hashable {
    /// Where a version was read.
    public enum Source: String, Sendable, Hashable {
        /// From the loaded library itself, at run time.
        case runtime
        /// From the headers Flipbook was compiled against (the library has no call that names it).
        case headers
    }

    /// The library's usual name: `x264`, `libavcodec`, `SVT-AV1`.
    public let name: String
    /// The version as the library writes it: `0.164.3095 baee400`, `59.37.100`, `v1.4.1`.
    public let version: String
    /// Where ``version`` was read.
    public let source: Source
}
