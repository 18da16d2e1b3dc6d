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
