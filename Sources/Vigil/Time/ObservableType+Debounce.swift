import Dispatch

extension ObservableType {
    /// Delivers a value only once `interval` has passed on `clock` without a newer one.
    ///
    /// Each value restarts the quiet period; the value still waiting when it ends is delivered then. When the
    /// upstream finishes, a value still waiting is delivered at once, then `.finished`; a failure is delivered at
    /// once and drops it. Disposing cancels the pending timer. A value the timer releases reaches an immediate
    /// subscriber on a thread of Swift's global concurrent executor (never under a lock, never overlapping another
    /// callback); choose the thread with the subscriber's ``Delivery``.
    ///
    /// Compared with the counterparts: RxSwift's `debounce(_:scheduler:)` does the same, finishing and failing
    /// included. Combine's `debounce(for:scheduler:)` drops a waiting value when the upstream finishes; Vigil
    /// delivers it first, as RxSwift does. swift-async-algorithms: `debounce(for:tolerance:clock:)`.
    ///
    /// - Parameters:
    ///   - interval: The quiet time after the latest value before it is delivered.
    ///   - tolerance: How late the clock may wake the timer, as in `Clock.sleep(until:tolerance:)`.
    ///   - clock: The clock that measures `interval`: `ContinuousClock` by default, a manual clock in tests.
    public func debounce(
        for interval: Duration,
        tolerance: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Observable<Element> {
        Observable.clocked(
            asObservable(), machine: DebounceMachine(interval: interval), clock: clock, tolerance: tolerance)
    }

    /// Delivers a value only after `interval` has passed without a newer one, with its work and its timer on `queue`.
    ///
    /// The same semantics as ``debounce(for:tolerance:clock:)``, on a `ContinuousClock`, except that the operator's
    /// work runs on `queue`: values pass through it serially and the timer fires on it (with `asyncAfter`, so it
    /// needs no thread of Swift's concurrency pool), so an immediate subscriber is called on `queue`.
    ///
    /// - Parameters:
    ///   - interval: The quiet time after the latest value before it is delivered.
    ///   - queue: The queue the operator's work and its timer run on.
    public func debounce(_ interval: Duration, on queue: DispatchQueue) -> Observable<Element> {
        Observable.clocked(
            asObservable(),
            machine: DebounceMachine(interval: interval),
            clock: ContinuousClock(),
            tolerance: nil,
            queue: DispatchQueue(label: "vigil.debounce", target: queue)
        )
    }
}

/// Debounce's logic: the value waiting and when it is due.
///
/// One timer per quiet period, not one per value: a newer value only moves the deadline, and a timer that fires
/// before the deadline re-arms for the rest.
struct DebounceMachine<Element: Sendable, Instant: InstantProtocol>: ClockedStateMachine
where Instant.Duration == Duration {
    let interval: Duration
    private var waiting: Element?
    private var deadline: Instant?
    private var isArmed = false

    init(interval: Duration) {
        self.interval = interval
    }

    mutating func receive(_ event: ClockedEvent<Element>, now: Instant) -> ClockedStep<Element, Instant> {
        switch event {
        case .start:
            return .none
        case .value(let value):
            waiting = value
            let due = now.advanced(by: interval)
            deadline = due
            guard !isArmed else { return .none }
            isArmed = true
            return .arm(due)
        case .timer:
            guard let due = deadline, let value = waiting else {
                isArmed = false
                return .none
            }
            guard now >= due else { return .arm(due) }
            isArmed = false
            waiting = nil
            deadline = nil
            return .emit(value)
        case .completion(.finished):
            var step = ClockedStep<Element, Instant>.end(.finished)
            if let waiting { step.values = [waiting] }
            return step
        case .completion(let failure):
            return .end(failure)
        }
    }
}
