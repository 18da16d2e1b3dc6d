import FlipbookTestSupport
import Foundation
import Testing

/// The walls between targets, checked by `scripts/check-boundaries.sh` (which `make test` runs):
/// it passes on the tree as it is and fails on a planted C import, a planted public declaration, and
/// the tool reaching past the library's public API.
@Suite struct BoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var script: String { root.appendingPathComponent("scripts/check-boundaries.sh").path }

    @Test func theSourcesKeepTheirWalls() throws {
        let result = try ExternalTool.run("bash", [Self.script, Self.root.appendingPathComponent("Sources").path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(arguments: [
        ("Flipbook/Conform/FitPolicy.swift", "internal import CSPNG", "CSPNG is imported outside"),
        ("Flipbook/Write/MovieWriter.swift", "import CFlipbookPixels", "CFlipbookPixels is imported outside"),
        ("ISOBMFF/FourCC.swift", "public struct Planted {}", "ISOBMFF declares something public"),
        ("flipbook/main.swift", "MemoryTuning.keepLargeBuffersInTheHeap()", "not the library's public API"),
        ("flipbook/Reporting.swift", "let planted = YUVPicture.self", "not the library's public API"),
        ("flipbook/Terminal.swift", "import ISOBMFF", "the tool imports a module"),
    ])
    func aPlantedBreachFailsTheCheck(file: String, line: String, complaint: String) throws {
        let dir = try TemporaryDirectory()
        let copy = dir.url.appendingPathComponent("Sources")
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Sources"), to: copy)
        let target = copy.appendingPathComponent(file)
        let original = try String(contentsOf: target, encoding: .utf8)
        try (original + "\n" + line + "\n").write(to: target, atomically: true, encoding: .utf8)
        let result = try ExternalTool.run("bash", [Self.script, copy.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains(complaint), "\(result.stderr)")
        #expect(result.stderr.contains(file), "the breach is named by its file")
    }
}
