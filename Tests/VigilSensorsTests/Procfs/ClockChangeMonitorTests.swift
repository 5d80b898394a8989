import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// Each test runs its monitor on a private loop and follows the descriptors of that loop (``EventLoopProbe``):
/// other suites open realtime cancel-on-set timers too (every source that refreshes after a wake does), so counting
/// the process's would mix theirs in.
@Suite(.timeLimit(.minutes(10))) struct ClockChangeMonitorTests {
    /// Whether descriptor `number` is a realtime timerfd armed with TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, as
    /// `/proc/self/fdinfo` reports it (`clockid: 0`, `settime flags: 03`).
    static func isCancelOnSetTimer(_ number: Int32) -> Bool {
        let info = OpenDescriptor.fdinfo(number)
        return info.contains { $0.hasPrefix("clockid:") && $0.hasSuffix(" 0") }
            && info.contains { $0.hasPrefix("settime flags:") && $0.hasSuffix("03") }
    }

    /// The cancel-on-set timers `probe`'s loop watches, pinned: a closed timer's number may be reused at once by
    /// another suite's timer, which looks the same (``PinnedDescriptor``).
    static func timers(on probe: EventLoopProbe) -> [PinnedDescriptor] {
        probe.registrations().filter { isCancelOnSetTimer($0.number) }.pinned()
    }

    @Test func armsARealtimeCancelOnSetTimerAndReleasesIt() async throws {
        // Setting the wall clock is not allowed in tests and time namespaces do not virtualise CLOCK_REALTIME, so
        // the ECANCELED path is driven by `simulateReadError(.canceled)` below. What can be checked against the
        // kernel: the monitor holds a realtime timerfd armed absolute with cancel-on-set while it runs (per
        // /proc/self/fdinfo), nothing is reported while the clock is left alone, and the timer is gone after stop.
        let probe = try EventLoopProbe()
        defer { probe.shutdown() }
        let monitor = ClockChangeMonitor(eventLoop: probe.loop)
        #expect(monitor.availability == .available)
        let events = FutexMutex(0)
        let subscription = monitor.readings.subscribe { _ in events.withLock { $0 += 1 } }
        try monitor.startMonitoring()
        #expect(monitor.isMonitoring)
        let timers = Self.timers(on: probe)
        #expect(timers.count == 1, "\(probe.registrations())")
        #expect(probe.barrier())  // a ready timer descriptor would have been handled by now
        #expect(events.withLock { $0 } == 0)
        monitor.stopMonitoring()
        subscription.dispose()
        #expect(!monitor.isMonitoring)
        #expect(probe.held().isEmpty, "\(probe.held())")
        #expect(timers.filter(\.isStillOpen).isEmpty, "the monitor's timer \(timers) is still open")
    }

    @Test func startStopCyclesLeakNoDescriptorThreadOrObject() async throws {
        try await SourceLifecycleLeakTests.checkStartStopCycles(name: "clock") { _ in ClockChangeMonitor() }
    }

    @Test func startIsPromptAndAReleasedRunningMonitorFreesItsDescriptors() async throws {
        try await SourceLifecycleLeakTests.checkReleaseWhileRunning(name: "clock") { _ in ClockChangeMonitor() }
    }

    /// The ECANCELED path cannot be driven here (see above); the event it publishes is made by `noticed()`.
    @Test func aChangeIsStampedWhenNoticed() {
        let before = ContinuousClock.now
        let first = ClockChangeMonitor.noticed()
        let between = ContinuousClock.now
        let second = ClockChangeMonitor.noticed()
        let after = ContinuousClock.now
        #expect(before <= first.time.monotonic && first.time.monotonic <= between)
        #expect(between <= second.time.monotonic && second.time.monotonic <= after)
        #expect(first.time < second.time)
        let wall = first.time.wall.components
        #expect(abs(first.secondsSinceEpoch - (Double(wall.seconds) + Double(wall.attoseconds) / 1e18)) < 1e-6)
    }

    @Test func eventDescribesTheTimeInUTC() {
        #expect(
            ClockChange(secondsSinceEpoch: 1_700_000_000.5).description == "wall clock set; now 2023-11-14 22:13:20 UTC"
        )
    }
}

extension ClockChangeMonitorTests {
    /// A timer read that fails (other than "nothing yet") ends the run and says why, in-band; it used to return
    /// silently and keep a monitor that reported nothing.
    @Test func aFailedTimerReadIsPublishedAndTheMonitorStops() throws {
        let probe = try EventLoopProbe()
        defer { probe.shutdown() }
        let monitor = ClockChangeMonitor(eventLoop: probe.loop)
        let events = FutexMutex<[SensorEvent<ClockChange>]>([])
        let subscription = monitor.readings.subscribe { event in events.withLock { $0.append(event) } }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let timers = Self.timers(on: probe)
        monitor.simulateReadError(.ioError)
        _ = eventually(timeout: 10) { !events.withLock { $0.isEmpty } }
        let published = events.withLock { $0 }
        #expect(published.count == 1)
        guard case .unavailable(let reason) = published.first?.kind else {
            Issue.record("expected an unavailable event, got \(published)")
            return
        }
        #expect(reason.contains("EIO") || reason.contains("Input/output error"), "\(reason)")
        #expect(reason.contains("started again"))
        #expect(monitor.latest == published.first)
        #expect(!monitor.isMonitoring)
        #expect(timers.count == 1 && timers.filter(\.isStillOpen).isEmpty, "the failed run's timer is open")
    }
}

/// Told apart: the kernel cancels the timer both when the wall clock is set and on every resume; the monitor looks at
/// `CLOCK_BOOTTIME − CLOCK_MONOTONIC` (here injected) to say which.
extension ClockChangeMonitorTests {
    /// Runs a monitor on a loop whose clocks are `clocks`, lets `between` move them, then has the timer cancelled;
    /// returns the event published.
    static func change(
        _ clocks: ClockPairs, between: (ClockPairs) -> Void
    ) throws -> SensorEvent<ClockChange>? {
        let loop = EventLoop()
        defer { loop.shutdown() }
        loop.wakeWatch.useClockPairs(clocks.read)
        let monitor = ClockChangeMonitor(eventLoop: loop)
        let events = FutexMutex<[SensorEvent<ClockChange>]>([])
        let subscription = monitor.readings.subscribe { event in events.withLock { $0.append(event) } }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        between(clocks)
        monitor.simulateReadError(.canceled)
        _ = eventually(timeout: 10) { !events.withLock { $0.isEmpty } }
        #expect(monitor.isMonitoring, "a clock change is no failure")
        return events.withLock { $0.first }
    }

    @Test func aCancellationWithoutSleepIsASet() throws {
        let event = try Self.change(ClockPairs()) { $0.awake(.seconds(2)) }
        let change = try #require(event?.payload)
        #expect(change.cause == .set)
        #expect(change.description.hasPrefix("wall clock set; now "))
    }

    @Test func aCancellationAfterTheBootTimeClockRanAheadIsAResume() throws {
        let event = try Self.change(ClockPairs()) { clocks in
            clocks.awake(.seconds(2))
            clocks.asleep(.seconds(5400))
        }
        let change = try #require(event?.payload)
        #expect(change.cause == .resumed(after: .seconds(5400)))
        #expect(change.description.hasPrefix("resumed after sleeping 1 h 30 min; now "))
    }
}
