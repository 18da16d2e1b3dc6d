import Flipbook
import Foundation

// Measures Flipbook's stages on their own, in release builds, for bench/compare.sh:
//   FlipbookBench decode DIR [planes]   decoding time per image, one thread (with planes: JPEGs and
//                                       lossy WebPs to their Y'CbCr planes)
//   FlipbookBench prepare DIR          decoding and conversion to BT.709 YUV 4:2:0 per image, one thread:
//                                       through RGB, then JPEGs of even size through their Y'CbCr planes
//   FlipbookBench fit DIR WxH           per image, one thread: reading the file, decoding it for a WxH
//                                       movie with --fit cover (JPEGs at a smaller scale, to planes) and
//                                       fitting and converting it, each stage timed on its own
//   FlipbookBench convert WxH N         RGB, RGBA and JPEG Y'CbCr planes to YUV 4:2:0 time per frame
//   FlipbookBench memory WxH N PRESET CRF OUT.mp4 [Y4M]
//                                       N synthetic RGBA frames made in memory into a movie; with Y4M,
//                                       the same frames (as Flipbook converts them) are also written as
//                                       a .y4m file for bare x264.
//   FlipbookBench burnin WxH N         four burn-ins (shot, timecode, file and date, frame number) drawn
//                                       into a prepared WxH picture, time per frame
//   FlipbookBench follow SOURCE LIVE N FPS OUT.mp4 [polling]
//                                       follows a renderer writing N frames at FPS (FollowBench.swift).

/// CPU seconds (user and system) the process has used so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Seconds of wall time `work` takes.
func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// A deterministic moving picture: gradients, a bar and some texture, `index` frames in.
func syntheticFrame(_ index: Int, width: Int, height: Int) -> [UInt8] {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    var state = UInt32(truncatingIfNeeded: index &* 2_654_435_761)
    for y in 0..<height {
        for x in 0..<width {
            state = state &* 1_664_525 &+ 1_013_904_223
            let offset = (y * width + x) * 4
            let bar = abs(x - (index * 9) % width) < 40
            pixels[offset] = UInt8(truncatingIfNeeded: (x + index * 3) / 8 + Int(state >> 29))
            pixels[offset + 1] = bar ? 230 : UInt8(truncatingIfNeeded: y / 5 + Int(state >> 30))
            pixels[offset + 2] = UInt8(truncatingIfNeeded: (x + y) / 12 + index)
        }
    }
    return pixels
}

func parseSize(_ text: String) -> (Int, Int) {
    let parts = text.split(separator: "x").compactMap { Int($0) }
    return (parts[0], parts[1])
}

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "decode":
    MemoryTuning.keepLargeBuffersInTheHeap()  // as the flipbook tool does
    let files = try ImageFiles.collect([URL(fileURLWithPath: arguments[2])])
    // With "planes", JPEGs and lossy WebPs come as their Y'CbCr planes, as the tool takes them for a
    // movie of their size.
    let planes: PlanarRequest? = arguments.count > 3 && arguments[3] == "planes" ? .anyEvenSize : nil
    var pixels = 0
    let time = try seconds {
        for file in files {
            switch try ImageDecoder.decodeImageFile(at: file, limits: ImageLimits(), planes: planes) {
            case .frame(let frame): pixels += frame.pixels.count
            case .planes(let decoded): pixels += decoded.width * decoded.height * 3 / 2
            case .deep(let image): pixels += image.samples.count * 2
            }
        }
    }
    print(
        String(
            format: "decode: %ld images, %.2f ms each (%ld bytes of pixels)", files.count,
            time * 1000 / Double(files.count), pixels))
case "prepare":
    MemoryTuning.keepLargeBuffersInTheHeap()
    let files = try ImageFiles.collect([URL(fileURLWithPath: arguments[2])])
    let rgbConverter = RGBToYUVConverter(matrix: .bt709)
    let planarConverter = JPEGToYUVConverter(matrix: .bt709)
    for planes in [nil, PlanarRequest.anyEvenSize] {
        var throughPlanes = 0
        let time = try seconds {
            for file in files {
                switch try ImageDecoder.decodeImageFile(at: file, limits: ImageLimits(), planes: planes) {
                case .frame(let frame):
                    var picture = YUVPicture(width: frame.width, height: frame.height)
                    rgbConverter.convert(frame, into: &picture)
                case .planes(let decoded):
                    var picture = YUVPicture(width: decoded.width, height: decoded.height)
                    planarConverter.convert(decoded, into: &picture)
                    throughPlanes += 1
                case .deep:
                    preconditionFailure("no 16-bit images were asked for")
                }
            }
        }
        print(
            String(
                format: "prepare: %ld images, %.2f ms each (%ld through Y'CbCr planes)", files.count,
                time * 1000 / Double(files.count), throughPlanes))
    }
case "fit":
    MemoryTuning.keepLargeBuffersInTheHeap()
    let files = try ImageFiles.collect([URL(fileURLWithPath: arguments[2])])
    let (width, height) = parseSize(arguments[3])
    let hint = DecodeSizeHint(width: width, height: height, fit: .cover)
    var settings = VideoSettings(width: width, height: height)
    settings.fit = .cover
    let preparer = FramePreparer(settings: settings, matrix: .bt709)
    var reading = 0.0
    var decoding = 0.0
    var fitting = 0.0
    for file in files {
        var data = Data()
        reading += try seconds { data = try ImageDecoder.readFile(at: file) }
        var image: DecodedImage?
        decoding += try seconds {
            image = try ImageDecoder.decodeImage(
                data, limits: ImageLimits(), sizeHint: hint, planes: .fitting(hint))
        }
        fitting += try seconds { _ = try preparer.prepare(image!) }
    }
    let each = { (total: Double) in total * 1000 / Double(files.count) }
    print(
        String(
            format: "fit: %ld images into %ldx%ld cover: read %.2f ms, decode %.2f ms, fit and convert %.2f ms each",
            files.count, width, height, each(reading), each(decoding), each(fitting)))
case "burnin":
    let (width, height) = parseSize(arguments[2])
    let count = Int(arguments[3])!
    var settings = VideoSettings(width: width, height: height, frameRate: FrameRate(24))
    settings.burnIns = try ["TL:{shot} v{version}", "TR:{timecode}", "BL:{file} {date}", "BR:{frame}"].map(
        BurnIn.init(parsing:))
    settings.fields = ["shot": "KESTREL", "version": "3"]
    let painter = try BurnInPainter(
        settings: settings, timecodeStart: Timecode(hours: 0, minutes: 0, seconds: 41, frames: 17), date: Date(),
        whiteCode: 1)!
    let frame = try Frame(
        width: width, height: height, format: .rgba, pixels: syntheticFrame(1, width: width, height: height))
    let prepared = try FramePreparer(settings: settings, matrix: .bt709).prepare(.frame(frame))
    var picture = prepared
    painter.draw(into: &picture, FrameFacts(number: 1000, framesFromStart: 0, file: "shot.1000.png"))  // glyphs cached
    let time = seconds {
        for index in 0..<count {
            picture = prepared
            painter.draw(
                into: &picture,
                FrameFacts(number: 1001 + index, framesFromStart: index, file: "shot.\(1001 + index).png"))
        }
    }
    let copy = seconds {
        for _ in 0..<count {
            picture = prepared
            picture.withEightBitPlanes { $0.luma[0] = 1 }
        }
    }
    print(
        String(
            format: "burnin: four burn-ins at %ldx%ld: %.3f ms a frame (of which %.3f ms copying the picture)", width,
            height, time * 1000 / Double(count), copy * 1000 / Double(count)))
case "convert":
    let (width, height) = parseSize(arguments[2])
    let count = Int(arguments[3])!
    let rgba = syntheticFrame(1, width: width, height: height)
    let converter = RGBToYUVConverter(matrix: .bt709)
    var picture = YUVPicture(width: width, height: height)
    for (format, pixels) in [
        (PixelFormat.rgb, Array(rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element))), (.rgba, rgba),
    ] {
        let frame = try Frame(width: width, height: height, format: format, pixels: pixels)
        let time = seconds { for _ in 0..<count { converter.convert(frame, into: &picture) } }
        print(
            String(
                format: "convert %@: %.2f ms a frame at %ldx%ld (luma[0]=%d)", "\(format)", time * 1000 / Double(count),
                width, height, picture.luma[0]))
    }
    // The same picture as JPEG 4:2:0 planes would hold it (luma from red, chroma from green and blue).
    let planes = YCbCrPlanes(
        width: width, height: height, chromaFullWidth: false, chromaFullHeight: false,
        luma: (0..<(width * height)).map { rgba[$0 * 4] },
        cb: (0..<(width * height / 4)).map { rgba[$0 * 4 + 1] }, cr: (0..<(width * height / 4)).map { rgba[$0 * 4 + 2] }
    )
    let planar = JPEGToYUVConverter(matrix: .bt709)
    let planarTime = seconds { for _ in 0..<count { planar.convert(planes, into: &picture) } }
    print(
        String(
            format: "convert JPEG 4:2:0 planes: %.2f ms a frame at %ldx%ld (luma[0]=%d)",
            planarTime * 1000 / Double(count), width, height, picture.luma[0]))
    let rgbaFrame = try Frame(width: width, height: height, format: .rgba, pixels: rgba)
    let composited = seconds {
        for _ in 0..<count { converter.convert(rgbaFrame, over: .black, into: &picture) }
    }
    print(
        String(
            format: "convert rgba over black: %.2f ms a frame at %dx%d (luma[0]=%d)",
            composited * 1000 / Double(count), width, height, picture.luma[0]))
case "memory":
    let (width, height) = parseSize(arguments[2])
    let count = Int(arguments[3])!
    let preset = EncoderPreset(rawValue: arguments[4])!
    let crf = Double(arguments[5])!
    let output = URL(fileURLWithPath: arguments[6])
    let frames = try (0..<min(count, 60)).map {
        try Frame(width: width, height: height, format: .rgba, pixels: syntheticFrame($0, width: width, height: height))
    }
    if arguments.count > 7 {
        // The same pictures as Flipbook converts them, for bare x264.
        var y4m = Data("YUV4MPEG2 W\(width) H\(height) F30:1 Ip A1:1 C420jpeg\n".utf8)
        let converter = RGBToYUVConverter(matrix: .bt709)
        var picture = YUVPicture(width: width, height: height)
        var converted: [Data] = []
        for frame in frames {
            converter.convert(frame, into: &picture)
            converted.append(Data("FRAME\n".utf8) + Data(picture.luma) + Data(picture.cb) + Data(picture.cr))
        }
        for index in 0..<count { y4m.append(converted[index % converted.count]) }
        try y4m.write(to: URL(fileURLWithPath: arguments[7]))
    }
    let writer = try MovieWriter(
        url: output, settings: VideoSettings(width: width, height: height, crf: crf, preset: preset), overwrite: true)
    var movie: MovieSummary?
    let cpuBefore = cpuSeconds()
    let time = try await {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count { try await writer.append(frames[index % frames.count]) }
        movie = try await writer.finish()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }()
    print(
        String(
            format: "memory: %ld frames in %.2f s, %.1f fps, %ld bytes, %.2f s cpu", count, time, Double(count) / time,
            movie!.bytes, cpuSeconds() - cpuBefore))
case "follow":
    MemoryTuning.keepLargeBuffersInTheHeap()  // as the flipbook tool does
    try await followBench(Array(arguments.dropFirst(2)))
default:
    print(
        "usage: FlipbookBench decode DIR [planes] | prepare DIR | fit DIR WxH | convert WxH N"
            + " | memory WxH N PRESET CRF OUT.mp4 [OUT.y4m] | follow SOURCE LIVE N FPS OUT.mp4 [polling]")
    exit(2)
}
