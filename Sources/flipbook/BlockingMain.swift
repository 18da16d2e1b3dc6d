import Dispatch
import Synchronization

/// The exit status `run` returned, handed from its task to the main thread.
private final class ExitStatus: Sendable {
    let value = Atomic<Int32>(0)
}

/// Runs `work` on the cooperative pool while the main thread waits for its exit status.
///
/// An async top level would park the main thread in `dispatch_main`, which ends it with
/// `pthread_exit` and sleeps in `sigsuspend`; valgrind cannot follow that and aborts, so the tool
/// keeps an ordinary main thread, blocked on a semaphore, and runs under valgrind memcheck
/// (`make test-sanitizers`). Nothing in the tool needs the main actor.
func runBlocking(_ work: @escaping @Sendable () async -> Int32) -> Int32 {
    let finished = DispatchSemaphore(value: 0)
    let status = ExitStatus()
    Task.detached {
        status.value.store(await work(), ordering: .releasing)
        finished.signal()
    }
    finished.wait()
    return status.value.load(ordering: .acquiring)
}
