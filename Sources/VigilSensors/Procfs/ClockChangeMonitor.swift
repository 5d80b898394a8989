import CLinuxSupport
import Glibc
import Vigil

/// Reports when the wall clock is set (by NTP stepping it, a user, or a resume that corrects it).
///
/// The monitor keeps a `timerfd` on `CLOCK_REALTIME` armed far in the future with `TFD_TIMER_CANCEL_ON_SET`; when
/// the clock is set discontinuously the kernel cancels the timer and a read fails with `ECANCELED`, which the monitor
/// turns into a ``ClockChange`` and re-arms. Gradual adjustments (`adjtime`, NTP slewing) do not count. Readings are
/// a `PublishSubject` of events, published on the event-loop thread, never under a lock.
public final class ClockChangeMonitor: Source {
    private struct State {
        var timer: FileDescriptor?
        var registration: EventLoop.Registration?
        /// The last change published, for ``latest``.
        var latest: ClockChange?
    }

    /// How far ahead the timer is armed; it never fires in practice, and re-arms if it does.
    static let armAhead = 100 * 365 * 24 * 3600

    public let readings = PublishSubject<ClockChange>()
    private let eventLoop: EventLoop
    private let state = FutexMutex(State())

    /// Creates a monitor; nothing is watched until it starts.
    ///
    /// - Parameter eventLoop: The loop that watches the timer.
    public init(eventLoop: EventLoop = .shared) {
        self.eventLoop = eventLoop
    }

    deinit { stopMonitoring() }

    public var name: String { "Clock changes" }
    public var isMonitoring: Bool { state.withLock { $0.registration != nil } }

    public var availability: Availability {
        do {
            _ = try Self.makeTimer()
            return .available
        } catch {
            return .unavailable(reason: .kernelLacksInterface, detail: error.description)
        }
    }

    /// Starts watching.
    ///
    /// - Throws: ``SensorError/systemCall(name:target:errno:)`` when the timer cannot be created or armed.
    public func startMonitoring() throws {
        guard !isMonitoring else { return }
        let timer = try Self.makeTimer()
        let fd = timer.rawValue
        let registration = try eventLoop.register(fileDescriptor: fd, interest: .readable) { [weak self] _ in
            self?.timerReady(fd)
        }
        let keep = state.withLock { state in
            guard state.registration == nil else { return false }
            state.timer = timer
            state.registration = registration
            return true
        }
        if !keep {
            registration.cancel()
            timer.close()
        }
    }

    public func stopMonitoring() {
        let (registration, timer) = state.withLock { state in
            defer {
                state.registration = nil
                state.timer = nil
            }
            return (state.registration, state.timer)
        }
        registration?.cancel()
        timer?.close()
    }

    /// The last change published; `nil` before the first. Kept across stop and start.
    public var latest: ClockChange? { state.withLock { $0.latest } }

    /// Does nothing: a clock change is an event the kernel reports when it happens, and there is no state to re-read.
    public func refresh() {}

    /// Reads the timer: `ECANCELED` means the clock was set; an expiry (in a century) just re-arms.
    private func timerReady(_ fd: Int32) {
        var expirations: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &expirations) { read(fd, $0.baseAddress, 8) }
        let error = count < 0 ? Errno.current : nil
        if error == .wouldBlock || error == .interrupted { return }
        try? Self.arm(fd)
        guard error == .canceled else { return }
        let change = Self.noticed()
        state.withLock { $0.latest = change }
        readings.publish(change)
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
public struct ClockChange: Sendable, Equatable, Encodable, CustomStringConvertible {
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
