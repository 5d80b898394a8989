import Testing
import Vigil
import VigilSensors
import VigilTestSupport
import VigilTesting

/// The sources that cache state re-read it after a wake, found by their loop's wake watch: shown on a fake machine
/// changed while the clocks say it slept, with timers on a manual clock that never fires (so no poll re-reads).
@Suite(.timeLimit(.minutes(10))) struct RefreshAfterWakeTests {
    /// A change to the fake machine that each source's next read shows.
    static let changes: [String: @Sendable (FakeMachine) -> Void] = [
        "power": { $0.sys.write("class/power_supply/AC/online", "1\n") },
        "battery": { $0.sys.write("class/power_supply/BAT0/energy_now", "30000000\n") },
        "backlight": { $0.sys.write("class/backlight/intel_backlight/actual_brightness", "2400\n") },
        "displays": { $0.sys.write("class/drm/card0-eDP-1/dpms", "Off\n") },
        "device": { $0.proc.write("sys/kernel/hostname", "woken-host\n") },
        "inventory": { $0.sys.write("class/input/input5/name", "Synaptics TM3276-022\n") },
    ]

    @Test(arguments: changes.keys.sorted()) func aCachingSourceReReadsAfterAWakeOnly(id: String) async throws {
        let machine = FakeMachine.equipped()
        defer { withExtendedLifetime(machine) {} }
        let clocks = ClockPairs()
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        loop.wakeWatch.useClockPairs(clocks.read)
        var options = machine.options
        options.eventLoop = loop
        let source = try #require(SourceCatalog.entry(id: id)).make(options)
        let published = FutexMutex(0)
        let subscription = source.readings.subscribe { _ in published.withLock { $0 += 1 } }
        defer { subscription.dispose() }
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        #expect(await eventually { source.latest.map { "\($0)" }?.hasPrefix("waiting") == false })
        let settled = published.withLock { $0 }
        Self.changes[id]?(machine)
        clocks.awake(.seconds(5))
        loop.wakeWatch.check()
        try await loop.barrier()
        #expect(published.withLock { $0 } == settled, "\(id) re-read without a wake")
        clocks.asleep(.seconds(600))
        loop.wakeWatch.check()
        try await loop.barrier()
        #expect(
            published.withLock { $0 } == settled + 1,
            "\(id) did not re-read after the wake: \(String(describing: source.latest))")
    }

    /// The network source dumps the kernel's tables again after a wake (its mirror may have missed changes while
    /// the machine slept).
    @Test func theNetworkSourceDumpsAgainAfterAWake() async throws {
        let clocks = ClockPairs()
        let loop = EventLoop()
        defer { loop.shutdown() }
        loop.wakeWatch.useClockPairs(clocks.read)
        let monitor = NetworkMonitor(eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually { monitor.settledDumps == 1 })
        loop.wakeWatch.check()
        try await loop.barrier()
        #expect(monitor.settledDumps == 1)
        clocks.asleep(.seconds(30))
        loop.wakeWatch.check()
        #expect(await eventually { monitor.settledDumps == 2 }, "no dump after the wake")
    }

    /// The switches source opens every node again after a wake and reads where its switches stand (`EVIOCGSW`):
    /// a lid opened while the machine slept sends no event, and only that read shows it.
    @Test func theSwitchesSourceReadsEveryNodeAgainAfterAWake() async throws {
        let clocks = ClockPairs()
        let loop = EventLoop(clock: ManualClock())
        defer { loop.shutdown() }
        loop.wakeWatch.useClockPairs(clocks.read)
        let fixture = SwitchMonitorTests.Fixture(eventLoop: loop)
        let monitor = fixture.monitor
        defer { monitor.stopMonitoring() }
        let published = FutexMutex(0)
        let subscription = monitor.readings.subscribe { _ in published.withLock { $0 += 1 } }
        defer { subscription.dispose() }
        let first = try #require(await fixture.start())
        #expect(first.isLidClosed == true && first.isTabletMode == false)
        let settled = published.withLock { $0 }
        fixture.evdev.setState(fixture.lid, set: [])
        clocks.awake(.seconds(5))
        loop.wakeWatch.check()
        try await loop.barrier()
        #expect(published.withLock { $0 } == settled, "re-read without a wake")
        clocks.asleep(.seconds(600))
        loop.wakeWatch.check()
        try await loop.barrier()
        let woken = monitor.readings.value.value
        #expect(
            woken?.isLidClosed == false && woken?.isTabletMode == false,
            "not re-read after the wake: \(String(describing: woken))")
        #expect(published.withLock { $0 } == settled + 1)
        #expect(fixture.evdev.isOpen(fixture.lid) && fixture.evdev.isOpen(fixture.tablet))
        // A wake with nothing changed publishes nothing, and the nodes opened again follow events.
        clocks.asleep(.seconds(60))
        loop.wakeWatch.check()
        try await loop.barrier()
        #expect(published.withLock { $0 } == settled + 1)
        fixture.evdev.write(fixture.tablet, events: Events.frame((.tabletMode, true)))
        #expect(await fixture.value { $0.isTabletMode == true } != nil)
    }

    /// Stopped sources leave the watch: nothing of theirs stays on the loop.
    @Test func stoppedSourcesLeaveTheWatch() throws {
        let machine = FakeMachine.equipped()
        let loop = EventLoop()
        defer { loop.shutdown() }
        var options = machine.options
        options.eventLoop = loop
        let sources = try Self.changes.keys.sorted().map { try #require(SourceCatalog.entry(id: $0)).make(options) }
        for source in sources { try source.startMonitoring() }
        #expect(loop.wakeWatch.isArmed)
        for source in sources { source.stopMonitoring() }
        #expect(!loop.wakeWatch.isArmed)
        #expect(loop.registrationCount == 0)
    }
}
