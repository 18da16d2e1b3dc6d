import Flipbook
import Foundation

/// The options of time-lapses shot on a camera: how raw files are developed.
let timelapseOptionTable: [OptionSpec] = [
    OptionSpec(
        names: ["--white-balance"], value: "camera|auto|daylight|KELVIN",
        help:
            "How camera raw files are balanced before the camera's matrix: as the camera recorded, from each "
            + "picture, daylight's, or a light of 2000 to 25000 K such as 5600 (default camera)."
    ) { options, text in
        options.whiteBalance = try require(
            WhiteBalance(parsing: text),
            "--white-balance \(text) is not a white balance; use camera, auto, daylight or a temperature from "
                + "2000 to 25000 K such as 5600.")
    },
    OptionSpec(
        names: ["--raw-preview"], value: nil,
        help:
            "Make camera raw files' movies from the preview each holds (the camera's own JPEG, as quick as a "
            + "JPEG) instead of developing the sensor data."
    ) { options, _ in options.rawPreview = true },
]

/// The deflicker's options.
let deflickerOptionTable: [OptionSpec] = [
    OptionSpec(
        names: ["--deflicker"], value: nil,
        help:
            "Take flicker out of a sequence of image files: each image's brightness measured in linear light, "
            + "exposure steps its EXIF states (shutter, aperture, ISO) taken out exactly, and each image scaled to "
            + "a smooth curve over --deflicker-window images before its tone curve."
    ) { options, _ in options.deflickerAsked = true },
    OptionSpec(
        names: ["--deflicker-window"], value: "N",
        help: "The images the deflicker's smooth curve follows around each: odd, 3 to 999 (default 15)."
    ) { options, text in
        options.deflickerWindow = try require(
            Int(text), "--deflicker-window \(text) is not a number of images; use an odd number such as 15.")
    },
    OptionSpec(
        names: ["--deflicker-region"], value: "X,Y,W,H",
        help: "Where the deflicker measures brightness, in the images' pixels, such as 0,0,1920,400 for the sky "
            + "(default the whole picture)."
    ) { options, text in
        options.deflickerRegion = try require(
            PixelRegion(parsing: text),
            "--deflicker-region \(text) is not a region; use X,Y,WIDTH,HEIGHT in pixels, such as 0,0,1920,400.")
    },
]

extension CommandLineOptions {
    /// The deflicker asked for, with its window and region.
    var deflicker: Deflicker? {
        guard deflickerAsked else { return nil }
        return Deflicker(window: deflickerWindow ?? Deflicker().window, region: deflickerRegion)
    }

    /// Checks `--deflicker`'s options: its window, and that the images are files given ahead.
    func validateDeflicker() throws {
        guard let deflicker else {
            if deflickerWindow != nil || deflickerRegion != nil {
                throw UsageError(description: "--deflicker-window and --deflicker-region go with --deflicker; add it.")
            }
            return
        }
        if inputs == ["-"] || follow {
            throw UsageError(
                description: "--deflicker measures every image before the first frame, so it takes image files; "
                    + "leave it out with " + (follow ? "--follow." : "images on standard input."))
        }
        try UsageError.rephrasing("deflicker window", as: "--deflicker-window") {
            var settings = VideoSettings(width: 2, height: 2)
            settings.deflicker = deflicker
            try settings.validateText()
        }
    }
}
