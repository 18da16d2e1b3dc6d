import Foundation

/// The fuzz targets' kept inputs under `fuzz/seeds/KIND/`: the seeds each run starts from and every
/// input a run once crashed on (`regression-*`), which the tests replay through the same entry point.
public enum FuzzSeeds {
    /// Every file of `fuzz/seeds/kind`, by name, sorted.
    public static func files(_ kind: String) throws -> [(name: String, bytes: [UInt8])] {
        try files(in: "fuzz/seeds/\(kind)")
    }

    /// Every file of `folder` (a path from the package's root), by name, sorted.
    public static func files(in folder: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../\(folder)").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { name in
            (name, Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }
}
