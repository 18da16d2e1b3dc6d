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
/// removes its temporary files and leaves an existing destination as it was.
///
/// - Returns: The work's result, and the signal that cancelled it when one arrived before it ended.
func runInterruptibly<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async -> (
    result: Result<T, any Error>, signal: Int32?
) {
    let task = Task { try await work() }
    let caught = CaughtSignal()
    let queue = DispatchQueue(label: "flipbook.signals")
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler {
            caught.number.withLock { $0 = $0 ?? number }
            task.cancel()
        }
        source.resume()
        sources.append(source)
    }
    let result = await task.result
    for source in sources { source.cancel() }
    let number = caught.number.withLock { $0 }
    if case .success = result { return (result, nil) }
    return (result, number)
}

/// The name of a signal the tool handles, for messages.
func signalName(_ number: Int32) -> String {
    number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
}
