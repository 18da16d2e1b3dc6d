import Foundation

/// Images' bytes from an asynchronous sequence, read ahead by a task of their own into a few places,
/// so the ordered decode pipeline takes those already come without waiting (and decodes them in
/// parallel), and waits only when none has. The reading task suspends while every place is taken,
/// so memory holds at most `capacity` images read ahead.
///
/// Sendable by its lock: every stored property but `capacity` is read and written only while `lock`
/// is held. (An `NSLock` rather than `Mutex`, whose futex ThreadSanitizer cannot see on Linux.)
final class ImageDataPrefetch: @unchecked Sendable {
    private let capacity: Int
    private let lock = NSLock()
    private var images: [Data] = []
    /// Whether the sequence has ended, and how: `nil` while it goes on, `.success` at its end,
    /// `.failure` when it threw.
    private var end: Result<Void, any Error>?
    /// Whether the reader is gone (finished, failed or cancelled): nothing more is kept.
    private var closed = false
    private var consumer: CheckedContinuation<Void, Never>?
    private var producer: CheckedContinuation<Void, Never>?

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Reads `sequence` into the places until it ends, throws, or ``close()`` is called.
    func fill<Images: AsyncSequence>(from sequence: Images) async where Images.Element == Data {
        do {
            for try await image in sequence {
                guard await put(image) else { return }
            }
            finish(.success(()))
        } catch {
            finish(.failure(error))
        }
    }

    /// Stops reading ahead and wakes whoever waits; the reader then ends at its next image.
    func close() {
        let waiting = lock.withLock {
            closed = true
            images.removeAll()
            defer { (consumer, producer) = (nil, nil) }
            return [consumer, producer]
        }
        for continuation in waiting { continuation?.resume() }
    }

    /// The next image if one has come, else `nil`: at the end too, which ``wait()`` then reports.
    func takeIfReady() -> Data? {
        let (image, waiting) = lock.withLock { () -> (Data?, CheckedContinuation<Void, Never>?) in
            guard !images.isEmpty else { return (nil, nil) }
            defer { producer = nil }
            return (images.removeFirst(), producer)
        }
        waiting?.resume()
        return image
    }

    /// Waits for the next image; `nil` at the end of the sequence.
    ///
    /// - Throws: What the sequence threw, once every image before it was taken; `CancellationError`
    ///   when the task is cancelled while waiting.
    func wait() async throws -> Data? {
        while true {
            if let image = takeIfReady() { return image }
            let state = lock.withLock { (end, closed) }
            if let end = state.0 {
                try end.get()
                return nil
            }
            if state.1 { throw CancellationError() }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let now = lock.withLock {
                        guard images.isEmpty && end == nil && !closed else { return true }
                        consumer = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                close()
            }
        }
    }

    /// Keeps `image` once a place is free; `false` when closed.
    private func put(_ image: Data) async -> Bool {
        await withCheckedContinuation { continuation in
            let now = lock.withLock {
                guard !closed && images.count >= capacity else { return true }
                producer = continuation
                return false
            }
            if now { continuation.resume() }
        }
        let (kept, waiting) = lock.withLock { () -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !closed else { return (false, nil) }
            images.append(image)
            defer { consumer = nil }
            return (true, consumer)
        }
        waiting?.resume()
        return kept
    }

    /// Records the sequence's end and wakes the consumer.
    private func finish(_ result: Result<Void, any Error>) {
        let waiting = lock.withLock {
            end = result
            defer { consumer = nil }
            return consumer
        }
        waiting?.resume()
    }
}

/// The images of an asynchronous sequence as the ordered decode pipeline's arrivals.
struct ImageDataArrivals: SequenceArrivals {
    let prefetch: ImageDataPrefetch

    mutating func nextReady() -> Data? {
        prefetch.takeIfReady()
    }

    mutating func waitForNext() async throws -> Data? {
        try await prefetch.wait()
    }
}
