extension ObservableType {
    /// Fails with ``TimeoutError`` if `interval` passes on `clock` without a value: after subscribing, or after the
    /// latest value.
    ///
    /// Values, `.finished` and failures from upstream pass through unchanged and at once. On a timeout the upstream
    /// subscription is disposed at once. Disposing cancels the pending timer. A timeout failure reaches an
    /// immediate subscriber on a thread of Swift's global concurrent executor (never under a lock, never
    /// overlapping another callback).
    ///
    /// Vigil fails, as RxSwift does (`timeout(_:scheduler:)`, failing with `RxError.timeout`); Combine's
    /// `timeout(_:scheduler:)` finishes normally instead unless given a `customError`. To go on with another
    /// stream instead, use ``timeout(_:tolerance:clock:other:)``.
    ///
    /// - Parameters:
    ///   - interval: The longest wait for the first value and between two values.
    ///   - tolerance: How late the clock may wake the timer, as in `Clock.sleep(until:tolerance:)`.
    ///   - clock: The clock that measures `interval`: `ContinuousClock` by default, a manual clock in tests.
    public func timeout(
        _ interval: Duration,
        tolerance: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Observable<Element> {
        Observable.clocked(
            asObservable(), machine: TimeoutMachine(interval: interval, other: nil), clock: clock, tolerance: tolerance)
    }

    /// Switches to `other` if `interval` passes on `clock` without a value: after subscribing, or after the latest
    /// value.
    ///
    /// Until then, values and the end pass through unchanged. On a timeout the upstream subscription is disposed
    /// at once, `other` is subscribed, and its values and end reach the subscriber from then on, with no further
    /// timeout. Disposing cancels the pending timer, or disposes `other`'s subscription.
    ///
    /// RxSwift: `timeout(_:other:scheduler:)`; Combine has no such form.
    ///
    /// - Parameters:
    ///   - interval: The longest wait for the first value and between two values.
    ///   - tolerance: How late the clock may wake the timer, as in `Clock.sleep(until:tolerance:)`.
    ///   - clock: The clock that measures `interval`: `ContinuousClock` by default, a manual clock in tests.
    ///   - other: The stream that takes over on a timeout.
    public func timeout(
        _ interval: Duration,
        tolerance: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        other: some ObservableType<Element>
    ) -> Observable<Element> {
        Observable.clocked(
            asObservable(),
            machine: TimeoutMachine(interval: interval, other: other.asObservable()),
            clock: clock,
            tolerance: tolerance
        )
    }
}

/// Timeout's logic: when the next value is due at the latest.
///
/// One timer per timeout period, not one per value: a value only moves the deadline, and a timer that fires before
/// the deadline re-arms for the rest.
struct TimeoutMachine<Element: Sendable, Instant: InstantProtocol>: ClockedStateMachine
where Instant.Duration == Duration {
    let interval: Duration
    /// Where to switch on a timeout; nil to fail with ``TimeoutError``.
    let other: Observable<Element>?
    private var deadline: Instant?

    init(interval: Duration, other: Observable<Element>?) {
        self.interval = interval
        self.other = other
    }

    mutating func receive(_ event: ClockedEvent<Element>, now: Instant) -> ClockedStep<Element, Instant> {
        switch event {
        case .start:
            let due = now.advanced(by: interval)
            deadline = due
            return .arm(due)
        case .value(let value):
            deadline = now.advanced(by: interval)
            return .emit(value)
        case .timer:
            guard let due = deadline else { return .none }
            guard now >= due else { return .arm(due) }
            guard let other else { return .end(.failed(TimeoutError(interval: interval))) }
            return ClockedStep(fallback: other)
        case .completion(let completion):
            return .end(completion)
        }
    }
}
