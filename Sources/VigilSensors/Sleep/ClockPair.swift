import Glibc

/// `CLOCK_BOOTTIME` and `CLOCK_MONOTONIC` read at (nearly) one instant: their difference is the time the machine
/// has spent suspended since it booted.
///
/// Both clocks count from boot at the same rate; only the boot-time clock goes on counting while the machine is
/// suspended, so ``suspended`` grows by exactly the time slept at each resume and by nothing else. Setting the wall
/// clock moves neither (that is `CLOCK_REALTIME`), which is how a wake is told apart from a clock set. In a time
/// namespace (`unshare --time --boottime N`) both carry the namespace's offsets, so ``suspended`` includes the
/// boot-time offset, constant for the life of the namespace.
///
/// Package: the sources read it through ``WakeWatch``, and tests inject pairs there.
package struct ClockPair: Sendable, Equatable, CustomStringConvertible {
    /// `CLOCK_BOOTTIME`: time since boot, suspends included.
    package var boottime: Duration
    /// `CLOCK_MONOTONIC`: time since boot, suspends excluded.
    package var monotonic: Duration

    package init(boottime: Duration, monotonic: Duration) {
        self.boottime = boottime
        self.monotonic = monotonic
    }

    /// The time spent suspended since boot (plus a time namespace's boot-time offset): boot time minus monotonic.
    package var suspended: Duration { boottime - monotonic }

    package var description: String { "boottime \(boottime), monotonic \(monotonic)" }

    /// Reads both clocks now.
    ///
    /// The two reads cannot be one, so the monotonic clock is read before and after the boot-time clock and the
    /// midpoint is taken; of up to four tries the one with the tightest bracket wins, so a preemption between two
    /// reads (which would make a few milliseconds look like sleep) does not count.
    package static func now() -> ClockPair {
        var best: (pair: ClockPair, bracket: Duration)?
        for _ in 0..<4 {
            let before = read(CLOCK_MONOTONIC)
            let boottime = read(CLOCK_BOOTTIME)
            let after = read(CLOCK_MONOTONIC)
            let bracket = after - before
            let pair = ClockPair(boottime: boottime, monotonic: before + bracket / 2)
            if best == nil || bracket < best!.bracket { best = (pair, bracket) }
            if bracket < .microseconds(20) { break }
        }
        return best!.pair
    }

    /// Wraps `clock_gettime(2)`; it cannot fail with these clock ids and a valid pointer.
    private static func read(_ clock: clockid_t) -> Duration {
        var spec = timespec()
        _ = clock_gettime(clock, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
