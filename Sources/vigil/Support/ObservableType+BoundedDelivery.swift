import Dispatch
import Synchronization
import Vigil

extension ObservableType {
    /// Subscribes on `queue` through a mailbox that keeps the newest `limit` values, and counts what it drops.
    ///
    /// A kernel-fed source can publish faster than a consumer on a queue takes its values (a flood of file events
    /// into `vigil watch`); the core's default `.unbounded` mailbox then grows without bound. This one keeps the
    /// newest `limit` values (``BufferPolicy/newest(_:)``). Each value is numbered as it is published (operators run
    /// on every value, the mailbox drops after them), so a gap in the numbers on delivery is the count of values
    /// dropped: `onDrop` gets it on `queue`, just before the value that follows the gap.
    ///
    /// - Parameters:
    ///   - queue: The serial queue both callbacks run on, never under a lock.
    ///   - limit: The most values waiting for `queue`.
    ///   - onDrop: Called with how many values were dropped since the last delivered one.
    ///   - onNext: Called with each value kept.
    /// - Returns: The subscription.
    func subscribe(
        on queue: DispatchQueue, keepingNewest limit: Int, onDrop: @escaping @Sendable (Int) -> Void,
        _ onNext: @escaping @Sendable (Element) -> Void
    ) -> Subscription {
        let numbers = DeliveryNumbers()
        return map { value in (number: numbers.nextPublished(), value: value) }
            .subscribe(on: .queue(queue, buffer: .newest(limit))) { numbered in
                let dropped = numbers.delivered(numbered.number)
                if dropped > 0 { onDrop(dropped) }
                onNext(numbered.value)
            }
    }
}

/// The numbers given to values as they are published, and the last one delivered.
private final class DeliveryNumbers: Sendable {
    private let published = Atomic<Int>(0)
    private let lastDelivered = FutexMutex<Int>(0)

    /// The next number, 1 for the first value.
    func nextPublished() -> Int { published.add(1, ordering: .relaxed).newValue }

    /// Records that value `number` is delivered; returns how many numbers before it were never delivered.
    func delivered(_ number: Int) -> Int {
        lastDelivered.withLock { last in
            defer { last = max(last, number) }
            return max(0, number - last - 1)
        }
    }
}
