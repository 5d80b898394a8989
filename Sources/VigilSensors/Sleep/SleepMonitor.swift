import Vigil

/// Sleep and resume: the time this machine spent suspended, each wake with the time slept (told apart from a
/// wall-clock set), and the kernel's suspend statistics.
///
/// The monitor follows its event loop's wake watch: a realtime cancel-on-set `timerfd` that the kernel cancels on
/// every resume (and on every wall-clock set). On each cancellation it compares `CLOCK_BOOTTIME − CLOCK_MONOTONIC`,
/// the time spent suspended, with its last value: the difference grows by the time slept on a resume and does not
/// change when the clock is set, so only a resume counts as a wake, noticed as soon as the loop runs after it. Every
/// ``Source/updateInterval`` (default 60 s) it compares the clocks again, in case a wake-up went missing, and re-reads
/// `<sys>/power/suspend_stats`, which the kernel updates without notifying anyone.
///
/// Readings are a `BehaviorSubject` holding the latest ``SensorReading`` of a ``SleepState``: `pending` until the
/// first read, then a new state after each wake and each change of the statistics. Each wake is also an event on
/// ``transitions`` (``PowerTransition/didWake(after:)``), as is each failed suspend the statistics count
/// (``PowerTransition/suspendFailed(failures:last:)``). Both are published on the event-loop thread (the calling
/// thread for ``refresh()``), never under a lock. The state never becomes `unavailable`: the clocks always read, and
/// a kernel without suspend statistics has ``SleepState/statistics`` nil.
///
/// The same watch makes the sources that cache state (network, power supplies, backlight, displays, device identity)
/// refresh after a wake, whether or not this monitor runs.
public final class SleepMonitor: PollingSource {
    private struct Noticed {
        var wakes = 0
        var lastWake: SleepState.Wake?
        /// The failure count of the last statistics read, to tell when it grew.
        var failures: Int?
        var lastTransition: SensorEvent<PowerTransition>?
    }

    /// The statistics directory read, `<root>/power/suspend_stats`.
    public let statisticsPath: String
    /// Each wake and each failed suspend, as it is noticed; subscribe before starting to miss none.
    public let transitions = PublishSubject<SensorEvent<PowerTransition>>()
    private let eventLoop: EventLoop
    let driver: PollingDriver<SleepState>
    private let noticed = SharedValue(Noticed())
    let lifecycle = Lifecycle()

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root, `/sys` unless reading a fake or captured tree; only the statistics are read there.
    ///   - updateInterval: How often the statistics are re-read and the clocks compared (default 60 s); below 1 ms
    ///     it is raised to 1 ms.
    ///   - eventLoop: The loop whose wake watch the monitor follows and that runs its timer.
    public init(root: String = "/sys", updateInterval: Duration = .seconds(60), eventLoop: EventLoop = .shared) {
        let path = root + "/power/suspend_stats"
        statisticsPath = path
        self.eventLoop = eventLoop
        let watch = eventLoop.wakeWatch
        let noticed = self.noticed
        driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            let seen = noticed.value
            return SleepState(
                suspendedSinceBoot: (watch.suspended ?? watch.clockPair().suspended).asSleptTime, wakes: seen.wakes,
                lastWake: seen.lastWake, statistics: SuspendStatistics.read(directory: path))
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Sleep and resume" }

    /// The last event of ``transitions``, or nil before the first; kept across stop and start.
    public var lastTransition: SensorEvent<PowerTransition>? { noticed.value.lastTransition }

    /// Available where a realtime cancel-on-set timer can be made (every Linux since 3.0); suspend statistics are
    /// optional.
    public var availability: Availability { CancelOnSetTimer.availability }

    /// Follows the wake watch, reads once and starts the timer; concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when the wake watch's timer cannot be opened or the event loop refuses the timers.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            noticed.withLock { $0.failures = nil }
            let listener = try eventLoop.wakeWatch.subscribe(on: eventLoop) { [weak self] slept in
                self?.woke(after: slept, generation)
            }
            lifecycle.keep(generation) { listener.cancel() }
            try driver.start(tick: { [weak self] in self?.refresh() })
            lifecycle.keep(generation) { [driver] in driver.stop() }
            noticeFailures()
        }
    }

    /// Compares the clocks (a wake found is published) and re-reads the statistics now.
    public func refresh() {
        guard lifecycle.isRunning else { return }
        eventLoop.wakeWatch.check()
        update()
    }

    /// The watch found a wake: count it, say so on ``transitions``, and publish the new state.
    private func woke(after growth: Duration, _ generation: UInt64) {
        guard lifecycle.isCurrent(generation) else { return }
        let slept = growth.asSleptTime
        let time = ReadingTime.now()
        let event = SensorEvent<PowerTransition>(.event(.didWake(after: slept)), time: time)
        noticed.withLock { seen in
            seen.wakes += 1
            seen.lastWake = SleepState.Wake(slept: slept, time: time)
            seen.lastTransition = event
        }
        transitions.publish(event)
        update()
    }

    /// Reads the state and publishes it if it changed, then a failed suspend the statistics newly count.
    private func update() {
        driver.refresh()
        noticeFailures()
    }

    /// Compares the failure count of the current state with the last one seen; publishes a transition when it grew.
    /// The first count seen in a run is the baseline.
    private func noticeFailures() {
        guard let statistics = driver.readings.value.value?.statistics, let failures = statistics.failures else {
            return
        }
        let event = noticed.withLock { seen -> SensorEvent<PowerTransition>? in
            guard let before = seen.failures else {
                seen.failures = failures
                return nil
            }
            guard failures > before else { return nil }
            seen.failures = failures
            let event = SensorEvent<PowerTransition>.event(
                .suspendFailed(failures: failures, last: statistics.lastFailure))
            seen.lastTransition = event
            return event
        }
        if let event { transitions.publish(event) }
    }
}
