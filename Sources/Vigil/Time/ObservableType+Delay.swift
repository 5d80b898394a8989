extension ObservableType {
    /// Delivers each value `interval` later on `clock`, keeping their order and spacing.
    ///
    /// As in RxSwift, `.finished` is delayed too (it comes `interval` after the upstream finished, after every
    /// value), while a failure is delivered at once and drops the values still waiting. Disposing cancels the
    /// pending timer and drops them too. Values wait in memory: as many as arrive within `interval`. A delayed value
    /// reaches an immediate subscriber on a thread of Swift's global concurrent executor (never under a lock, never
    /// overlapping another callback); choose the thread with the subscriber's ``Delivery``.
    ///
    /// RxSwift: `delay(_:scheduler:)`; Combine: `delay(for:tolerance:scheduler:)`.
    ///
    /// - Parameters:
    ///   - interval: How much later each value is delivered; zero or less delivers as soon as the timer task runs.
    ///   - tolerance: How late the clock may wake the timer, as in `Clock.sleep(until:tolerance:)`.
    ///   - clock: The clock that measures `interval`: `ContinuousClock` by default, a manual clock in tests.
    public func delay(
        for interval: Duration,
        tolerance: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Observable<Element> {
        Observable.clocked(
            asObservable(), machine: DelayMachine(interval: interval), clock: clock, tolerance: tolerance)
    }
}

/// Delay's logic: what waits, in arrival order, each with its deadline; the timer is armed for the oldest.
///
/// Deadlines are arrival plus the same interval, and arrivals come in order, so the queue is in deadline order.
struct DelayMachine<Element: Sendable, Instant: InstantProtocol>: ClockedStateMachine
where Instant.Duration == Duration {
    /// A value, or the upstream's `.finished` (nil), due at `deadline`.
    private struct Entry: Sendable {
        let deadline: Instant
        let value: Element?
    }

    let interval: Duration
    private var waiting = PendingQueue<Entry>()

    init(interval: Duration) {
        self.interval = interval
    }

    mutating func receive(_ event: ClockedEvent<Element>, now: Instant) -> ClockedStep<Element, Instant> {
        switch event {
        case .start:
            return .none
        case .value(let value):
            return enqueue(Entry(deadline: now.advanced(by: interval), value: value))
        case .completion(.finished):
            return enqueue(Entry(deadline: now.advanced(by: interval), value: nil))
        case .completion(let failure):
            return .end(failure)
        case .timer:
            return releaseDue(now: now)
        }
    }

    private mutating func enqueue(_ entry: Entry) -> ClockedStep<Element, Instant> {
        let wasIdle = waiting.isEmpty
        waiting.append(entry)
        return wasIdle ? .arm(entry.deadline) : .none
    }

    /// Releases the oldest entry (its timer fired) and every later one already due, then arms for the next.
    private mutating func releaseDue(now: Instant) -> ClockedStep<Element, Instant> {
        var step = ClockedStep<Element, Instant>.none
        while let entry = waiting.popFirst() {
            guard let value = entry.value else {
                step.completion = .finished
                return step
            }
            step.values.append(value)
            guard let next = waiting.first else { break }
            if next.deadline > now {
                step.timer = .arm(next.deadline)
                break
            }
        }
        return step
    }
}
