import Foundation

/// The failures of camera raw files: a body LibRaw does not know, a developed picture of an unexpected
/// kind, a preview that is not a JPEG. One wording each; each keeps where it was raised
/// (``FlipbookError/origin``).
extension FlipbookError {
    /// A raw file of a camera LibRaw 0.20 does not know (a body newer than it).
    static func rawCameraUnknown(_ camera: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the \(camera) is not a camera LibRaw 0.20 knows, so its raw files cannot be developed; convert them to "
                + "DNG (Adobe DNG Converter does) and give those", fileID: fileID, line: line)
    }

    /// LibRaw developed a picture of another depth or number of colours than asked.
    static func rawPictureUnexpected(bits: Int, colours: Int, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .unsupportedImage,
            "LibRaw developed the camera raw file to \(colours) colours of \(bits) bits, not the 3 of 16 bits "
                + "a movie is made from", fileID: fileID, line: line)
    }

    /// `--raw-preview` for a file whose embedded preview is not a JPEG.
    static func rawPreviewNotJPEG(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the camera raw file's embedded preview is not a JPEG; leave --raw-preview out to develop the sensor data",
            fileID: fileID, line: line)
    }
}
