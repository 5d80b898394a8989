import CLinuxSupport
import Glibc

/// A `timerfd` on `CLOCK_REALTIME` armed far ahead with `TFD_TIMER_CANCEL_ON_SET`: it becomes readable (and its
/// read fails with `ECANCELED`) whenever the wall clock jumps relative to the monotonic clock.
///
/// That is a set of the clock (`clock_settime`, `settimeofday`, NTP stepping it) and also every resume from a
/// suspend: `timekeeping_resume()` in `kernel/time/timekeeping.c` calls `timerfd_resume()`, which cancels these
/// timers "as resume is equivalent to clock_was_set()" (before Linux 5.14 the resume path called `clock_was_set()`
/// itself). ``ClockChangeMonitor`` and ``WakeWatch`` each keep one and tell the two apart with ``WakeDetector``.
enum CancelOnSetTimer {
    /// How far ahead the timer is armed; it never fires in practice, and re-arms if it does.
    static let armAhead = 100 * 365 * 24 * 3600

    /// Whether such a timer can be made here (every Linux since 3.0), checked by making one and closing it.
    static var availability: Availability {
        do {
            try make().close()
            return .available
        } catch {
            return .unavailable(reason: .kernelLacksInterface, detail: error.description)
        }
    }

    /// Creates the realtime timer and arms it with cancel-on-set. Wraps `timerfd_create(2)`.
    static func make() throws(SensorError) -> FileDescriptor {
        let raw = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        if raw < 0 { throw SensorError.systemCall(name: "timerfd_create", target: "CLOCK_REALTIME", errno: .current) }
        let timer = FileDescriptor(raw)
        do {
            try arm(raw)
        } catch {
            timer.close()
            throw error
        }
        return timer
    }

    /// Arms the timer far ahead, absolute, cancelled on clock set. Wraps `timerfd_settime(2)`.
    static func arm(_ fd: Int32) throws(SensorError) {
        var spec = itimerspec()
        spec.it_value.tv_sec = time(nil) + armAhead
        let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
        if timerfd_settime(fd, flags, &spec, nil) != 0 {
            throw SensorError.systemCall(name: "timerfd_settime", target: "CLOCK_REALTIME", errno: .current)
        }
    }

    /// What a read of the timer found.
    enum Outcome: Equatable {
        /// Nothing yet (`EAGAIN`, `EINTR`): wait for the next wake-up.
        case nothing
        /// The clock jumped (`ECANCELED`); re-arm before the next wait.
        case canceled
        /// The timer expired (in a century); re-arm.
        case expired
        /// Any other error.
        case failed(Errno)
    }

    /// Reads the timer once. Wraps `read(2)`.
    static func read(_ fd: Int32) -> Outcome {
        var expirations: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &expirations) { Glibc.read(fd, $0.baseAddress, 8) }
        guard count < 0 else { return .expired }
        return outcome(of: .current)
    }

    /// The outcome of a read that failed with `errno`.
    static func outcome(of errno: Errno) -> Outcome {
        switch errno {
        case .wouldBlock, .interrupted: return .nothing
        case .canceled: return .canceled
        default: return .failed(errno)
        }
    }
}
