import Dispatch

/// The serial executor a ``MovieWriter`` runs on: a Dispatch queue of its own instead of Swift's
/// cooperative thread pool.
///
/// The writer's work blocks its thread: x264 waits inside `x264_encoder_encode` until one of its
/// frame threads is free, and the file is written with blocking system calls. The cooperative pool
/// has one thread per core, so on two cores a blocked encoder would leave one thread to decode the
/// images that should be waiting for it.
final class WriterExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "flipbook.movie-writer", qos: .userInitiated)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
