import FlipbookTestSupport
import Foundation
import Testing

/// Camera raw files developed through LibRaw, judged against LibRaw's own `dcraw_emu` developing the same
/// file at the same settings (numpy compares them at 8 bits after the sRGB curve; the movies are lossless
/// FFV1, so what differs is Flipbook's): the camera's white balance, daylight's and the picture's own,
/// half size for a movie at most half the sensor, the orientation the camera recorded, 10-bit movies;
/// and a damaged file named.
@Suite struct CameraRawInputTests {
    static func flipbook(_ arguments: [String]) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.flipbookPath, arguments + ["-q"])
    }

    @Test(arguments: [
        ("camera", ["-w"]), ("daylight", [String]()), ("auto", ["-a"]),
    ])
    func aDNGIsDevelopedAsDcrawEmuDevelopsIt(whiteBalance: String, dcrawOptions: [String]) throws {
        let dir = try TemporaryDirectory()
        let dng = dir.path("ramp.dng")
        try CameraRawFiles.makeDNG(dng)
        let movie = dir.path("ramp.mkv")
        let result = try Self.flipbook([dng, "-o", movie, "--codec", "ffv1", "--white-balance", whiteBalance])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = try CameraRawFiles.dcrawEmu(dng, dcrawOptions + ["-4", "-o", "1"])
        let difference = try CameraRawFiles.difference(of: movie, from: reference)
        #expect(difference.meanAbsolute < 0.5, "\(whiteBalance): \(difference)")
        #expect(difference.mean.allSatisfy { abs($0) < 0.5 }, "\(whiteBalance): \(difference)")
    }

    /// A colour temperature balances through the camera's matrix (a DNG's ColorMatrix1): 6500 K gives
    /// daylight's colour (D65, a little off the black bodies' line), and a 3200 K light (tungsten) makes
    /// white of redder light, so the same photo comes out bluer.
    @Test func aColourTemperatureIsBalancedThroughTheCamerasMatrix() throws {
        let dir = try TemporaryDirectory()
        let dng = dir.path("ramp.dng")
        try CameraRawFiles.makeDNG(dng)
        var means: [String: (red: Double, blue: Double)] = [:]
        for balance in ["daylight", "6500", "3200K"] {
            let movie = dir.path("\(balance).mkv")
            let result = try Self.flipbook([dng, "-o", movie, "--codec", "ffv1", "--white-balance", balance])
            #expect(result.status == 0, "\(result.stderr)")
            let decoded = try Judge.decodedRGB(of: movie)
            let pixels = decoded.frames[0]
            let count = Double(pixels.count / 3)
            let red = stride(from: 0, to: pixels.count, by: 3).reduce(0.0) { $0 + Double(pixels[$1]) } / count
            let blue = stride(from: 2, to: pixels.count, by: 3).reduce(0.0) { $0 + Double(pixels[$1]) } / count
            means[balance] = (red, blue)
        }
        let daylight = try #require(means["daylight"])
        let k6500 = try #require(means["6500"])
        let tungsten = try #require(means["3200K"])
        // The same colour (red to blue within 2%); LibRaw's daylight multipliers are scaled to their least.
        #expect(abs(daylight.red / daylight.blue / (k6500.red / k6500.blue) - 1) < 0.02, "\(means)")
        #expect(tungsten.blue - tungsten.red > k6500.blue - k6500.red + 20, "\(means)")
    }

    @Test func aMovieAtMostHalfTheSensorIsDevelopedAtHalfSize() throws {
        let dir = try TemporaryDirectory()
        let dng = dir.path("ramp.dng")
        try CameraRawFiles.makeDNG(dng)
        let movie = dir.path("half.mkv")
        let result = try Self.flipbook([dng, "-o", movie, "--codec", "ffv1", "--size", "48x32"])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = try CameraRawFiles.dcrawEmu(dng, ["-w", "-4", "-o", "1", "-h"])
        let difference = try CameraRawFiles.difference(of: movie, from: reference)
        #expect(difference.meanAbsolute < 0.5, "\(difference)")
    }

    @Test func theCamerasOrientationIsAppliedAndTenBitMoviesAreMade() throws {
        let dir = try TemporaryDirectory()
        let dng = dir.path("turned.dng")
        try CameraRawFiles.makeDNG(dng, orientation: 6)
        let movie = dir.path("turned.mkv")
        let result = try Self.flipbook([dng, "-o", movie, "--codec", "ffv1"])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = try Judge.stream(of: movie)
        #expect(stream.width == 64 && stream.height == 96, "\(stream)")
        let reference = try CameraRawFiles.dcrawEmu(dng, ["-w", "-4", "-o", "1"])
        #expect(try CameraRawFiles.difference(of: movie, from: reference).meanAbsolute < 0.5)
        let deep = dir.path("deep.mp4")
        let tenBit = try Self.flipbook([dng, "-o", deep, "--codec", "hevc", "--bit-depth", "10"])
        #expect(tenBit.status == 0, "\(tenBit.stderr)")
        #expect(try Judge.stream(of: deep).pixelFormat == "yuv420p10le")
    }

    /// The real cameras' files of `Tests/CameraRaw`.
    static func realFile(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CameraRaw/\(name)").path
    }

    /// A Canon EOS D30's CRW at half size (the movie half the sensor), a Kodak DC50's KDC and a Nikon D500's
    /// linear DNG whole, each as dcraw_emu develops it with the camera's white balance.
    @Test(arguments: [
        ("canon-eos-d30.crw", ["--size", "1088x724"], ["-h"]), ("kodak-dc50.kdc", [], []),
        ("nikon-d500-linear.dng", [], []),
    ])
    func realCamerasFilesAreDevelopedAsDcrawEmuDevelopsThem(name: String, options: [String], dcraw: [String]) throws {
        let dir = try TemporaryDirectory()
        let file = dir.path(name)
        try FileManager.default.copyItem(atPath: Self.realFile(name), toPath: file)
        let movie = dir.path("developed.mkv")
        let result = try Self.flipbook([file, "-o", movie, "--codec", "ffv1"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        let reference = try CameraRawFiles.dcrawEmu(file, ["-w", "-4", "-o", "1"] + dcraw)
        let difference = try CameraRawFiles.difference(of: movie, from: reference)
        #expect(difference.meanAbsolute < 2 && difference.mean.allSatisfy { abs($0) < 2 }, "\(name): \(difference)")
    }

    /// `--raw-preview` makes the movie from the camera's own JPEG, as LibRaw's simple_dcraw extracts it.
    @Test func thePreviewIsTheCamerasOwnJPEG() throws {
        let dir = try TemporaryDirectory()
        let file = dir.path("d30.crw")
        try FileManager.default.copyItem(atPath: Self.realFile("canon-eos-d30.crw"), toPath: file)
        let movie = dir.path("preview.mp4")
        let result = try Self.flipbook([file, "-o", movie, "--raw-preview", "--crf", "12"])
        #expect(result.status == 0, "\(result.stderr)")
        let extracted = try ExternalTool.run("simple_dcraw", ["-e", file])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let stream = try Judge.stream(of: movie)
        #expect(stream.width == 1440 && stream.height == 960, "\(stream)")
        let psnr = try Judge.psnr(of: movie, againstImages: file + ".thumb.jpg")
        #expect(psnr > 38, "PSNR \(psnr) dB against the extracted preview")
    }

    /// A body newer than LibRaw 0.20 (a Sony ZV-E10's ARW, as a public test set keeps its first 100 KB) is
    /// named with the advice to convert to DNG.
    @Test func aCameraLibRawDoesNotKnowIsNamedWithTheAdviceToConvertToDNG() throws {
        let dir = try TemporaryDirectory()
        let movie = dir.path("out.mp4")
        let result = try Self.flipbook([Self.realFile("sony-zv-e10-cut.arw"), "-o", movie])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("sony-zv-e10-cut.arw): the Sony ZV-E10 is not a camera LibRaw 0.20 knows")
                && result.stderr.contains("convert them to DNG"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
    }

    /// `--timing exif` times raw files by their capture times as it times JPEGs: DNGs stamped by ExifTool
    /// 2.5 s and 5 s apart, sped up 10 times, last 0.25 s and 0.5 s (the last as long as the one before).
    @Test func rawFilesAreTimedByTheirCaptureTimes() throws {
        let dir = try TemporaryDirectory()
        let folder = try dir.folder("card")
        let times = [("10:00:00", "00"), ("10:00:02", "50"), ("10:00:07", "50")]
        try CameraRawFiles.makeDNGs(
            times.indices.map { CameraRawFiles.DNG(path: "\(folder)/IMG_\(1000 + $0).dng", seed: $0) })
        for (index, (time, fraction)) in times.enumerated() {
            let stamped = try ExternalTool.run(
                "exiftool",
                [
                    "-q", "-overwrite_original", "-DateTimeOriginal=2026:12:07 \(time)",
                    "-SubSecTimeOriginal=\(fraction)",
                    "\(folder)/IMG_\(1000 + index).dng",
                ])
            #expect(stamped.status == 0, "\(stamped.stderr)")
        }
        let movie = dir.path("lapse.mp4")
        let result = try Self.flipbook([folder, "-o", movie, "--timing", "exif", "--speedup", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        let shown = try TimingListTests.shownTimes(of: movie)
        #expect(shown.lengths.map { Double($0) / Double(shown.ticks) } == [0.25, 0.5, 0.5], "\(shown)")
    }

    @Test func aTruncatedOrForeignRawFileIsNamedAndNothingIsWritten() throws {
        let dir = try TemporaryDirectory()
        let dng = dir.path("whole.dng")
        try CameraRawFiles.makeDNG(dng)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dng))
        let cut = dir.path("cut.dng")
        try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: cut))
        let movie = dir.path("out.mp4")
        let result = try Self.flipbook([cut, "-o", movie])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cut.dng): the camera raw file is damaged or truncated"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
        let bad = try Self.flipbook([dng, "-o", movie, "--white-balance", "900"])
        #expect(bad.status == 2 && bad.stderr.contains("--white-balance 900 is not a white balance"), "\(bad.stderr)")
    }
}
