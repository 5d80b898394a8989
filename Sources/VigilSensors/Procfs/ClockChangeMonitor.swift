import CLinuxSupport
import Glibc
import Vigil

/// Reports when the wall clock is set (by NTP stepping it, a user, or a resume that corrects it).
///
/// The monitor keeps a `timerfd` on `CLOCK_REALTIME` armed far in the future with `TFD_TIMER_CANCEL_ON_SET`; when
/// the clock is set discontinuously the kernel cancels the timer and a read fails with `ECANCELED`, which the monitor
/// turns into a ``ClockChange`` and re-arms. Gradual adjustments (`adjtime`, NTP slewing) do not count. Readings are
/// a `PublishSubject` of ``SensorEvent`` values, published on the event-loop thread, never under a lock.
///
/// Nothing is swallowed: when the timer cannot be read (an error other than "nothing yet") or re-armed, the monitor
/// publishes ``SensorEvent/Kind/unavailable(reason:)`` with the error, closes the timer and stops; start it again to
/// resume watching.
public final class ClockChangeMonitor: Source {
    private struct State {
        /// The running timer's descriptor and run, for ``simulateReadError(_:)``.
        var timer: (fd: Int32, generation: UInt64)?
        /// An error the next wake-up reports instead of reading.
        var injectedError: Errno?
        /// The last event published, for ``latest``.
        var latest: SensorEvent<ClockChange>?
    }

    /// How far ahead the timer is armed; it never fires in practice, and re-arms if it does.
    static let armAhead = 100 * 365 * 24 * 3600

    /// Clock changes as they happen, and why the monitor stopped when it did.
    public let readings = PublishSubject<SensorEvent<ClockChange>>()
    private let eventLoop: EventLoop
    private let lifecycle = Lifecycle()
    private let state = FutexMutex(State())

    /// Creates a monitor; nothing is watched until it starts.
    ///
    /// - Parameter eventLoop: The loop that watches the timer.
    public init(eventLoop: EventLoop = .shared) {
        self.eventLoop = eventLoop
    }

    deinit { stopMonitoring() }

    public var name: String { "Clock changes" }
    public var isMonitoring: Bool { lifecycle.isRunning }

    public var availability: Availability {
        do {
            _ = try Self.makeTimer()
            return .available
        } catch {
            return .unavailable(reason: .kernelLacksInterface, detail: error.description)
        }
    }

    /// Starts watching; concurrent calls start once.
    ///
    /// - Throws: ``SensorError/systemCall(name:target:errno:)`` when the timer cannot be created or armed, or the
    ///   loop's error when it refuses the timer.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            let timer = try Self.makeTimer()
            let fd = timer.rawValue
            state.withLock { $0.timer = (fd, generation) }
            try lifecycle.watch(timer, on: eventLoop, interest: .readable, generation: generation) { [weak self] _ in
                self?.timerReady(fd, generation)
            }
        }
    }

    /// Stops watching and closes the timer.
    public func stopMonitoring() { lifecycle.stop() }

    /// The last event published; `nil` before the first. Kept across stop and start.
    public var latest: SensorEvent<ClockChange>? { state.withLock { $0.latest } }

    /// Does nothing: a clock change is an event the kernel reports when it happens, and there is no state to re-read.
    public func refresh() {}

    /// Makes the next wake-up fail with `errno`, as if `read(2)` of the timer had, so tests can watch the monitor say
    /// why it stopped.
    package func simulateReadError(_ errno: Errno) {
        let timer = state.withLock { state -> (fd: Int32, generation: UInt64)? in
            guard let timer = state.timer, lifecycle.isCurrent(timer.generation) else { return nil }
            state.injectedError = errno
            return timer
        }
        guard let timer else { return }
        do throws(SensorError) {
            let wake = try eventLoop.schedule(after: .zero) { [weak self] in
                self?.timerReady(timer.fd, timer.generation)
            }
            lifecycle.keep(timer.generation) { wake.cancel() }
        } catch {
            fail(timer.generation, error)
        }
    }

    /// Reads the timer: `ECANCELED` means the clock was set; an expiry (in a century) just re-arms. Any other error,
    /// or a failed re-arm, ends the run and says why.
    private func timerReady(_ fd: Int32, _ generation: UInt64) {
        guard lifecycle.isCurrent(generation) else { return }
        let injected = state.withLock { state in
            defer { state.injectedError = nil }
            return state.injectedError
        }
        var expirations: UInt64 = 0
        let count = injected == nil ? withUnsafeMutableBytes(of: &expirations) { read(fd, $0.baseAddress, 8) } : -1
        let error = count < 0 ? (injected ?? Errno.current) : nil
        if error == .wouldBlock || error == .interrupted { return }
        if let error, error != .canceled {
            fail(generation, .systemCall(name: "read", target: "CLOCK_REALTIME timerfd", errno: error))
            return
        }
        if error == .canceled {
            let change = Self.noticed()
            deliver(SensorEvent(.event(change), time: change.time))
        }
        do throws(SensorError) {
            try Self.arm(fd)
        } catch {
            fail(generation, error)
        }
    }

    /// Ends `generation`'s run (closing its timer) and publishes why, unless the run is over already.
    private func fail(_ generation: UInt64, _ error: SensorError) {
        guard lifecycle.end(generation) else { return }
        deliver(.unavailable(reason: "\(error); clock changes are not watched until the monitor is started again"))
    }

    /// Remembers `event` as the latest, then publishes it, never under the lock.
    private func deliver(_ event: SensorEvent<ClockChange>) {
        state.withLock { $0.latest = event }
        readings.publish(event)
    }

    /// Creates the realtime timer and arms it with cancel-on-set. Wraps `timerfd_create(2)`.
    static func makeTimer() throws(SensorError) -> FileDescriptor {
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

    /// The event for a change noticed now: the time now, on both clocks.
    static func noticed() -> ClockChange {
        let time = ReadingTime.now()
        let (seconds, attoseconds) = time.wall.components
        return ClockChange(secondsSinceEpoch: Double(seconds) + Double(attoseconds) / 1e18, time: time)
    }
}

/// The wall clock was set; the wall-clock time just after, in seconds since the Unix epoch (UTC).
public struct ClockChange: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// Seconds since 1970-01-01 00:00:00 UTC, read just after the change was noticed.
    public let secondsSinceEpoch: Double
    /// When the change was noticed (its ``ReadingTime/wall`` is ``secondsSinceEpoch``, to the nanosecond).
    public let time: ReadingTime

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - secondsSinceEpoch: The wall-clock time just after the change, in seconds since the Unix epoch.
    ///   - time: When the change was noticed; now by default.
    public init(secondsSinceEpoch: Double, time: ReadingTime = .now()) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.time = time
    }

    public var description: String {
        // Converted only within ±1e15 s (about 30 million years), so no value of the public initializer traps.
        guard secondsSinceEpoch.isFinite, abs(secondsSinceEpoch) < 1e15 else {
            return "wall clock set; now \(secondsSinceEpoch) s since the epoch"
        }
        var seconds = time_t(secondsSinceEpoch.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let date = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
        return "wall clock set; now \(date) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }
}
