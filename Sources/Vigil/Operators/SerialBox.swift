/// The state of one operator for one subscription, behind the package's lock.
///
/// A subscription's callbacks never overlap (its source serializes them), so the lock is never contended: taking it
/// costs one uncontended compare-and-swap and one store per value. It is what tells the compiler, and
/// ThreadSanitizer, that each callback sees the state the previous one left, instead of a type that is only
/// asserted to be safe.
@usableFromInline
final class SerialBox<Value: Sendable>: Sendable {
    @usableFromInline let storage: FutexMutex<Value>

    @inlinable
    init(_ value: Value) {
        storage = FutexMutex(value)
    }

    /// Runs `body` with the value; called from the serialized callbacks of the subscription that owns this box.
    @inlinable
    func withValue<Result>(_ body: (inout Value) -> Result) -> Result {
        storage.withLock { value in body(&value) }
    }
}
