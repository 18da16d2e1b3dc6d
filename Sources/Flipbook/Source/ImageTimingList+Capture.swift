import Foundation

extension ImageTimingList {
    /// `images` timed by when each photo was taken (its EXIF `DateTimeOriginal` and
    /// `SubSecTimeOriginal`): each lasts the interval to the next photo's capture time divided by
    /// `speedup` (600 makes ten minutes of shooting one second), exactly; the last lasts the interval
    /// before it. A time-lapse shot at uneven intervals keeps them, sped up.
    ///
    /// - Throws: ``FlipbookError`` naming a photo without a capture time, or one taken no later than
    ///   the one before it; a `speedup` that is not positive.
    public init(capturedBy images: [URL], speedup: MediaTime) throws {
        guard speedup > .zero else { throw FlipbookError.speedupNotPositive(speedup) }
        let times = try images.map { image -> MediaTime in
            let head: Data
            do {
                let handle = try FileHandle(forReadingFrom: image)
                defer { try? handle.close() }
                head = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw FlipbookError.captureTimeNotReadable(image.path, cause: error)
            }
            guard let time = ExifCaptureTime.read(fromPhoto: [UInt8](head)) else {
                throw FlipbookError.captureTimeMissing(image.path)
            }
            return time
        }
        var intervals: [MediaTime] = []
        for index in times.indices.dropFirst() {
            let interval = times[index] - times[index - 1]
            guard interval > .zero else {
                throw FlipbookError.captureTimesOutOfOrder(images[index].path, after: images[index - 1].path)
            }
            intervals.append(interval)
        }
        if let last = intervals.last { intervals.append(last) }
        entries = zip(images, intervals.isEmpty ? [nil] : intervals.map { Self.divided($0, by: speedup) }).map {
            Entry(image: $0, duration: $1)
        }
    }

    /// `interval / speedup` exactly when the fraction fits a time, else to the microsecond.
    static func divided(_ interval: MediaTime, by speedup: MediaTime) -> MediaTime {
        let (top, topOverflow) = interval.value.multipliedReportingOverflow(by: Int64(speedup.timescale))
        let (bottom, bottomOverflow) = Int64(interval.timescale).multipliedReportingOverflow(by: speedup.value)
        if !topOverflow, !bottomOverflow, bottom > 0 {
            let divisor = gcd(top, bottom)
            if bottom / divisor <= Int64(Int32.max) {
                return MediaTime(value: top / divisor, timescale: Int32(bottom / divisor))
            }
        }
        return MediaTime(seconds: interval.seconds / speedup.seconds, timescale: 1_000_000)
            ?? MediaTime(value: 1, timescale: 1_000_000)
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (a, b) = (abs(a), abs(b))
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }
}
