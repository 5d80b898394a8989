extension Observable where Element == Int {
    /// Delivers 0, 1, 2, … one `period` apart on `clock`, the first one `period` after subscribing; never ends.
    ///
    /// Each subscription counts from 0 on a timer of its own; disposing it cancels the timer. Ticks are due at
    /// whole periods from the start, so they do not drift; a tick that comes late (a suspended machine, a slow
    /// executor, a manual clock advanced past several periods) is delivered once, and the next one is due a period
    /// after it: missed ticks are not made up in a burst. A `period` below 100 µs counts as 100 µs, as Foundation's
    /// `Timer` does, so a zero period cannot spin. Ticks reach an immediate subscriber on a thread of Swift's global
    /// concurrent executor (never under a lock, never overlapping); choose the thread with the ``Delivery``.
    ///
    /// RxSwift: `Observable<Int>.interval(_:scheduler:)`; Combine: `Timer.publish(every:on:in:)`.
    ///
    /// - Parameters:
    ///   - period: The time between two ticks.
    ///   - tolerance: How late the clock may wake the timer, as in `Clock.sleep(until:tolerance:)`.
    ///   - clock: The clock that measures `period`: `ContinuousClock` by default, a manual clock in tests.
    public static func interval(
        _ period: Duration,
        tolerance: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Observable<Int> {
        let period = max(period, minimumTickPeriod)
        return timer(period, period: period, tolerance: tolerance, clock: clock)
    }

    /// Delivers 0 once `dueTime` has passed on `clock`, then finishes; with a `period`, goes on with 1, 2, … one
    /// `period` apart instead, and never ends.
    ///
    /// Each subscription has a timer of its own; disposing it cancels the timer. A `dueTime` of zero or less
    /// delivers 0 as soon as the timer task runs. With a `period`, ticks follow the rules of
    /// ``interval(_:tolerance:clock:)``.
    ///
    /// RxSwift: `Observable<Int>.timer(_:period:scheduler:)`.
    ///
    /// - Parameters:
    ///   - dueTime: The time from subscribing to the first tick.
    ///   - period: The time between later ticks; nil for a single tick.
    ///   - tolerance: How late the clock may wake the timer, as in `Clock.sleep(until:tolerance:)`.
    ///   - clock: The clock that measures both: `ContinuousClock` by default, a manual clock in tests.
    public static func timer(
        _ dueTime: Duration,
        period: Duration? = nil,
        tolerance: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) -> Observable<Int> {
        Observable.clocked(
            nil, machine: TickMachine(dueTime: dueTime, period: period), clock: clock, tolerance: tolerance)
    }
}

/// The shortest period of `interval` and `timer`, as Foundation's `Timer` has: a zero period must not spin.
let minimumTickPeriod = Duration.microseconds(100)

/// The logic of `interval` and `timer`: the tick count and the next deadline.
struct TickMachine<Instant: InstantProtocol>: ClockedStateMachine where Instant.Duration == Duration {
    let dueTime: Duration
    let period: Duration?
    private var count = 0
    private var deadline: Instant?

    init(dueTime: Duration, period: Duration?) {
        self.dueTime = dueTime
        self.period = period.map { max($0, minimumTickPeriod) }
    }

    mutating func receive(_ event: ClockedEvent<Never>, now: Instant) -> ClockedStep<Int, Instant> {
        switch event {
        case .start:
            let due = now.advanced(by: dueTime)
            deadline = due
            return .arm(due)
        case .timer:
            let tick = count
            count += 1
            guard let period, let due = deadline else { return ClockedStep(values: [tick], completion: .finished) }
            var next = due.advanced(by: period)
            if next <= now { next = now.advanced(by: period) }
            deadline = next
            return ClockedStep(timer: .arm(next), values: [tick])
        case .value, .completion:
            return .none
        }
    }
}
