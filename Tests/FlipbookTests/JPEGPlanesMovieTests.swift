import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// 4:2:0 JPEGs of the movie's size go into the movie through their Y'CbCr planes (the image
/// sequence and `append(imageAt:)`); judged by ffmpeg, the movie is at least as close to the source
/// JPEGs as the same images appended as decoded RGB frames (the RGB path).
@Suite struct JPEGPlanesMovieTests {
    @Test func planarMoviesAreAtLeastAsCloseToTheJPEGsAsTheRGBPath() async throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        let (width, height) = (320, 240)
        var images: [URL] = []
        for index in 1...6 {
            // Grainy ramps in 4:2:0 at quality 92, as cameras and Pillow save photos.
            let pixels = JPEGPlanesTests.pixels(.grain, width: width, height: height, seed: UInt32(index))
            let jpeg = try TestJPEG.encode(pixels, width: width, height: height, kind: .rgb420, quality: 92)
            let url = URL(fileURLWithPath: "\(frames)/\(index).jpg")
            try jpeg.write(to: url)
            images.append(url)
        }
        let settings = VideoSettings(width: width, height: height, crf: 12, preset: .veryfast)

        let rgbMovie = URL(fileURLWithPath: dir.path("rgb.mp4"))
        let rgbWriter = try MovieWriter(url: rgbMovie, settings: settings)
        for image in images {
            try await rgbWriter.append(try ImageDecoder.decodeFile(at: image, limits: ImageLimits()))
        }
        _ = try await rgbWriter.finish()

        let appendedMovie = URL(fileURLWithPath: dir.path("appended.mp4"))
        let appendingWriter = try MovieWriter(url: appendedMovie, settings: settings)
        for image in images { try await appendingWriter.append(imageAt: image) }
        _ = try await appendingWriter.finish()

        let sequenceMovie = URL(fileURLWithPath: dir.path("sequence.mp4"))
        _ = try await MovieWriter.makeMovie(
            fromImagesAt: images, to: sequenceMovie, options: SequenceOptions(settings: settings))

        let sources = "\(frames)/%d.jpg"
        let rgbPSNR = try Judge.psnr(of: rgbMovie.path, againstImages: sources)
        for movie in [appendedMovie, sequenceMovie] {
            let stream = try Judge.stream(of: movie.path)
            #expect(stream.width == width && stream.height == height && stream.frameCount == 6)
            #expect(stream.pixelFormat == "yuv420p" && stream.colorSpace == "bt709" && stream.colorRange == "tv")
            #expect(try Judge.decodeErrors(of: movie.path) == "")
            let psnr = try Judge.psnr(of: movie.path, againstImages: sources)
            #expect(
                psnr >= rgbPSNR, "\(movie.lastPathComponent): PSNR \(psnr) dB, the RGB path's \(rgbPSNR) dB")
        }
    }
}
