/// Camera raw files: the photo is the sensor's data, which ``LibRawDecoder`` develops. They are told
/// by their signature or their TIFF layout (``ImageSniffing/cameraRawFormat(_:)``,
/// ``ImageSniffing/isTIFFCameraRaw(_:)``) and found in folders by their extensions.
enum CameraRaw {
    /// The end of every message about sensor data in a TIFF that was not told apart as a camera raw file.
    static let notDecoded =
        "which Flipbook develops only from a camera raw file it tells apart by its layout (DNG, NEF, ARW, CR2 "
        + "and the like); give the camera's own file, or export the photos as JPEG or TIFF"

    /// Extensions of camera raw files, which folder listings take.
    static let extensions: [String] = [
        "dng", "nef", "nrw", "cr2", "cr3", "crw", "arw", "srf", "sr2", "orf", "rw2", "raf", "pef", "srw", "3fr",
        "iiq", "rwl", "kdc", "dcr", "mrw", "erf",
    ]
}
