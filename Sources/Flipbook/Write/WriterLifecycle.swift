/// The states of a ``MovieWriter`` and the moves between them, as a value with no I/O.
///
/// writing ──finish──► finished
///    │  └──failure──► failed (the failure is kept and thrown again by every later call)
///    └──cancel──► cancelled
struct WriterLifecycle: Sendable {
    enum State: Sendable, Equatable {
        case writing
        case finished
        case failed
        case cancelled
    }

    private(set) var state: State = .writing
    private(set) var failure: FlipbookError?

    /// Throws unless frames may be appended now.
    func checkWritable(for call: String) throws {
        switch state {
        case .writing: return
        case .failed: throw failure!
        case .finished:
            throw FlipbookError(.invalidState, "\(call) was called after finish(); the movie is already complete")
        case .cancelled:
            throw FlipbookError(.cancelled, "\(call) was called after cancel(); the movie was discarded")
        }
    }

    /// Records the first failure inside the pipeline; later failures are consequences of it.
    mutating func fail(_ error: FlipbookError) {
        guard state == .writing else { return }
        state = .failed
        failure = error
    }

    /// The movie is complete.
    mutating func finished() {
        precondition(state == .writing, "finished() in state \(state)")
        state = .finished
    }

    /// Returns whether there was work to discard.
    mutating func cancel() -> Bool {
        switch state {
        case .writing, .failed:
            state = .cancelled
            return true
        case .finished, .cancelled:
            return false
        }
    }
}
