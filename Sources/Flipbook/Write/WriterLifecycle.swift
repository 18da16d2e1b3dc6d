/// The states of a ``MovieWriter`` and the moves between them, as a value with no I/O: each event
/// returns what the writer must do, so the rules are tested without threads.
///
/// ```
/// writing(idle) ──frameAdmitted──► writing(encoding) ──encodeSucceeded──► writing(idle)
///    │   ▲                                │
///    │   └── a frame or finish waits ◄────┘ while a frame is encoding
///    ├──beginFinish──► finishing ──finishSucceeded──► finished
///    ├──fail (encoder, disk; also while finishing)──► failed: output discarded, the failure thrown by every later call
///    └──cancel (also from failed or finishing)──► cancelled: output discarded
/// ```
///
/// One frame at a time is encoded in the background; a frame or `finish` that arrives meanwhile
/// waits for it, and then sees its failure, if any, as the writer's.
struct WriterLifecycle: Sendable {
    enum State: Sendable, Equatable {
        /// Taking frames; `encoding` while the last admitted frame is being encoded.
        case writing(encoding: Bool)
        /// Draining the encoder and writing the index; no frame may come in.
        case finishing
        case finished
        case failed
        case cancelled
    }

    /// What a frame or `finish` that asks to go ahead must do.
    enum Admission: Sendable, Equatable {
        /// Go ahead now.
        case proceed
        /// Wait for the frame being encoded, then ask again.
        case waitForEncode
        /// Throw this error.
        case refuse(FlipbookError)
    }

    /// What the writer must do with its output after a move.
    enum Cleanup: Sendable, Equatable {
        case none
        /// Remove the temporary files.
        case discardOutput
    }

    private(set) var state: State = .writing(encoding: false)
    /// The first failure inside the pipeline; later failures are consequences of it.
    private(set) var failure: FlipbookError?

    /// A frame asks to be admitted.
    func admitFrame() -> Admission {
        switch state {
        case .writing(encoding: false): .proceed
        case .writing(encoding: true): .waitForEncode
        default: .refuse(refusal(for: "append"))
        }
    }

    /// The admitted frame's time was scheduled; it is now being encoded.
    mutating func frameAdmitted() {
        precondition(state == .writing(encoding: false), "frameAdmitted() in state \(state)")
        state = .writing(encoding: true)
    }

    /// Whether the background encode of the admitted frame should run (not if the writer was
    /// cancelled or failed meanwhile).
    var mayEncode: Bool { state == .writing(encoding: true) }

    /// The admitted frame is encoded and stored.
    mutating func encodeSucceeded() {
        if state == .writing(encoding: true) { state = .writing(encoding: false) }
    }

    /// `finish` asks to go ahead; on `.proceed` the writer is finishing.
    mutating func beginFinish() -> Admission {
        switch state {
        case .writing(encoding: false):
            state = .finishing
            return .proceed
        case .writing(encoding: true): return .waitForEncode
        default: return .refuse(refusal(for: "finish"))
        }
    }

    /// The movie is complete.
    mutating func finishSucceeded() {
        precondition(state == .finishing, "finishSucceeded() in state \(state)")
        state = .finished
    }

    /// A failure of the encoder or the disk, while encoding or finishing.
    mutating func fail(_ error: FlipbookError) -> Cleanup {
        switch state {
        case .writing, .finishing:
            state = .failed
            failure = error
            return .discardOutput
        case .finished, .failed, .cancelled:
            return .none
        }
    }

    /// The caller stops the writer.
    mutating func cancel() -> Cleanup {
        switch state {
        case .writing, .finishing:
            state = .cancelled
            return .discardOutput
        case .failed:
            // The output went with the failure.
            state = .cancelled
            return .none
        case .finished, .cancelled:
            return .none
        }
    }

    /// Throws unless the writer is taking frames (for calls that do not wait for an encode).
    func checkWritable(for call: String) throws {
        if case .writing = state { return }
        throw refusal(for: call)
    }

    /// Why `call` cannot be made in this state.
    private func refusal(for call: String) -> FlipbookError {
        switch state {
        case .failed:
            return failure!
        case .finishing:
            return .calledWhileFinishing(call)
        case .finished:
            return .calledAfterFinish(call)
        case .cancelled:
            return .calledAfterCancel(call)
        case .writing:
            preconditionFailure("\(call) refused while writing")
        }
    }
}
