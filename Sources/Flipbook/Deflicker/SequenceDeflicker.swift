import Foundation

/// A sequence's deflicker worked out before its movie: every image measured (decoded small where its
/// format allows, on several threads) and its stated exposure read, then each image's change to the
/// smooth curve (``FlickerCurve``).
struct SequenceDeflicker {
    let deflicker: Deflicker
    let limits: ImageLimits
    /// Images measured at once.
    let workers: Int

    /// Each image's change in stops, in the order of `images`.
    ///
    /// - Throws: The first image that cannot be decoded, named; a region outside an image.
    func changes(of images: [ImageReference]) throws -> [Double] {
        // Measured at a small size (JPEGs scaled in decoding, camera raw files at half size) unless a
        // region in the images' own pixels is given.
        let hint = deflicker.region == nil ? DecodeSizeHint(width: 480, height: 270, fit: .contain) : nil
        let request = DecodeRequest(limits: limits, sizeHint: hint)
        let results = ResultSlots(count: images.count)
        let region = deflicker.region
        let lanes = max(1, min(workers, images.count))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for index in stride(from: lane, to: images.count, by: lanes) {
                let image = images[index]
                results.set(
                    index,
                    Result {
                        try FrameOrigin(index: index, image: image).attributing {
                            let data = try ImageDecoder.readFile(at: image.file)
                            let decoded = try ImageDecoder.decodeImage(data, request.onPage(image.page))
                            return (try FlickerMeter.stops(of: decoded, region: region), ExifExposure.stops(in: data))
                        }
                    })
            }
        }
        let measured = try results.values.map { try $0.get() }
        let exposures = measured.allSatisfy { $0.exposure != nil } ? measured.compactMap(\.exposure) : nil
        return FlickerCurve.changes(measured: measured.map(\.stops), exposures: exposures, window: deflicker.window)
    }
}

/// One result slot per image, filled from several threads (each slot by one).
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<(stops: Double, exposure: Double?), any Error>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<(stops: Double, exposure: Double?), any Error>) {
        lock.lock()
        slots[index] = result
        lock.unlock()
    }

    var values: [Result<(stops: Double, exposure: Double?), any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0 ?? .failure(CancellationError()) }
    }
}
