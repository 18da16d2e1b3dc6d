import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The signal that interrupted the work, if one did; written by the signal handler, read after.
private final class CaughtSignal: Sendable {
    let number = Mutex<Int32?>(nil)
}

/// Runs `work` in a task that SIGINT (Ctrl-C) or SIGTERM cancels.
///
/// The signals' default action (ending the process at once, leaving temporary files behind) is
/// turned off while the work runs; dispatch signal sources cancel the task instead, so the writer
/// removes its temporary files and leaves an existing destination as it was. With `stopGracefully`
/// the first signal calls it instead (the work ends early with what it has) and a second one cancels.
///
/// - Returns: The work's result, and the signal that arrived before it ended, if one did.
func runInterruptibly<T: Sendable>(
    stopGracefully: (@Sendable () -> Void)? = nil, _ work: @escaping @Sendable () async throws -> T
) async -> (result: Result<T, any Error>, signal: Int32?) {
    let task = Task { try await work() }
    let caught = CaughtSignal()
    let queue = DispatchQueue(label: "flipbook.signals")
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler {
            let first = caught.number.withLock { caught in
                defer { caught = caught ?? number }
                return caught == nil
            }
            if first, let stopGracefully { stopGracefully() } else { task.cancel() }
        }
        source.resume()
        sources.append(source)
    }
    let result = await task.result
    for source in sources { source.cancel() }
    return (result, caught.number.withLock { $0 })
}

/// The name of a signal the tool handles, for messages.
func signalName(_ number: Int32) -> String {
    number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
}
