import Foundation

/// How long a test may let a piece of work take, in seconds.
///
/// A sanitized build (`FLIPBOOK_SANITIZED` set by `make test-asan` and `make test-tsan`) runs
/// Flipbook's own code several times slower than a plain debug build, so every budget is
/// widened there; what the budget tells apart (bounded work against work that grows with a
/// hostile count) still differs by far more than the widening.
package enum TimeBudget {
    /// How much slower a sanitized build may be than a plain one.
    package static let sanitizedSlowdown: Double = 8

    /// `seconds` in a plain build, widened in a sanitized one.
    package static func seconds(_ seconds: Double) -> Double {
        ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil
            ? seconds : seconds * sanitizedSlowdown
    }

    /// The seconds `work` takes.
    package static func measure<T>(_ work: () throws -> T) rethrows -> (T, Double) {
        let started = Date()
        let value = try work()
        return (value, Date().timeIntervalSince(started))
    }
}
