import CLinuxSupport
import Glibc
import Vigil

/// Reports when the wall clock jumps: set (by NTP stepping it, a user) or carried forward by a resume from suspend.
///
/// The monitor keeps a `timerfd` on `CLOCK_REALTIME` armed far in the future with `TFD_TIMER_CANCEL_ON_SET`; when
/// the clock jumps relative to the monotonic clock the kernel cancels the timer and a read fails with `ECANCELED`,
/// which the monitor turns into a ``ClockChange`` and re-arms. The kernel does this for a set and for every resume
/// (`timekeeping_resume()` calls `timerfd_resume()`); the monitor tells them apart by `CLOCK_BOOTTIME −
/// CLOCK_MONOTONIC`, which grows by the time slept on a resume and does not move on a set (``ClockChange/Cause``).
/// Gradual adjustments (`adjtime`, NTP slewing) do not count. Readings are a `PublishSubject` of ``SensorEvent``
/// values, published on the event-loop thread, never under a lock.
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
        /// The running timer's wake detector, which tells a resume from a set.
        var detector: WakeDetector?
    }

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

    public var availability: Availability { CancelOnSetTimer.availability }

    /// Starts watching; concurrent calls start once.
    ///
    /// - Throws: ``SensorError/systemCall(name:target:errno:)`` when the timer cannot be created or armed, or the
    ///   loop's error when it refuses the timer.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            let timer = try CancelOnSetTimer.make()
            let fd = timer.rawValue
            let pair = eventLoop.wakeWatch.clockPair()
            state.withLock { state in
                state.timer = (fd, generation)
                state.detector = WakeDetector(pair)
            }
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

    /// Reads the timer: `ECANCELED` means the clock jumped (a set or a resume, told apart by the clock pair); an
    /// expiry (in a century) just re-arms. Any other error, or a failed re-arm, ends the run and says why.
    private func timerReady(_ fd: Int32, _ generation: UInt64) {
        guard lifecycle.isCurrent(generation) else { return }
        let injected = state.withLock { state in
            defer { state.injectedError = nil }
            return state.injectedError
        }
        let outcome = injected.map(CancelOnSetTimer.outcome(of:)) ?? CancelOnSetTimer.read(fd)
        switch outcome {
        case .nothing:
            return
        case .failed(let error):
            fail(generation, .systemCall(name: "read", target: "CLOCK_REALTIME timerfd", errno: error))
            return
        case .canceled:
            let pair = eventLoop.wakeWatch.clockPair()
            let slept = state.withLock { state -> Duration? in
                guard var detector = state.detector else { return nil }
                defer { state.detector = detector }
                return detector.observe(pair)
            }
            let cause: ClockChange.Cause = slept.map { .resumed(after: $0.asSleptTime) } ?? .set
            let change = Self.noticed(cause: cause)
            deliver(SensorEvent(.event(change), time: change.time))
        case .expired:
            break
        }
        do throws(SensorError) {
            try CancelOnSetTimer.arm(fd)
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

    /// The event for a change noticed now: the time now, on both clocks.
    static func noticed(cause: ClockChange.Cause = .set) -> ClockChange {
        let time = ReadingTime.now()
        let (seconds, attoseconds) = time.wall.components
        return ClockChange(secondsSinceEpoch: Double(seconds) + Double(attoseconds) / 1e18, cause: cause, time: time)
    }
}
