import Dispatch

extension ObservableType {
    /// Delivers at most one value per `interval` on `clock`.
    ///
    /// A value arriving while idle is delivered at once and opens a window of `interval`; values arriving inside
    /// the window are held (the newest if `latest`, else the first), and the held one is delivered when the window
    /// closes, opening the next. When the upstream finishes, a held value is delivered at once, then `.finished`; a
    /// failure is delivered at once and drops it. Disposing cancels the pending timer. A value the timer releases
    /// reaches an immediate subscriber on a thread of Swift's global concurrent executor (never under a lock, never
    /// overlapping another callback); choose the thread with the subscriber's ``Delivery``.
    ///
    /// RxSwift: `throttle(_:latest:scheduler:)`; Combine: `throttle(for:scheduler:latest:)`;
    /// swift-async-algorithms: `throttle(for:clock:latest:)`.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two delivered values.
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

    /// Delivers at most one value per `interval`, timed on a `ContinuousClock`.
    ///
    /// The same as ``throttle(for:clock:latest:)``, except that the operator's work runs on `queue`: values pass
    /// through it serially and the timer fires on it, so an immediate subscriber is called on `queue`.
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

/// Throttle's logic: whether a window is open and what it holds.
struct ThrottleMachine<Element: Sendable, Instant: InstantProtocol>: ClockedStateMachine
where Instant.Duration == Duration {
    let interval: Duration
    let latest: Bool
    private var isOpen = false
    private var held: Element?

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
            // The window closes; a held value is delivered and opens the next one.
            guard let value = held else {
                isOpen = false
                return .none
            }
            held = nil
            return ClockedStep(timer: .arm(now.advanced(by: interval)), values: [value])
        case .completion(.finished):
            var step = ClockedStep<Element, Instant>.end(.finished)
            if let held { step.values = [held] }
            return step
        case .completion(let failure):
            return .end(failure)
        }
    }
}
