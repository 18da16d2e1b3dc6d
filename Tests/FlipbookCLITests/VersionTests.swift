import FlipbookTestSupport
import Foundation
import Testing

/// `flipbook --version` names each library's version as the system states it: pkg-config's
/// `--modversion` of the -dev package and dpkg's version of the run-time package are the judges.
@Suite struct VersionTests {
    /// How a library's version is judged: the pkg-config module whose `--modversion` it must start
    /// with (after a leading `v`), and the Debian run-time package whose version must contain it.
    struct Judge: Sendable, CustomStringConvertible {
        var name: String
        var pkgConfig: String?
        var debianPackage: String?
        var description: String { name }
    }

    static let judges: [Judge] = [
        Judge(name: "x264", pkgConfig: "x264", debianPackage: "libx264-164"),
        Judge(name: "x265", pkgConfig: "x265", debianPackage: "libx265-199"),
        Judge(name: "SVT-AV1", pkgConfig: "SvtAv1Enc", debianPackage: "libsvtav1enc1"),
        Judge(name: "libvpx", pkgConfig: "vpx", debianPackage: "libvpx7"),
        Judge(name: "libaom", pkgConfig: "aom", debianPackage: "libaom3"),
        Judge(name: "FFmpeg", pkgConfig: nil, debianPackage: "libavcodec59"),
        Judge(name: "libavcodec", pkgConfig: "libavcodec", debianPackage: nil),
        Judge(name: "libavformat", pkgConfig: "libavformat", debianPackage: nil),
        Judge(name: "libswresample", pkgConfig: "libswresample", debianPackage: nil),
        Judge(name: "libjpeg-turbo", pkgConfig: "libturbojpeg", debianPackage: "libturbojpeg0"),
        Judge(name: "libspng", pkgConfig: "spng", debianPackage: "libspng0"),
        Judge(name: "libwebp", pkgConfig: "libwebp", debianPackage: "libwebp7"),
        Judge(name: "libtiff", pkgConfig: "libtiff-4", debianPackage: "libtiff6"),
        Judge(name: "libheif", pkgConfig: "libheif", debianPackage: "libheif1"),
        Judge(name: "OpenEXR", pkgConfig: "OpenEXR", debianPackage: "libopenexr-3-1-30"),
        Judge(name: "OpenColorIO", pkgConfig: "OpenColorIO", debianPackage: "libopencolorio2.1"),
        Judge(name: "libdeflate", pkgConfig: "libdeflate", debianPackage: "libdeflate0"),
        Judge(name: "giflib", pkgConfig: nil, debianPackage: "libgif7"),
        Judge(name: "lcms2", pkgConfig: "lcms2", debianPackage: "liblcms2-2"),
        Judge(name: "libimagequant", pkgConfig: "imagequant", debianPackage: "libimagequant0"),
        Judge(name: "LibRaw", pkgConfig: "libraw_r", debianPackage: "libraw20"),
        // FreeType's pkg-config version is libtool's (25.0.19), not the release's.
        Judge(name: "FreeType", pkgConfig: nil, debianPackage: "libfreetype6"),
        Judge(name: "HarfBuzz", pkgConfig: "harfbuzz", debianPackage: "libharfbuzz0b"),
    ]

    /// The libraries `--version --json` lists, by name: version and source.
    static func reported() throws -> [String: (version: String, source: String)] {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["--version", "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let libraries = try #require(object["libraries"] as? [[String: String]], "\(result.stdout)")
        var byName: [String: (version: String, source: String)] = [:]
        for library in libraries {
            byName[library["name"] ?? ""] = (library["version"] ?? "", library["source"] ?? "")
        }
        return byName
    }

    @Test func everyListedLibraryHasAJudgeAndEveryJudgedOneIsListed() throws {
        let names = Set(try Self.reported().keys)
        #expect(names == Set(Self.judges.map(\.name)))
    }

    @Test(arguments: judges)
    func aLibrarysVersionIsTheOneTheSystemStates(judge: Judge) throws {
        let reported = try #require(try Self.reported()[judge.name], "\(judge.name) is not listed")
        let version = reported.version.hasPrefix("v") ? String(reported.version.dropFirst()) : reported.version
        #expect(["runtime", "headers"].contains(reported.source))
        if let module = judge.pkgConfig {
            let stated = try ExternalTool.run("pkg-config", ["--modversion", module])
            try #require(stated.status == 0, "pkg-config knows no \(module): \(stated.stderr)")
            let modversion = stated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(
                version == modversion || version.hasPrefix(modversion + "+") || version.hasPrefix(modversion + " "),
                "\(judge.name): flipbook says \(reported.version), pkg-config \(modversion)")
        }
        if let package = judge.debianPackage {
            let stated = try ExternalTool.run("dpkg-query", ["-W", "-f", "${Version}", package])
            try #require(stated.status == 0, "dpkg knows no \(package): \(stated.stderr)")
            // Debian writes x264's "0.164.3095 baee400" as 0.164.3095+gitbaee400 and x265's "3.5+1-f0c1022b6" as 3.5.
            let core = version.split(separator: " ").first.map(String.init) ?? version
            let base = core.split(separator: "+").first.map(String.init) ?? core
            #expect(
                stated.stdout.contains(base), "\(judge.name): flipbook says \(reported.version), dpkg \(stated.stdout)")
            if judge.name == "FFmpeg" {
                #expect(stated.stdout.hasSuffix(":" + version), "FFmpeg \(version), dpkg \(stated.stdout)")
            }
            if let commit = version.split(separator: " ").dropFirst().first {
                #expect(stated.stdout.contains(commit), "\(judge.name): \(reported.version), dpkg \(stated.stdout)")
            }
        }
    }

    @Test func thePlainVersionListsTheSameLibrariesAfterFlipbooksOwn() throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["--version"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("flipbook ") == true, "\(result.stdout)")
        let reported = try Self.reported()
        for (name, library) in reported {
            #expect(
                lines.contains {
                    $0.split(separator: " ", maxSplits: 1).first.map(String.init) == name
                        && $0.contains(library.version)
                }, "\(name) \(library.version) in \(result.stdout)")
        }
        #expect(lines.count == reported.count + 1, "\(result.stdout)")
    }

    /// The release scheme of CHANGELOG.md: its newest heading names the version the tool reports.
    @Test func theChangelogsNewestHeadingIsTheVersionTheToolReports() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") }, "no version heading")
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["--version"])
        let version = try #require(result.stdout.split(separator: "\n").first?.split(separator: " ").last)
        #expect(heading.split(separator: " ")[1] == version, "CHANGELOG.md: \(heading); flipbook --version: \(version)")
    }

    /// The library each module map's `link` names is reported under.
    static let reportedAs = [
        "x264": "x264", "x265": "x265", "SvtAv1Enc": "SVT-AV1", "vpx": "libvpx", "aom": "libaom", "avutil": "FFmpeg",
        "avcodec": "libavcodec", "avformat": "libavformat", "swresample": "libswresample", "turbojpeg": "libjpeg-turbo",
        "spng": "libspng", "webp": "libwebp", "tiff": "libtiff", "heif": "libheif", "deflate": "libdeflate",
        "gif": "giflib", "lcms2": "lcms2", "imagequant": "libimagequant", "webpmux": "libwebp",
        "webpdemux": "libwebp",
        "OpenEXRCore-3_1": "OpenEXR", "raw_r": "LibRaw", "freetype": "FreeType", "harfbuzz": "HarfBuzz",
    ]

    /// A C library linked later must be reported too: every `link` of a system-library target's module map
    /// is one of the libraries `--version` lists.
    @Test func everyLinkedLibraryIsReported() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let reported = Set(try Self.reported().keys)
        var links: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) where module.hasPrefix("C") {
            let map = sources.appendingPathComponent(module).appendingPathComponent("module.modulemap")
            guard let text = try? String(contentsOf: map, encoding: .utf8) else { continue }
            links += text.split(separator: "\n").compactMap { line in
                let words = line.split(separator: "\"")
                return line.trimmingCharacters(in: .whitespaces).hasPrefix("link ") && words.count > 1
                    ? String(words[1]) : nil
            }
        }
        #expect(links.count >= Self.reportedAs.count, "\(links)")
        let advice = "add it to Sources/Flipbook/Interop/LibraryVersions.swift, with its judge and link name here"
        for link in links {
            let name = Self.reportedAs[link]
            #expect(
                name.map(reported.contains) == true, "lib\(link) is linked but --version does not report it: \(advice)")
        }
    }
}
