import Foundation

/// Pictures the encoder has finished with, kept for the next frames: each frame then reuses a
/// picture's storage (its planes, or its RGBA) instead of allocating it (and having the kernel zero fresh pages), which at 1080p is
/// several percent of the in-memory path's time.
///
/// Holds at most `capacity` spare pictures, no more than were already in use at once, so it does
/// not raise peak memory.
///
/// Sendable by its lock: `spare` is read and written only while `lock` is held. (An `NSLock` rather
/// than `Mutex`, whose futex ThreadSanitizer cannot see on Linux.)
final class PicturePool: @unchecked Sendable {
    let width: Int
    let height: Int
    /// The format of the pictures the pool makes and keeps.
    let format: PictureFormat
    private let capacity: Int
    private let lock = NSLock()
    private var spare: [YUVPicture] = []

    init(width: Int, height: Int, format: PictureFormat = .yuv420, capacity: Int) {
        self.width = width
        self.height = height
        self.format = format
        self.capacity = capacity
    }

    /// A spare picture of the pool's size, or a new one. Its samples are whatever the last frame
    /// left: the converter writes every one.
    func take() -> YUVPicture {
        lock.withLock { spare.popLast() } ?? YUVPicture(width: width, height: height, format: format)
    }

    /// Keeps `picture` for a later frame, if there is room and it is the pool's size.
    func recycle(_ picture: consuming YUVPicture) {
        guard picture.width == width && picture.height == height && picture.format.hasPlanes(of: format) else { return }
        lock.lock()
        defer { lock.unlock() }
        if spare.count < capacity { spare.append(picture) }
    }
}
