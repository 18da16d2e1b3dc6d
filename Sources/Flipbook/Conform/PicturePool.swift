import Synchronization

/// Pictures the encoder has finished with, kept for the next frames: each frame then reuses three
/// planes instead of allocating them (and having the kernel zero fresh pages), which at 1080p is
/// several percent of the in-memory path's time.
///
/// Holds at most `capacity` spare pictures, no more than were already in use at once, so it does
/// not raise peak memory.
final class PicturePool: Sendable {
    let width: Int
    let height: Int
    private let capacity: Int
    private let spare = Mutex<[YUVPicture]>([])

    init(width: Int, height: Int, capacity: Int) {
        self.width = width
        self.height = height
        self.capacity = capacity
    }

    /// A spare picture of the pool's size, or a new one. Its samples are whatever the last frame
    /// left: the converter writes every one.
    func take() -> YUVPicture {
        spare.withLock { $0.popLast() } ?? YUVPicture(width: width, height: height)
    }

    /// Keeps `picture` for a later frame, if there is room and it is the pool's size.
    func recycle(_ picture: consuming YUVPicture) {
        guard picture.width == width && picture.height == height else { return }
        var returned: YUVPicture? = consume picture
        spare.withLock { pictures in
            if pictures.count < capacity, let picture = returned.take() { pictures.append(picture) }
        }
    }
}
