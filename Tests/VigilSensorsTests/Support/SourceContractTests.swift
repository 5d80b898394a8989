import Glibc
import Testing
import Vigil
import VigilTestSupport
import VigilTesting

@testable import VigilSensors

/// What ``Source`` promises every source: the latest reading, refresh and one update interval, through the protocol.
@Suite(.timeLimit(.minutes(10))) struct SourceContractTests {
    static func thermalTree(temp: String = "45000") -> FakeSysfsTree {
        let tree = FakeSysfsTree()
        tree.device("class/thermal/thermal_zone0", ["type": "acpitz", "temp": temp])
        tree.device("class/power_supply/AC", ["type": "Mains", "online": "1"])
        return tree
    }

    static func celsius(_ source: ThermalMonitor) -> Double? {
        source.latest?.value?.zones.first?.temperatureCelsius
    }

    @Test func aDashboardOfMixedSourcesNeedsNoCasts() throws {
        let tree = Self.thermalTree()
        let directory = TemporaryDirectory("vigil-dashboard")
        defer { directory.remove() }
        let dashboard: [any Source] = [
            ThermalMonitor(root: tree.root, updateInterval: .seconds(3600)),
            PowerSupplyMonitor(root: tree.root, updateInterval: .seconds(3600)),
            FileSystemMonitor(path: directory.path),
            ClockChangeMonitor(),
        ]
        try dashboard.startMonitoring()
        defer { dashboard.stopMonitoring() }
        for source in dashboard { #expect(source.isMonitoring, "\(source.name)") }
        tree.write("class/thermal/thermal_zone0/temp", "50000\n")
        var lines: [String] = []
        for source in dashboard {
            #expect(source.availability == .available, "\(source.name)")
            source.refresh()
            lines.append("\(source.name): \(source.latest.map { "\($0)" } ?? "nothing yet")")
            if source.updateInterval != nil {
                try source.setUpdateInterval(.seconds(1800))
                #expect(source.updateInterval == .seconds(1800), "\(source.name)")
            } else {
                #expect(throws: SensorError.self) { try source.setUpdateInterval(.seconds(1)) }
            }
        }
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("Thermal zones: ") && lines[0].contains("50"), "refresh read the new temperature")
        #expect(lines[1].hasPrefix("Power supply: ") && !lines[1].contains("nothing yet"))
        #expect(lines[2] == "Files (\(directory.path)): nothing yet")
        #expect(lines[3] == "Clock changes: nothing yet")
    }

    @Test func sourcesOfOneReadingTypeKeepTheirTypeWithoutCasts() throws {
        let tree = Self.thermalTree()
        let zones: [any Source<SensorReading<ThermalReading>>] = [
            ThermalMonitor(root: tree.root, updateInterval: .seconds(3600))
        ]
        #expect(zones[0].latest?.status == .pending)
        try zones[0].startMonitoring()
        defer { zones[0].stopMonitoring() }
        #expect(zones[0].latest?.value?.zones.first?.temperatureCelsius == 45)
    }

    @Test func theUpdateIntervalChangesWhileRunning() async throws {
        let tree = Self.thermalTree()
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .seconds(3600), eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(Self.celsius(monitor) == 45)
        try monitor.setUpdateInterval(.milliseconds(5))
        #expect(monitor.updateInterval == .milliseconds(5))
        tree.write("class/thermal/thermal_zone0/temp", "50000\n")
        await clock.advance(by: .milliseconds(4))
        #expect(Self.celsius(monitor) == 45)
        await clock.advance(by: .milliseconds(1))
        #expect(Self.celsius(monitor) == 50, "the hourly timer was not replaced by one at 5 ms")
    }

    @Test func anIntervalSetWhileStoppedIsUsedByTheNextStart() async throws {
        let tree = Self.thermalTree()
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .seconds(3600), eventLoop: loop)
        try monitor.setUpdateInterval(.milliseconds(5))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("class/thermal/thermal_zone0/temp", "50000\n")
        await clock.advance(by: .milliseconds(5))
        #expect(Self.celsius(monitor) == 50)
    }

    @Test func anAttributeMonitorsIntervalChangesWhileRunning() async throws {
        let tree = FakeSysfsTree()
        tree.write("value", "1\n")
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = AttributeMonitor(
            name: "value", integerAt: tree.root + "/value", updateInterval: .seconds(3600), eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.latest?.status == .value(1))
        try monitor.setUpdateInterval(.milliseconds(5))
        tree.write("value", "2\n")
        await clock.advance(by: .milliseconds(5))
        #expect(monitor.latest?.status == .value(2))
    }

    @Test(arguments: [Duration.zero, .milliseconds(-1), .seconds(-3600), .microseconds(999)])
    func anIntervalBelowOneMillisecondIsRefused(interval: Duration) throws {
        let tree = Self.thermalTree()
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect {
            try monitor.setUpdateInterval(interval)
        } throws: { error in
            guard case .invalidArgument(let name, _, let reason) = error as? SensorError else { return false }
            return name == "updateInterval" && reason.contains("1 ms")
        }
        #expect(monitor.updateInterval == .seconds(3600))
        #expect(monitor.isMonitoring)
    }

    @Test(arguments: [Duration.zero, .seconds(-1)])
    func aConstructorRaisesATooShortIntervalInsteadOfTrapping(interval: Duration) throws {
        let tree = Self.thermalTree()
        let monitors: [any Source] = [
            ThermalMonitor(root: tree.root, updateInterval: interval),
            PowerSupplyMonitor(root: tree.root, updateInterval: interval),
            MemoryPressureMonitor(root: tree.root, updateInterval: interval),
            AttributeMonitor(
                name: "temp", integerAt: tree.root + "/class/thermal/thermal_zone0/temp",
                updateInterval: interval),
            BacklightMonitor(root: tree.root, updateInterval: interval),
        ]
        for monitor in monitors { #expect(monitor.updateInterval == .milliseconds(1), "\(monitor.name)") }
        let thermal = monitors[0]
        try thermal.startMonitoring()
        thermal.stopMonitoring()
    }

    @Test func eventSourcesDoNotPollAndSaySo() {
        let directory = TemporaryDirectory("vigil-events")
        defer { directory.remove() }
        let sources: [any Source] = [FileSystemMonitor(path: directory.path), DeviceMonitor(), ClockChangeMonitor()]
        for source in sources {
            #expect(source.updateInterval == nil)
            #expect {
                try source.setUpdateInterval(.seconds(1))
            } throws: { error in
                guard case .invalidArgument(_, _, let reason) = error as? SensorError else { return false }
                return reason.contains("does not poll")
            }
            #expect(source.latest == nil)
            source.refresh()  // nothing to re-read, and harmless
        }
    }

    @Test func aFileMonitorKeepsTheLastEventAndSetsItBeforePublishing() async throws {
        let directory = TemporaryDirectory("vigil-latest")
        defer { directory.remove() }
        let monitor = FileSystemMonitor(path: directory.path)
        #expect(monitor.latest == nil)
        let seen = FutexMutex<[Bool]>([])
        let subscription = monitor.readings.subscribe { [weak monitor] event in
            seen.withLock { $0.append(monitor?.latest == event) }
        }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        writeFile(directory.file("a"), "1")
        #expect(await eventually { monitor.latest?.payload?.path == BytePath(directory.file("a")) })
        monitor.stopMonitoring()
        #expect(monitor.latest?.payload?.path == BytePath(directory.file("a")), "kept after stop")
        #expect(!seen.withLock { $0 }.isEmpty)
        #expect(seen.withLock { $0 }.allSatisfy { $0 }, "a subscriber saw an older latest than its event")
    }

    @Test func aDeviceMonitorKeepsTheLastEventItPublished() async throws {
        let monitor = DeviceMonitor()
        #expect(monitor.latest == nil)
        let seen = FutexMutex<[DeviceEvent]>([])
        let subscription = monitor.readings.subscribe { event in seen.withLock { $0.append(event) } }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        // Published: `unavailable`, then `overflow` once the socket is reopened (and any uevent of this machine).
        monitor.simulateSocketError(.ioError)
        #expect(await eventually(within: 20) { seen.withLock { $0 }.contains { $0.kind == .overflow } })
        #expect(monitor.latest != nil)
        #expect(monitor.latest == seen.withLock { $0.last })
    }

    /// In a namespace of its own (no other test's links make the kernel drop and resync) on a loop whose clock only
    /// the test moves (no dump watchdog fires on a loaded machine), so the dumps are counted exactly.
    @Test(.enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
    func refreshingTheNetworkDumpsAgain() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let loop = EventLoop(clock: ManualClock())
        defer { loop.shutdown() }
        let monitor = NetworkMonitor(namespace: namespace.path, eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { monitor.latest?.status != .pending })
        #expect(monitor.statistics.dumps == 1)
        monitor.refresh()
        #expect(monitor.statistics.dumps == 2, "the refresh sent its dump request before returning")
        #expect(monitor.latest?.status != .pending, "a refresh keeps the last path while it dumps")
        #expect(monitor.statistics.overflows == 0)
    }

    @Test func aReleasedOrientationMonitorStopsTheAccelerometerItRan() async throws {
        let tree = FakeIIOTree()
        tree.addCaptureAccelerometer()
        let accelerometer = AccelerometerMonitor(root: tree.root, updateInterval: .seconds(3600))
        var orientation: OrientationMonitor? = OrientationMonitor(accelerometer: accelerometer)
        try orientation?.startMonitoring()
        #expect(accelerometer.isMonitoring)
        #expect(orientation?.updateInterval == .seconds(3600))
        // Awaited: a reading being delivered to the orientation monitor holds it until the callback returns.
        orientation = nil
        let stopped = await eventually { !accelerometer.isMonitoring }
        #expect(stopped, "the released orientation monitor left its accelerometer running")
    }
}
