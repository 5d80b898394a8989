import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct AttributeMonitorTests {
    @Test func fileOffSysfsIsPolledAndPicksUpChanges() throws {
        let tree = FakeSysfsTree()
        tree.write("class/leds/input3::capslock/brightness", "0\n")
        let monitor = AttributeMonitor(
            name: "Caps Lock", integerAt: tree.root + "/class/leds/input3::capslock/brightness",
            strategy: .automatic, updateInterval: .milliseconds(50))
        #expect(monitor.mode == nil)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.mode == .polling)
        #expect(monitor.readings.value.status == .value(0))
        tree.write("class/leds/input3::capslock/brightness", "1\n")
        #expect(firstReading(of: monitor.readings) { $0.status == .value(1) } != nil)
    }

    @Test func malformedAndRemovedAttributesAreUnavailable() throws {
        let tree = FakeSysfsTree()
        tree.write("attr", "12\n")
        let path = tree.root + "/attr"
        let monitor = AttributeMonitor(
            name: "attr", integerAt: path, strategy: .polling, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("attr", "twelve\n")
        monitor.refresh()
        #expect(monitor.readings.value.status == .unavailable(reason: "\(path): cannot parse \"twelve\" as an integer"))
        tree.remove("attr")
        monitor.refresh()
        #expect(monitor.readings.value.status == .unavailable(reason: "\(path): no such file or directory"))
        #expect(!monitor.availability.isAvailable)
    }

    @Test func requiredNotificationsOnAFileEpollRefusesFail() {
        let tree = FakeSysfsTree()
        tree.write("attr", "1\n")
        let monitor = AttributeMonitor(name: "attr", integerAt: tree.root + "/attr", strategy: .notifications)
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(!monitor.isMonitoring)
    }

    @Test func realSysfsAttributeIsWatchedAndReReadFromOffsetZero() throws {
        // No driver on this machine notifies an attribute a test can change, so this checks the notification
        // wiring (the event loop accepts POLLPRI on a real kernfs attribute) and that each re-read of the same open
        // descriptor starts at offset 0 and sees the new text. The loopback queue length is harmless to change.
        let path = "/sys/class/net/lo/tx_queue_len"
        let original = try #require(ProcessProbe.readFile(path), "no \(path) here")
        let monitor = AttributeMonitor(name: "lo queue", integerAt: path)
        try monitor.startMonitoring()
        defer {
            monitor.stopMonitoring()
            writeFile(path, original)
        }
        #expect(monitor.mode == .notifications)
        #expect(monitor.readings.value.status == .value(Int(original)!))
        let changed = Int(original)! + 1
        try #require(writeFile(path, String(changed)), "cannot write \(path)")
        monitor.refresh()
        #expect(monitor.readings.value.status == .value(changed))
        writeFile(path, original)
        monitor.refresh()
        #expect(monitor.readings.value.status == .value(Int(original)!))
    }

    @Test func pollingStrategyIsHonouredOnSysfsToo() throws {
        let monitor = AttributeMonitor(
            name: "lo mtu", integerAt: "/sys/class/net/lo/mtu", strategy: .polling, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.mode == .polling)
        #expect(monitor.readings.value.value ?? 0 > 0)
    }
}
