import Dispatch
import Vigil

/// Waits (with a generous bound) until an observable delivers a value matching a predicate.
///
/// Returns the matching value, or `nil` when none arrived in time; the caller turns `nil` into a test failure.
func firstReading<Readings: ObservableType>(
    of readings: Readings, within seconds: Double = 10, where predicate: @escaping @Sendable (Readings.Element) -> Bool
) -> Readings.Element? {
    let found = FutexMutex<Readings.Element?>(nil)
    let semaphore = DispatchSemaphore(value: 0)
    let subscription = readings.subscribe { value in
        guard predicate(value) else { return }
        let first = found.withLock { found in
            defer { if found == nil { found = value } }
            return found == nil
        }
        if first { semaphore.signal() }
    }
    _ = semaphore.wait(timeout: .now() + seconds)
    subscription.dispose()
    return found.withLock { $0 }
}
