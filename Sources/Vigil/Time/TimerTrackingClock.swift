/// A clock that follows the timers of Vigil's time-based operators, so that a test can advance it one deadline at a
/// time and wait, at each step, until every timer it woke has finished its work (VigilTesting's `ManualClock`).
///
/// An operator calls ``timerArmed()`` before it starts a timer task, sleeps inside ``TimerTracking/isTracked``,
/// and calls ``timerSettled()`` once it has handled a firing. Only tests need it, so it is not public.
package protocol TimerTrackingClock: Sendable {
    /// A timer task was created; its sleep on this clock begins soon, inside ``TimerTracking/isTracked``.
    func timerArmed()

    /// A timer whose sleep this clock ended (not by cancellation) has finished handling its firing.
    func timerSettled()
}

/// Marks the sleeps of operator timers for a ``TimerTrackingClock``.
package enum TimerTracking {
    /// True inside the sleep of a timer that called ``TimerTrackingClock/timerArmed()``.
    @TaskLocal package static var isTracked = false
}
