/// How to follow a numbered image sequence that a renderer is still writing.
///
/// Images are taken in number order as each one is complete (written and closed, or renamed into
/// the folder). Following ends when ``lastNumber`` has been taken, when nothing new has arrived for
/// ``timeout``, or when a ``FollowStop`` is requested; the movie is then finished with every image
/// taken.
///
/// ```swift
/// var follow = FollowPolicy()
/// follow.lastNumber = 240                 // the renderer's last frame
/// follow.timeout = .seconds(120)          // or give up after two quiet minutes
/// ```
public struct FollowPolicy: Sendable, Hashable {
    /// How Flipbook learns that an image is complete.
    public enum Watching: Sendable, Hashable {
        /// Events from the kernel (Linux inotify: a file closed after writing, or renamed into the
        /// folder), falling back to ``polling`` when they are not available.
        case events
        /// Listing the folder every ``FollowPolicy/pollInterval``: an image is complete when it ends
        /// as its format ends (PNG `IEND`, JPEG end of image, WebP's RIFF length) and its size and
        /// time have not changed since the listing before.
        case polling
    }

    /// The number of the last image; following ends once it is taken. `nil`: end on ``timeout``.
    public var lastNumber: Int?
    /// How long to wait for anything new (the first image included) before ending (default 60 s).
    public var timeout: Duration
    /// How long a missing number is waited for once a later number has arrived, before the gap
    /// policy decides about it; `nil` means ``timeout``. At the end every gap is decided at once.
    public var gapGrace: Duration?
    /// How Flipbook learns that an image is complete (default ``Watching/events``).
    public var watching: Watching
    /// How often the folder is listed when polling (default 0.1 s).
    public var pollInterval: Duration

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - lastNumber: The number of the last image, or `nil` to end on `timeout`.
    ///   - timeout: How long to wait for anything new before ending.
    ///   - gapGrace: How long a missing number is waited for once a later one arrived; `nil`: `timeout`.
    ///   - watching: Kernel events (falling back to polling) or polling.
    ///   - pollInterval: How often the folder is listed when polling.
    public init(
        lastNumber: Int? = nil, timeout: Duration = .seconds(60), gapGrace: Duration? = nil,
        watching: Watching = .events, pollInterval: Duration = .milliseconds(100)
    ) {
        self.lastNumber = lastNumber
        self.timeout = timeout
        self.gapGrace = gapGrace
        self.watching = watching
        self.pollInterval = pollInterval
    }
}
