import Synchronization
import Vigil

/// A clock whose time moves only when a test advances it, for testing time-based operators without sleeping.
///
/// Pass it where an operator takes a clock (`debounce(for:clock:)`, `Observable.interval(_:clock:)`, …). Its time
/// starts at zero and moves only through ``advance(by:)`` and ``advance(to:)``, which step from one deadline to the
/// next, like RxTest's `TestScheduler`: at each step the clock stands exactly at that deadline, wakes the sleepers
/// due then, and waits until every Vigil operator timer it woke has finished its work (its values delivered to
/// immediate subscribers), and until every timer an operator started meanwhile is asleep, before the next step.
/// So a test publishes, advances, and checks exact outputs at exact instants, with no sleeping:
///
/// ```swift
/// let clock = ManualClock()
/// let subject = PublishSubject<Int>()
/// let subscription = subject.debounce(for: .milliseconds(50), clock: clock).subscribe { print(clock.now, $0) }
/// subject.publish(1)
/// await clock.advance(by: .milliseconds(50))   // prints "ManualClock+0.05 seconds 1"
/// ```
///
/// Other tasks may sleep on it too: they are woken at their deadline, but the clock does not wait for what they do
/// next (use ``waitForSleepers(_:timeout:)`` to know they are asleep). Thread-safe: sleep, read ``now`` and
/// advance from any thread or task. A sleep whose task is cancelled throws `CancellationError` at once and stops
/// counting as a sleeper. The shape of swift-async-algorithms' test `ManualClock` and of RxTest's
/// `TestScheduler`, on `Swift.Duration`.
public final class ManualClock: Clock, Sendable {
    /// A point in a manual clock's time: how far it is from the clock's start.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock's start.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` after this one.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`; negative when `other` is earlier.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        public var description: String {
            "ManualClock+\(offset)"
        }
    }

    /// How long, in real time, an advance waits for operator timers to settle before it goes on anyway: a bound,
    /// so that an operator that never settles fails its test instead of hanging it. Generous, because a timer task
    /// needs a thread of the concurrency pool, which other tests running in parallel may hold for seconds.
    static var settleLimit: Duration { .seconds(120) }

    private let state = FutexMutex(ManualClockState())
    private let settleTimeoutCount = Atomic(0)

    /// How many times an advance gave up waiting for operator timers to settle (see ``advance(to:)``): zero unless an
    /// operator's timer is one this clock cannot follow, or the machine starved the timers for two minutes.
    package var settleTimeouts: Int { settleTimeoutCount.load(ordering: .relaxed) }

    /// Creates a clock at its start, with no sleepers.
    public init() {}

    /// The clock's current time; it moves only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// The clock has no resolution limit: every deadline is kept exactly.
    public var minimumResolution: Duration {
        .zero
    }

    /// How many sleeps are waiting for their deadline now.
    public var sleeperCount: Int {
        state.withLock { $0.sleeperCount }
    }

    /// Sleeps until the clock has been advanced to `deadline` (returns at once if it already has).
    ///
    /// - Parameters:
    ///   - deadline: When to wake up.
    ///   - tolerance: Ignored: a manual clock wakes sleepers exactly at their deadline.
    /// - Throws: `CancellationError` if the task is cancelled before the deadline.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await wait(for: .deadline(deadline, tracked: TimerTracking.isTracked))
    }

    /// Moves the clock forward by `duration`, one deadline at a time; see ``advance(to:)``.
    ///
    /// - Returns: How many sleepers it woke.
    @discardableResult
    public func advance(by duration: Duration) async -> Int {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves the clock forward to `instant` (never backwards), one deadline at a time, waking the sleepers due.
    ///
    /// First it waits until the operator timers already woken have settled and those just started are asleep (for
    /// at most two minutes of real time, so that a broken operator fails its test instead of hanging it).
    /// Then, while a sleeper is due by `instant`, it moves ``now`` to the earliest such deadline, wakes every
    /// sleeper due then (in the order they began sleeping), and waits again for the operator timers to settle, so
    /// a timer that an operator arms during a step (an interval's next tick) is woken at its own deadline in a later
    /// step. Finally ``now`` is `instant`.
    ///
    /// - Returns: How many sleepers it woke; zero means no timer fired, so nothing that waits on this clock ran.
    @discardableResult
    public func advance(to instant: Instant) async -> Int {
        var woken = 0
        while true {
            if await !wait(for: .settled, timeout: Self.settleLimit) {
                settleTimeoutCount.wrappingAdd(1, ordering: .relaxed)
            }
            let released = state.withLock { $0.step(toward: instant) }
            resume(released)
            guard !released.sleepers.isEmpty else { return woken }
            woken += released.sleepers.count
        }
    }

    /// Waits until exactly `count` sleeps are waiting on this clock, or until `timeout` of real time has passed.
    ///
    /// For tasks of a test's own that sleep on the clock: ``advance(to:)`` already waits for operator timers.
    ///
    /// - Parameters:
    ///   - count: How many sleepers to wait for.
    ///   - timeout: The longest real (not manual) time to wait, so that a test that goes wrong fails instead of
    ///     hanging.
    /// - Returns: Whether `count` sleepers were waiting before the timeout (false also if the task was cancelled).
    public func waitForSleepers(_ count: Int, timeout: Duration = .seconds(10)) async -> Bool {
        await wait(for: .sleeperCount(count), timeout: timeout)
    }

    /// Waits until `condition` holds or `timeout` of real time passed; returns whether it held.
    private func wait(for condition: ManualClockState.Condition, timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await self.wait(for: condition)) != nil }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
    }

    /// Suspends until `condition` holds; cancellation-aware.
    private func wait(for condition: ManualClockState.Condition) async throws {
        let id = state.withLock { $0.reserve() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: ManualClockState.Continuation) in
                let (isCancelled, released) = state.withLock { $0.register(id, condition, continuation) }
                if isCancelled { continuation.resume(throwing: CancellationError()) }
                resume(released)
            }
        } onCancel: {
            let (cancelled, released) = state.withLock { $0.cancel(id) }
            cancelled?.resume(throwing: CancellationError())
            resume(released)
        }
    }

    /// Resumes, outside the lock, the sleepers in order, then the other waiters.
    private func resume(_ released: ManualClockState.Released) {
        for continuation in released.sleepers + released.waiters { continuation.resume() }
    }
}

extension ManualClock: TimerTrackingClock {
    package func timerArmed() {
        state.withLock { $0.timerArmed() }
    }

    package func timerSettled() {
        resume(state.withLock { $0.timerSettled() })
    }
}
