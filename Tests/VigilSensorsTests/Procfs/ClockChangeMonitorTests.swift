import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// Serialized: one test follows the process's cancel-on-set timers; clock monitors of other suites may run meanwhile,
/// so it follows the descriptor this monitor added rather than a count.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ClockChangeMonitorTests {
    /// Descriptors of this process that are realtime timerfds armed with TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET,
    /// as `/proc/self/fdinfo` reports them (`clockid: 0`, `settime flags: 03`).
    static func cancelOnSetTimers() -> Set<String> {
        guard let names = try? SysfsFile.listDirectory("/proc/self/fdinfo") else { return [] }
        return Set(
            names.filter { name in
                guard name.first?.isNumber == true, let info = ProcessProbe.readFile("/proc/self/fdinfo/" + name)
                else { return false }
                return info.contains("clockid: 0") && info.contains("settime flags: 03")
            })
    }

    @Test func armsARealtimeCancelOnSetTimerAndReleasesIt() async throws {
        // Setting the wall clock is not allowed in tests and time namespaces do not virtualise CLOCK_REALTIME, so
        // the ECANCELED path cannot be driven here. What can be checked against the kernel: the monitor holds a
        // realtime timerfd armed absolute with cancel-on-set while it runs (per /proc/self/fdinfo), nothing is
        // reported while the clock is left alone, and the timer is gone after stop.
        let monitor = ClockChangeMonitor()
        #expect(monitor.availability == .available)
        let before = Self.cancelOnSetTimers()
        let events = FutexMutex(0)
        let subscription = monitor.readings.subscribe { _ in events.withLock { $0 += 1 } }
        try monitor.startMonitoring()
        #expect(monitor.isMonitoring)
        let added = Self.cancelOnSetTimers().subtracting(before)
        #expect(!added.isEmpty, "no realtime cancel-on-set timer appeared")
        try await EventLoop.shared.barrier()  // a ready timer descriptor would have been handled by now
        #expect(events.withLock { $0 } == 0)
        monitor.stopMonitoring()
        subscription.dispose()
        #expect(!monitor.isMonitoring)
        #expect(Self.cancelOnSetTimers().isDisjoint(with: added), "the monitor's timer \(added) is still armed")
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
        let monitor = ClockChangeMonitor()
        let events = FutexMutex<[SensorEvent<ClockChange>]>([])
        let subscription = monitor.readings.subscribe { event in events.withLock { $0.append(event) } }
        defer { subscription.dispose() }
        let before = Self.cancelOnSetTimers()
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let added = Self.cancelOnSetTimers().subtracting(before)
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
        #expect(!added.isEmpty && Self.cancelOnSetTimers().isDisjoint(with: added), "the failed run's timer is open")
    }
}
