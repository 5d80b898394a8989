import Dispatch

extension ObservableType {
    /// Delivers at most one value per `interval` on `clock`: the first of a burst at once, then one per window.
    ///
    /// A value arriving while idle is delivered at once and opens a window of `interval`. Values arriving inside the
    /// window are held, one at a time: the newest if `latest`, else the first. When the window closes, the held
    /// value is delivered and opens the next window; a window that closes with nothing held ends the throttling, so
    /// the next value is again delivered at once. Two delivered values are never less than `interval` apart.
    ///
    /// When the upstream finishes with a value held, the value is delivered when its window closes, then
    /// `.finished`; with nothing held, `.finished` comes at once. A failure comes at once and drops a held value.
    /// Disposing cancels the pending timer. A value the timer releases reaches an immediate subscriber on a thread of
    /// Swift's global concurrent executor (never under a lock, never overlapping another callback); choose the thread
    /// with the subscriber's ``Delivery``.
    ///
    /// Compared with the counterparts:
    /// - RxSwift's `throttle(_:latest:scheduler:)`: the same with `latest: true`. With `latest: false` RxSwift
    ///   drops the values inside a window and delivers nothing when it closes; Vigil delivers the window's first.
    /// - Combine's `throttle(for:scheduler:latest:)`: the same for values and for finishing (its `latest: false` also
    ///   delivers the window's first value when the window closes). On a failure, Combine delivers a held value at
    ///   the window's end, then the failure; Vigil fails at once and drops it, as RxSwift does.
    /// - swift-async-algorithms' `throttle(for:clock:latest:)` has no timer: a held value waits for the next element
    ///   after the window instead of being delivered when the window closes.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two delivered values, and the length of a window.
    ///   - clock: The clock that measures `interval`: `ContinuousClock` by default, a manual clock in tests.
    ///   - latest: Whether a window delivers the newest value it received (true) or the first (false).
    public func throttle(
        for interval: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        latest: Bool = true
    ) -> Observable<Element> {
        Observable.clocked(
            asObservable(), machine: ThrottleMachine(interval: interval, latest: latest), clock: clock, tolerance: nil)
    }

    /// Delivers at most one value per `interval`, with its work and its timer on `queue`.
    ///
    /// The same semantics as ``throttle(for:clock:latest:)``, on a `ContinuousClock`, except that the operator's
    /// work runs on `queue`: values pass through it serially and the timer fires on it (with `asyncAfter`, so it
    /// needs no thread of Swift's concurrency pool), so an immediate subscriber is called on `queue`.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two delivered values, and the length of a window.
    ///   - queue: The queue the operator's work and its timer run on.
    ///   - latest: Whether a window delivers the newest value it received (true) or the first (false).
    public func throttle(_ interval: Duration, on queue: DispatchQueue, latest: Bool) -> Observable<Element> {
        Observable.clocked(
            asObservable(),
            machine: ThrottleMachine(interval: interval, latest: latest),
            clock: ContinuousClock(),
            tolerance: nil,
            queue: DispatchQueue(label: "vigil.throttle", target: queue)
        )
    }
}

/// Throttle's logic: whether a window is open, what it holds, and whether the upstream has finished meanwhile.
struct ThrottleMachine<Element: Sendable, Instant: InstantProtocol>: ClockedStateMachine
where Instant.Duration == Duration {
    let interval: Duration
    let latest: Bool
    private var isOpen = false
    private var held: Element?
    /// The upstream finished while a value was held: the end follows it when the window closes.
    private var isFinishing = false

    init(interval: Duration, latest: Bool) {
        self.interval = interval
        self.latest = latest
    }

    mutating func receive(_ event: ClockedEvent<Element>, now: Instant) -> ClockedStep<Element, Instant> {
        switch event {
        case .start:
            return .none
        case .value(let value):
            guard isOpen else {
                isOpen = true
                return ClockedStep(timer: .arm(now.advanced(by: interval)), values: [value])
            }
            if latest || held == nil { held = value }
            return .none
        case .timer:
            // The window closes; a held value is delivered and opens the next one, or ends a finished upstream.
            guard let value = held else {
                isOpen = false
                return .none
            }
            held = nil
            guard !isFinishing else { return ClockedStep(values: [value], completion: .finished) }
            return ClockedStep(timer: .arm(now.advanced(by: interval)), values: [value])
        case .completion(.finished):
            guard held != nil else { return .end(.finished) }
            isFinishing = true
            return .none
        case .completion(let failure):
            return .end(failure)
        }
    }
}
