import Dispatch
import Vigil

/// Records every value a subject publishes, from any thread, and waits for a condition on them.
final class IIOReadingRecorder<Value: Sendable>: Sendable {
    private let storage = FutexMutex<[Value]>([])
    private let subscription = FutexMutex<Subscription?>(nil)

    /// Subscribes to `source` (immediate delivery) and records from now on.
    init(_ source: some ObservableType<Value>) {
        let handle = source.subscribe { [weak self] value in self?.storage.withLock { $0.append(value) } }
        subscription.withLock { $0 = handle }
    }

    /// Everything recorded so far.
    var values: [Value] { storage.withLock { $0 } }

    /// Waits up to `timeout` seconds until `condition` holds for the recorded values; returns whether it did.
    func wait(timeout: Double = 10, until condition: ([Value]) -> Bool) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            if condition(values) { return true }
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(2))
        }
        return condition(values)
    }

    /// Waits until a recorded value satisfies `predicate` and returns the first that does.
    func first(timeout: Double = 10, where predicate: (Value) -> Bool) -> Value? {
        _ = wait(timeout: timeout) { $0.contains(where: predicate) }
        return values.first(where: predicate)
    }
}
