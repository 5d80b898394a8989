import Synchronization

/// A value behind a lock, in a class so escaping closures can share it (a `Mutex` cannot be captured by them).
@usableFromInline
final class LockedValue<Value: Sendable>: Sendable {
    @usableFromInline let mutex: Mutex<Value>

    @inlinable
    init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value under the lock; `body` must not call user code.
    @inlinable
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
