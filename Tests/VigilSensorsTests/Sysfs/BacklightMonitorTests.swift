import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct BacklightMonitorTests {
    static func panel() -> FakeSysfsTree {
        let tree = FakeSysfsTree()
        tree.device(
            "class/backlight/intel_backlight",
            ["brightness": "4800", "max_brightness": "9600", "actual_brightness": "4800", "type": "raw"])
        return tree
    }

    @Test func readsTheFractionAndFallsBackToPollingOffSysfs() throws {
        let tree = Self.panel()
        let monitor = BacklightMonitor(root: tree.root, updateInterval: .milliseconds(50))
        #expect(monitor.device == "intel_backlight")
        #expect(monitor.availability == .available)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.mode == .polling)
        #expect(monitor.readings.value.value?.fraction == 0.5)
        tree.write("class/backlight/intel_backlight/actual_brightness", "2400\n")
        #expect(firstReading(of: monitor.readings) { $0.value?.fraction == 0.25 } != nil)
    }

    @Test func setWritesBrightnessAndChecksTheRange() throws {
        let tree = Self.panel()
        let monitor = BacklightMonitor(root: tree.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        try monitor.set(brightness: 960)
        #expect(ProcessProbe.readFile(tree.root + "/class/backlight/intel_backlight/brightness") == "960")
        #expect(monitor.readings.value.value?.brightness == 960)
        #expect(
            throws: SensorError.valueOutOfRange(
                path: tree.root + "/class/backlight/intel_backlight/brightness", value: "9601", range: "0...9600")
        ) { try monitor.set(brightness: 9601) }
    }

    @Test func setWithoutWriteAccessSaysPermissionDenied() throws {
        // Root bypasses file modes, but kernfs refuses to open for writing an attribute without a store method
        // (EACCES even for root): link one in as `brightness`.
        let readOnly = "/sys/class/net/lo/address"
        try #require(ProcessProbe.readFile(readOnly) != nil, "no \(readOnly) here")
        let tree = Self.panel()
        tree.remove("class/backlight/intel_backlight/brightness")
        tree.link("class/backlight/intel_backlight/brightness", to: readOnly)
        let monitor = BacklightMonitor(root: tree.root)
        #expect(throws: SensorError.permissionDenied(path: tree.root + "/class/backlight/intel_backlight/brightness")) {
            try monitor.set(brightness: 100)
        }
    }

    @Test func changeUeventTriggersARead() throws {
        let tree = Self.panel()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = BacklightMonitor(root: tree.root, updateInterval: .seconds(3600), changes: changes)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("class/backlight/intel_backlight/actual_brightness", "9600\n")
        changes.publish(
            .uevent(Uevent(action: .change, devpath: "/devices/backlight/intel_backlight", subsystem: "backlight")))
        #expect(monitor.readings.value.value?.fraction == 1.0)
    }

    @Test func machineWithoutBacklightSaysSo() {
        let tree = FakeSysfsTree()
        let monitor = BacklightMonitor(root: tree.root)
        guard case .unavailable(.missingDevice, let detail) = monitor.availability else {
            Issue.record("expected missing device, got \(monitor.availability)")
            return
        }
        #expect(detail.contains("no backlight"))
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
    }
}
