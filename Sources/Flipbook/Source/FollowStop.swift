import Synchronization

/// A request to stop following a sequence early and finish the movie with the images taken so
/// far, such as on Ctrl-C. Cancelling the task instead discards the movie.
///
/// Pass one to ``MovieWriter/makeMovie(following:to:options:)``
/// and call ``request()`` from anywhere.
public final class FollowStop: Sendable {
    private let requested = Atomic<Bool>(false)

    /// Creates a stop that has not been requested.
    public init() {}

    /// Asks the follower to end: images being decoded are still added, nothing new is taken, and
    /// the movie is finished. Takes effect within a fraction of a second.
    public func request() {
        requested.store(true, ordering: .relaxed)
    }

    /// Whether ``request()`` has been called.
    public var isRequested: Bool {
        requested.load(ordering: .relaxed)
    }
}
