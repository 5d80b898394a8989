import Vigil

/// A value shared between a source and the read function it gave its driver, behind a lock.
final class SharedValue<Value: Sendable>: Sendable {
    private let storage: FutexMutex<Value>

    init(_ value: Value) { storage = FutexMutex(value) }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// Reads and changes the value in one step, under the lock; `body` must not call out.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        storage.withLock { body(&$0) }
    }
}
