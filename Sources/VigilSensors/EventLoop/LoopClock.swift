import Glibc
import Vigil

/// An event loop's clock, type-erased: its time as an offset from the loop's creation, and how to wait for a deadline.
///
/// `ContinuousClock` and `SuspendingClock` are the kernel's `CLOCK_BOOTTIME` and `CLOCK_MONOTONIC`, which a `timerfd`
/// can follow, so the loop arms its one timer descriptor on them. Any other clock (a test's manual clock) is waited
/// for by a task sleeping on it until the earliest deadline.
struct LoopClock: Sendable {
    /// The time since the loop was created.
    let now: @Sendable () -> Duration
    /// The kernel clock a `timerfd` follows for this clock; nil when the loop must sleep on the clock instead.
    let kernelClock: Int32?
    /// Sleeps on the clock until the offset `deadline`; throws when the sleeping task is cancelled.
    let sleep: @Sendable (_ deadline: Duration) async throws -> Void
    /// The clock, when it is a test clock that follows timers (VigilTesting's `ManualClock`).
    let tracking: (any TimerTrackingClock)?

    init<TimeSource: Clock<Duration>>(_ clock: TimeSource) {
        tracking = clock as? any TimerTrackingClock
        switch clock {
        case let continuous as ContinuousClock:
            // Concrete, so reading the time on every wake-up of the loop does not go through generic witnesses.
            (now, sleep) = Self.reading(continuous)
            kernelClock = CLOCK_BOOTTIME
        case let suspending as SuspendingClock:
            (now, sleep) = Self.reading(suspending)
            kernelClock = CLOCK_MONOTONIC
        default:
            (now, sleep) = Self.reading(clock)
            kernelClock = nil
        }
    }

    /// The time since now on `clock`, and a sleep until such an offset.
    private static func reading<TimeSource: Clock<Duration>>(
        _ clock: TimeSource
    ) -> (now: @Sendable () -> Duration, sleep: @Sendable (Duration) async throws -> Void) {
        let origin = clock.now
        return (
            { origin.duration(to: clock.now) },
            { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
        )
    }
}
