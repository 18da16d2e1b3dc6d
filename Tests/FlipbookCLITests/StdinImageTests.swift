import FlipbookTestSupport
import Foundation
import Testing

/// Whole image files back to back on standard input (`cat *.png | flipbook - --stdin images`), judged
/// as a folder of the same files is: the same movie byte for byte, every frame at its time by ffprobe,
/// PSNR against the pictures; and every failure one line naming the frame, nothing at the output.
@Suite struct StdinImageTests {
    /// The files' bytes one after another, as `cat` sends them.
    static func concatenated(_ paths: [String]) throws -> Data {
        try paths.reduce(into: Data()) { $0 += try Data(contentsOf: URL(fileURLWithPath: $1)) }
    }

    /// Runs the tool with `arguments` and `stdin` on its standard input.
    static func flipbook(_ arguments: [String], stdin: Data) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.flipbookPath, arguments, stdin: stdin)
    }

    /// Every frame's presentation time as ffprobe prints it.
    static func times(of movie: String) throws -> [String] {
        try Judge.frames(of: movie).map(\.ptsTime)
    }

    /// The movie from `files` piped in equals the movie from the folder they are in, byte for byte, and
    /// ffprobe finds `count` frames at `i / fps` each.
    static func expectSameMovieAsFolder(
        _ folder: String, files: [String], in dir: TemporaryDirectory, options: [String] = [], fps: Double = 30
    ) throws {
        let fromFolder = dir.path("folder.mp4")
        let fromPipe = dir.path("pipe.mp4")
        // A folder's numbered files give the movie a timecode; images on a pipe have no numbers.
        let folderRun = try ExternalTool.run(
            ExternalTool.flipbookPath, [folder, "-o", fromFolder, "-q", "--timecode", "none"] + options)
        #expect(folderRun.status == 0, "\(folderRun.stderr)")
        let pipeRun = try flipbook(
            ["-", "--stdin", "images", "-o", fromPipe, "-q"] + options, stdin: concatenated(files))
        #expect(pipeRun.status == 0, "\(pipeRun.stderr)")
        #expect(pipeRun.stderr.isEmpty && pipeRun.stdout.isEmpty, "quiet: \(pipeRun.stderr)\(pipeRun.stdout)")
        let same =
            try Data(contentsOf: URL(fileURLWithPath: fromFolder)) == Data(contentsOf: URL(fileURLWithPath: fromPipe))
        #expect(same, "the piped images give the folder's movie byte for byte")
        let times = try Self.times(of: fromPipe)
        #expect(times.count == files.count, "ffprobe frames: \(times.count) of \(files.count)")
        for (index, time) in times.enumerated() {
            #expect(abs((Double(time) ?? -1) - Double(index) / fps) < 0.0005, "frame \(index) at \(time)")
        }
        #expect(try Judge.decodeErrors(of: fromPipe) == "")
    }

    @Test(arguments: [
        [String](), ["--fps", "29.97"], ["--size", "64x48", "--fit", "cover"], ["--duration", "1/2"],
    ])
    func pngsFromFFmpegOnAPipeGiveTheFolderMovie(options: [String]) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let files = try SampleImages.write(count: 12, width: 96, height: 64, into: frames)
        let fps = options.first == "--fps" ? 30000.0 / 1001 : options.first == "--duration" ? 2 : 30
        try Self.expectSameMovieAsFolder(frames, files: files, in: dir, options: options, fps: fps)
        if options.isEmpty {
            let psnr = try Judge.psnr(of: dir.path("pipe.mp4"), againstImages: "\(frames)/frame%d.png")
            #expect(psnr > 30, "PSNR \(psnr) dB against the PNGs")
        }
    }

    /// Pillow's PNGs: RGBA with transparency, palette, 16-bit grey, each with text chunks.
    @Test func pngsFromPillowOnAPipeGiveTheFolderMovie() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let script = """
            import sys; from PIL import Image, PngImagePlugin
            info = PngImagePlugin.PngInfo(); info.add_text('Comment', 'IEND inside a text chunk ' * 40)
            for i in range(6):
                im = Image.new('RGBA', (80, 60), (40 * i, 200 - 30 * i, 90, 255 - 40 * i))
                im.paste((255, 255, 0, 255), (10 * i, 10, 10 * i + 20, 40))
                mode = ['RGBA', 'P', 'I;16', 'RGB', 'LA', 'L'][i]
                out = im.convert('RGB').convert('P') if mode == 'P' else (im.convert('I') if mode == 'I;16' else im.convert(mode))
                out.save(f'{sys.argv[1]}/p{i + 1}.png', pnginfo=info)
            """
        let made = try ExternalTool.run("/usr/bin/python3", ["-c", script, frames])
        #expect(made.status == 0, "\(made.stderr)")
        let files = (1...6).map { "\(frames)/p\($0).png" }
        try Self.expectSameMovieAsFolder(frames, files: files, in: dir)
    }

    /// JPEGs turned by EXIF orientation 6, each with a thumbnail JPEG (its own start and end of image)
    /// inside APP1: the movie is the folder's, 64x96 (turned), and the thumbnail is no frame of its own.
    @Test func jpegsWithEXIFOrientationAndThumbnailsGiveTheFolderMovie() throws {
        let dir = try TemporaryDirectory()
        let sources = try dir.folder("sources")
        let frames = try dir.folder("frames")
        let plain = try SampleImages.write(count: 5, width: 96, height: 64, into: sources, format: "jpg")
        let thumbnail = try SampleImages.write(
            count: 1, width: 16, height: 16, into: sources, prefix: "t", format: "jpg")
        let thumbnailBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: thumbnail[0])))
        var files: [String] = []
        for (index, path) in plain.enumerated() {
            let turned = TestJPEG.withOrientation(
                try Data(contentsOf: URL(fileURLWithPath: path)), 6, bigEndian: index % 2 == 0,
                thumbnail: thumbnailBytes)
            let file = "\(frames)/j\(index + 1).jpg"
            try turned.write(to: URL(fileURLWithPath: file))
            files.append(file)
        }
        try Self.expectSameMovieAsFolder(frames, files: files, in: dir)
        let stream = try Judge.stream(of: dir.path("pipe.mp4"))
        #expect(stream.width == 64 && stream.height == 96, "turned by EXIF: \(stream.width)x\(stream.height)")
    }

    /// WebP (lossy and lossless), HEIC and AVIF, each alone on a pipe, give the folder's movie.
    @Test(arguments: ["webp-lossy", "webp-lossless", "heic", "avif"])
    func otherFormatsOnAPipeGiveTheFolderMovie(kind: String) throws {
        let dir = try TemporaryDirectory()
        let sources = try dir.folder("sources")
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 5, width: 96, height: 64, into: sources)
        var files: [String] = []
        for index in 1...5 {
            let source = "\(sources)/frame\(index).png"
            let ext = kind.hasPrefix("webp") ? "webp" : kind
            let file = "\(frames)/f\(index).\(ext)"
            let made =
                kind.hasPrefix("webp")
                ? try ExternalTool.run(
                    "ffmpeg",
                    [
                        "-v", "error", "-i", source, "-c:v", "libwebp", "-lossless",
                        kind == "webp-lossless" ? "1" : "0", file,
                    ])
                : try ExternalTool.run("heif-enc", (kind == "avif" ? ["-A"] : []) + ["-q", "92", "-o", file, source])
            #expect(made.status == 0, "\(made.stderr)")
            files.append(file)
        }
        try Self.expectSameMovieAsFolder(frames, files: files, in: dir)
        let psnr = try Judge.psnr(of: dir.path("pipe.mp4"), againstImages: "\(sources)/frame%d.png")
        #expect(psnr > 30, "PSNR \(psnr) dB against the pictures the \(kind) files were made from")
    }

    /// PNG, JPEG, progressive JPEG, WebP, HEIC and AVIF on one pipe: six frames in pipe order, each
    /// near its source picture.
    @Test func mixedFormatsOnOnePipe() throws {
        let dir = try TemporaryDirectory()
        let sources = try dir.folder("sources")
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 6, width: 96, height: 64, into: sources)
        func source(_ index: Int) -> String { "\(sources)/frame\(index).png" }
        let makers: [(String, String, [String])] = [
            ("png", "ffmpeg", ["-v", "error", "-i", source(1)]),
            ("jpg", "ffmpeg", ["-v", "error", "-i", source(2), "-q:v", "2"]),
            (
                "jpg", "/usr/bin/python3",
                [
                    "-c",
                    "import sys; from PIL import Image; Image.open(sys.argv[1]).save(sys.argv[2], quality=95, progressive=True)",
                    source(3),
                ]
            ),
            ("webp", "ffmpeg", ["-v", "error", "-i", source(4), "-c:v", "libwebp", "-lossless", "1"]),
            ("heic", "heif-enc", ["-q", "95", source(5), "-o"]),
            ("avif", "heif-enc", ["-A", "-q", "95", source(6), "-o"]),
        ]
        var files: [String] = []
        for (index, (ext, tool, arguments)) in makers.enumerated() {
            let file = "\(frames)/m\(index + 1).\(ext)"
            let made = try ExternalTool.run(tool, arguments + [file])
            #expect(made.status == 0, "\(ext): \(made.stderr)")
            files.append(file)
        }
        try Self.expectSameMovieAsFolder(frames, files: files, in: dir, options: ["--crf", "10"])
        let psnr = try Judge.psnr(of: dir.path("pipe.mp4"), againstImages: "\(sources)/frame%d.png")
        #expect(psnr > 30, "PSNR \(psnr) dB against the six pictures")
    }

    /// A failure: status 1, one line on standard error naming the frame (and `more`), nothing left
    /// beside an existing movie, which keeps its bytes.
    static func expectFailure(
        stdin: Data, options: [String] = [], naming frame: Int, _ more: [String], in dir: TemporaryDirectory
    ) throws {
        let existing = dir.path("movie.mp4")
        try Data("an older movie".utf8).write(to: URL(fileURLWithPath: existing))
        let before = dir.entries().sorted()
        let result = try flipbook(["-", "--stdin", "images", "-o", existing, "--overwrite"] + options, stdin: stdin)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        for text in ["frame \(frame)"] + more {
            #expect(result.stderr.contains(text), "\(text) in: \(result.stderr)")
        }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "an older movie")
        #expect(dir.entries().sorted() == before, "nothing left beside the movie")
        let fresh = dir.path("fresh.mp4")
        let again = try flipbook(["-", "--stdin", "images", "-o", fresh] + options, stdin: stdin)
        #expect(again.status == 1 && !FileManager.default.fileExists(atPath: fresh), "nothing at a new name")
    }

    @Test(arguments: [0.5, 0.98])
    func aTruncatedLastImageIsRefusedNamingItsFrame(kept: Double) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let files = try SampleImages.write(count: 4, width: 96, height: 64, into: frames)
        var input = try Self.concatenated(Array(files.prefix(3)))
        let last = try Data(contentsOf: URL(fileURLWithPath: files[3]))
        input += last.prefix(Int(Double(last.count) * kept))
        try Self.expectFailure(stdin: input, naming: 3, ["cut short"], in: dir)
    }

    @Test func aTruncatedLastJPEGIsRefusedNamingItsFrame() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let files = try SampleImages.write(count: 3, width: 96, height: 64, into: frames, format: "jpg")
        var input = try Self.concatenated(Array(files.prefix(2)))
        input += try Data(contentsOf: URL(fileURLWithPath: files[2])).dropLast(2)  // no end-of-image marker
        try Self.expectFailure(stdin: input, naming: 2, ["cut short", "JPEG"], in: dir)
    }

    /// With `--skip-invalid` a truncated last image is left out with a warning, and the frame before it
    /// is shown for its time: three frames at 0, 1/30, 2/30 and a movie of 4/30 s.
    @Test func aTruncatedLastImageIsSkippedWithSkipInvalid() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let files = try SampleImages.write(count: 4, width: 96, height: 64, into: frames)
        var input = try Self.concatenated(Array(files.prefix(3)))
        input += try Data(contentsOf: URL(fileURLWithPath: files[3])).prefix(500)
        let movie = dir.path("skipped.mp4")
        let result = try Self.flipbook(["-", "--stdin", "images", "-o", movie, "--skip-invalid"], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("skipped frame 3"), "\(result.stderr)")
        #expect(try Self.times(of: movie).map { Double($0) ?? -1 }.map { ($0 * 30).rounded() } == [0, 1, 2])
        let duration = try Double(Judge.formatDuration(of: movie)) ?? 0
        #expect(abs(duration - 4.0 / 30) < 0.001, "the movie lasts four frames: \(duration)")
    }

    /// An image whose chunks are whole but whose pixels are damaged is decoded and skipped as in a
    /// folder: with `--skip-invalid` the same movie byte for byte, the frame before it held.
    @Test func aDamagedImageInTheMiddleIsSkippedAsInAFolder() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let files = try SampleImages.write(count: 5, width: 96, height: 64, into: frames)
        var damaged = [UInt8](try Data(contentsOf: URL(fileURLWithPath: files[2])))
        let idat = try #require(
            damaged.indices.first { damaged[$0..<min($0 + 4, damaged.count)].elementsEqual("IDAT".utf8) })
        for offset in idat + 40..<idat + 80 { damaged[offset] ^= 0x5A }
        try Data(damaged).write(to: URL(fileURLWithPath: files[2]))
        let fromFolder = dir.path("folder.mp4")
        let fromPipe = dir.path("pipe.mp4")
        let folderRun = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", fromFolder, "--skip-invalid", "--timecode", "none"])
        let pipeRun = try Self.flipbook(
            ["-", "--stdin", "images", "-o", fromPipe, "--skip-invalid"], stdin: Self.concatenated(files))
        #expect(folderRun.status == 0 && pipeRun.status == 0, "\(folderRun.stderr)\(pipeRun.stderr)")
        #expect(pipeRun.stderr.contains("skipped frame 2"), "\(pipeRun.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: fromFolder)) == Data(contentsOf: URL(fileURLWithPath: fromPipe)))
        #expect(try Self.times(of: fromPipe).map { ((Double($0) ?? -1) * 30).rounded() } == [0, 1, 3, 4])
    }

    @Test func garbageBetweenImagesIsRefusedNamingTheFrameAndByteOffset() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let files = try SampleImages.write(count: 3, width: 96, height: 64, into: frames)
        let firstTwo = try Self.concatenated(Array(files.prefix(2)))
        let input = firstTwo + Data("not an image\n".utf8) + (try Self.concatenated([files[2]]))
        try Self.expectFailure(stdin: input, naming: 2, ["byte \(firstTwo.count)"], in: dir)
        // --skip-invalid leaves out images, not bytes that are no image: still refused.
        try Self.expectFailure(
            stdin: input, options: ["--skip-invalid"], naming: 2, ["byte \(firstTwo.count)"], in: dir)
    }

    @Test func aTIFFOnStandardInputIsRefusedNamingWhatWorks() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let files = try SampleImages.write(count: 2, width: 96, height: 64, into: frames)
        let tiff = dir.path("f.tif")
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-i", files[1], tiff])
        #expect(made.status == 0, "\(made.stderr)")
        let input = try Self.concatenated([files[0], tiff])
        try Self.expectFailure(stdin: input, naming: 1, ["TIFF", "PNG, JPEG, WebP, HEIC or AVIF"], in: dir)
        try FileManager.default.removeItem(atPath: tiff)
    }

    @Test func anEmptyStandardInputIsRefused() throws {
        let dir = try TemporaryDirectory()
        let existing = dir.path("movie.mp4")
        try Data("an older movie".utf8).write(to: URL(fileURLWithPath: existing))
        let result = try Self.flipbook(["-", "--stdin", "images", "-o", existing, "--overwrite"], stdin: Data())
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("no image"), "\(result.stderr)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "an older movie")
        #expect(dir.entries() == ["movie.mp4"])
    }

    /// Mistakes on the command line: status 2, one line saying what to do, nothing written.
    @Test(arguments: [
        (["-"], "--stdin images"),
        (["-", "--stdin", "pictures"], "raw or images"),
        (["-", "--stdin", "images", "--raw-size", "8x8"], "--raw-size is for --stdin raw"),
        (["-", "--stdin", "images", "--raw-format", "rgb"], "--raw-format is for --stdin raw"),
        (["-", "--stdin", "raw"], "needs --raw-size"),
        (["frames/", "--stdin", "images"], "give - as the input"),
        (["-", "--stdin", "images", "--segment", "1/2"], "--segment is for image files"),
        (["-", "--stdin", "images", "--keep-order"], "--keep-order is for image files"),
        (["-", "--stdin", "images", "--tiff-pages", "all"], "TIFF has no end marker"),
        (["-", "--stdin", "images", "--target-size", "1MB"], "images on standard input"),
        (["-", "--stdin", "images", "--follow"], "--follow"),
    ])
    func badCombinationsAreUsageErrors(arguments: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        let result = try Self.flipbook(arguments + ["-o", dir.path("a.mp4")], stdin: Data())
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(message) in: \(result.stderr)")
        #expect(dir.entries().isEmpty)
    }

    /// Ten times the images on the pipe take no more memory: images are read as they are decoded,
    /// a few ahead, never gathered.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
            "sanitizers hold freed memory in quarantine, so resident memory grows with the work"))
    func threeThousandImagesOnAPipeTakeNoMoreMemoryThanThreeHundred() throws {
        let dir = try TemporaryDirectory()
        let files = try SampleImages.write(count: 30, width: 96, height: 64, into: try dir.folder("frames"))
        let thirty = try Self.concatenated(files)
        var peaks: [Int] = []
        for count in [300, 3000] {
            let movie = dir.path("m\(count).mp4")
            let report = dir.path("time\(count).txt")
            let result = try ExternalTool.run(
                "/usr/bin/time",
                [
                    "-f", "%M", "-o", report, ExternalTool.flipbookPath, "-", "--stdin", "images", "-o", movie,
                    "--preset", "ultrafast", "-q",
                ], stdin: Data(repeatElement(thirty, count: count / 30).joined()))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try Judge.stream(of: movie).frameCount == count)
            peaks.append(try MemoryTests.peak(inReport: report))
        }
        #expect(
            Double(peaks[1]) <= Double(peaks[0]) * 1.10,
            "peak RSS \(peaks[0]) KiB for 300 images, \(peaks[1]) KiB for 3000")
    }

    /// On a terminal the progress line counts the frames taken, with no total or time left it cannot know.
    @Test(.enabled(if: ProgressLineTests.canOpenPseudoTerminal, "no pseudo-terminal can be opened here"))
    func aTerminalGetsAProgressLineCountingTheFramesTaken() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 30, width: 64, height: 48, into: frames)
        let movie = dir.path("progress.mp4")
        let command =
            "cat '\(frames)'/frame*.png | '\(ExternalTool.flipbookPath)' - --stdin images -o '\(movie)' --preset ultrafast"
        let result = try ExternalTool.run("script", ["-q", "-e", "-c", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("flipbook: 30 frames from standard input, "), "\(result.stdout.debugDescription)")
        #expect(!result.stdout.contains("left"), "\(result.stdout.debugDescription)")
        #expect(try Judge.stream(of: movie).frameCount == 30)
    }

    @Test func helpDescribesImagesOnStandardInput() throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--stdin raw|images"), "\(result.stdout)")
        #expect(result.stdout.contains("cat frames/*.png | flipbook - --stdin images"))
    }
}
