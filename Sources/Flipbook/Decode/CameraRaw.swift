/// Camera raw files: the photo is the sensor's data, which Flipbook does not decode. They are named
/// (by signature, by a TIFF's preview page or sensor-data page, by a folder's file extensions) so the
/// error says what to do instead of making a movie of their thumbnails.
enum CameraRaw {
    /// The end of every message about a raw file: what Flipbook does not do and what to do instead.
    static let notDecoded =
        "which Flipbook does not decode (export the photos as JPEG or TIFF first, for example with darktable-cli "
        + "or dcraw)"

    /// Extensions of camera raw files, named when a folder holds them and nothing Flipbook reads.
    static let extensions: Set<String> = [
        "dng", "nef", "nrw", "cr2", "cr3", "crw", "arw", "srf", "sr2", "orf", "rw2", "raf", "pef", "srw", "x3f", "3fr",
        "iiq", "rwl",
    ]
}
