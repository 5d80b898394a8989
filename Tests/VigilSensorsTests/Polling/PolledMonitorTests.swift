import Dispatch
import Testing
import Vigil
import VigilSensors
import VigilTestSupport
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct PolledMonitorTests {
    static func zone(_ tree: FakeSysfsTree, temp: String) {
        tree.device("class/thermal/thermal_zone0", ["type": "acpitz", "temp": temp])
    }

    static func celsius(_ reading: SensorReading<ThermalReading>) -> Double? {
        reading.value?.zones.first?.temperatureCelsius
    }

    @Test func refreshPublishesTheNewValue() throws {
        let tree = FakeSysfsTree()
        Self.zone(tree, temp: "45000")
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .seconds(3600))
        #expect(monitor.availability == .available)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(Self.celsius(monitor.readings.value) == 45.0)
        tree.write("class/thermal/thermal_zone0/temp", "50000\n")
        monitor.refresh()
        #expect(Self.celsius(monitor.readings.value) == 50.0)
    }

    @Test func pollingPicksUpChangesAtTheInterval() async throws {
        let tree = FakeSysfsTree()
        Self.zone(tree, temp: "45000")
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .milliseconds(50), eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("class/thermal/thermal_zone0/temp", "61500\n")
        await clock.advance(by: .milliseconds(49))
        #expect(Self.celsius(monitor.readings.value) == 45.0, "read before the interval")
        await clock.advance(by: .milliseconds(1))
        #expect(Self.celsius(monitor.readings.value) == 61.5, "the 50 ms poll did not see the new temperature")
    }

    @Test func malformedValueIsNotedAndRecovers() throws {
        let tree = FakeSysfsTree()
        Self.zone(tree, temp: "45000")
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("class/thermal/thermal_zone0/temp", "hot\n")
        monitor.refresh()
        let zone = try #require(monitor.readings.value.value?.zones.first)
        #expect(zone.temperatureCelsius == nil)
        #expect(zone.notes.first?.contains("thermal_zone0/temp") == true)
        tree.write("class/thermal/thermal_zone0/temp", "40000\n")
        monitor.refresh()
        #expect(Self.celsius(monitor.readings.value) == 40.0)
        #expect(monitor.readings.value.value?.zones.first?.notes == [])
    }

    @Test func zoneRemovedMidRunIsDropped() throws {
        let tree = FakeSysfsTree()
        Self.zone(tree, temp: "45000")
        tree.device("class/thermal/thermal_zone1", ["type": "x86_pkg_temp", "temp": "52000"])
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.readings.value.value?.zones.count == 2)
        tree.remove("class/thermal/thermal_zone0")
        monitor.refresh()
        #expect(monitor.readings.value.value?.zones.map(\.name) == ["thermal_zone1"])
    }

    @Test func stoppedMonitorPublishesNothing() async throws {
        let tree = FakeSysfsTree()
        Self.zone(tree, temp: "45000")
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .milliseconds(20), eventLoop: loop)
        try monitor.startMonitoring()
        #expect(monitor.isMonitoring)
        monitor.stopMonitoring()
        #expect(!monitor.isMonitoring)
        let count = FutexMutex(0)
        let subscription = monitor.readings.subscribe { _ in count.withLock { $0 += 1 } }
        tree.write("class/thermal/thermal_zone0/temp", "70000\n")
        monitor.refresh()
        let woken = await clock.advance(by: .seconds(1))  // fifty periods: a timer left running would tick
        #expect(woken == 0, "the stopped monitor left a timer on the loop")
        subscription.dispose()
        #expect(count.withLock { $0 } == 1)  // only the replayed current value
        #expect(Self.celsius(monitor.readings.value) == 45.0)
    }

    @Test func absentClassesAreUnavailableWithAReason() {
        let tree = FakeSysfsTree()
        for availability in [ThermalMonitor(root: tree.root).availability, HwmonMonitor(root: tree.root).availability] {
            guard case .unavailable(let reason, let detail) = availability else {
                Issue.record("expected unavailable")
                continue
            }
            #expect(reason == .missingDevice)
            #expect(detail.contains("this machine has no"))
        }
    }

    @Test func hwmonMonitorReadsChips() throws {
        let tree = FakeSysfsTree()
        tree.device("class/hwmon/hwmon0", ["name": "k10temp", "temp1_input": "43125", "temp1_label": "Tctl"])
        let monitor = HwmonMonitor(root: tree.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.readings.value.value?.chips.first?.temperatures.first?.value == 43.125)
        #expect(monitor.readings.value.description == "hwmon0 (k10temp): Tctl 43.1 °C")
    }
}

/// Sleeps the calling thread; used only to give a stopped monitor a chance to misbehave.
func usleepSeconds(_ seconds: Double) {
    let semaphore = DispatchSemaphore(value: 0)
    _ = semaphore.wait(timeout: .now() + seconds)
}

/// A polled source publishes a repeated identical failure once (issue 14, defect 7: only changes are published).
@Suite(.timeLimit(.minutes(10))) struct PolledFailureRepetitionTests {
    @Test func sameFailureAtEveryPollIsPublishedOnce() async throws {
        let tree = FakeSysfsTree()
        tree.device("class/thermal/thermal_zone0", ["type": "acpitz", "temp": "45000"])
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .milliseconds(5), eventLoop: loop)
        let count = FutexMutex(0)
        let subscription = monitor.readings.subscribe { reading in
            if case .unavailable = reading.status { count.withLock { $0 += 1 } }
        }
        defer { subscription.dispose() }
        // A class directory that cannot be listed (a symbolic-link loop) fails every read the same way.
        tree.remove("class/thermal")
        tree.link("class/thermal", to: "thermal")
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let polls = await clock.advance(by: .milliseconds(300))
        #expect(polls == 60, "one poll every 5 ms")
        #expect(count.withLock { $0 } == 1)
    }
}
