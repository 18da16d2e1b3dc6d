// The AVAssetWriter recipe of docs/from-avassetwriter.md, written with Flipbook: an array of images of
// mixed sizes becomes a 640x360 H.264 movie at 24 fps, frame i at i/24 s, replacing a movie already at
// the destination only once the new one is complete.
//
//   swift run FlipbookExample [OUTPUT.mp4]        (default recipe.mp4)
import Flipbook
import Foundation

/// The images to write: 48 RGBA frames, a colour ramp over time; every fourth one is square and
/// smaller, as images from different sources are, and is letterboxed into the movie's size.
func makeImages() throws -> [Frame] {
    try (0..<48).map { index in
        let (width, height) = index % 4 == 3 ? (240, 240) : (1280, 720)
        let red = UInt8(index * 5)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            let x = (offset / 4) % width
            pixels[offset] = red
            pixels[offset + 1] = UInt8(x * 255 / width)
            pixels[offset + 2] = 160
        }
        return try Frame(width: width, height: height, format: .rgba, pixels: pixels)
    }
}

let output = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "recipe.mp4")
try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)

// AVAssetWriter(outputURL:fileType:) + AVAssetWriterInput(mediaType: .video, outputSettings: [codec, size])
// + AVAssetWriterInputPixelBufferAdaptor: one writer with one settings value. The recipe deletes the old file
// first; Flipbook keeps it until the new movie is complete, then renames the new one over it.
let settings = VideoSettings(width: 640, height: 360, frameRate: FrameRate(24))
let writer = try MovieWriter(url: output, settings: settings, overwrite: true)

// startWriting() / startSession(atSourceTime: .zero): nothing to call; the session starts at zero.
for image in try makeImages() {
    // while !input.isReadyForMoreMediaData { sleep }: append suspends while the encoder is busy.
    // CMTime(value: index, timescale: 24) and adaptor.append(buffer, withPresentationTime:): frame i is
    // at exactly i/24 s without being told; append(_:at:) takes a time when frames are not evenly spaced.
    try await writer.append(image)
}

// input.markAsFinished(); writer.finishWriting { ... check writer.status ... }: one call that returns the
// summary or throws the error, with the last frame shown for its whole 1/24 s.
let movie = try await writer.finish()
print(
    "\(movie.url.path): \(movie.frames) frames, \(movie.duration.seconds) s, \(movie.width)x\(movie.height), \(movie.bytes) bytes"
)
