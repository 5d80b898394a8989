import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct PowerSupplyMonitorTests {
    static func laptop() -> FakeSysfsTree {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/BAT0", PowerSupplyTests.energyBattery)
        tree.device("class/power_supply/AC", ["type": "Mains", "online": "0"])
        return tree
    }

    static func battery(_ reading: SensorReading<PowerSupplyReading>) -> PowerSupply? {
        reading.value?.supplies.first { $0.name == "BAT0" }
    }

    static func uevent(_ action: String, _ properties: [String: String]) -> DeviceEvent {
        var event: [String: String] = [:]
        for (key, value) in properties { event["POWER_SUPPLY_" + key.uppercased()] = value }
        let name = properties["name"] ?? "BAT0"
        return .uevent(
            Uevent(
                action: Uevent.Action(rawValue: action)!, devpath: BytePath("/devices/power_supply/" + name),
                subsystem: "power_supply", properties: event.mapValues { BytePath($0) }))
    }

    @Test func changeUeventSnapshotUpdatesTheSupplyWithoutReadingSysfs() throws {
        let tree = Self.laptop()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = PowerSupplyMonitor(root: tree.root, updateInterval: .seconds(3600), changes: changes)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(Self.battery(monitor.readings.value)?.capacityPercent == 62)
        #expect(monitor.readings.value.value?.powerSource == .battery)
        var snapshot = PowerSupplyTests.energyBattery
        snapshot["name"] = "BAT0"
        snapshot["capacity"] = "61"
        snapshot["energy_now"] = "31000000"
        changes.publish(Self.uevent("change", snapshot))
        let battery = try #require(Self.battery(monitor.readings.value))
        #expect(battery.capacityPercent == 61)
        #expect(battery.energy?.now == 31.0)
        // The files still say 62 %: the value came from the uevent's snapshot.
        monitor.refresh()
        #expect(Self.battery(monitor.readings.value)?.capacityPercent == 62)
    }

    @Test func mainsChangeIsFollowedBySettlingReReads() throws {
        let tree = Self.laptop()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = PowerSupplyMonitor(
            root: tree.root, updateInterval: .seconds(3600), settleCount: 4, changes: changes)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("class/power_supply/AC/online", "1\n")
        changes.publish(Self.uevent("change", ["name": "AC", "type": "Mains", "online": "1"]))
        #expect(monitor.readings.value.value?.powerSource == .external)
        // The battery switches to charging without a uevent of its own; the settling re-reads must find it.
        tree.write("class/power_supply/BAT0/status", "Charging\n")
        let charging = firstReading(of: monitor.readings, within: 10) { Self.battery($0)?.status == .charging }
        #expect(charging != nil, "no re-read after the mains change saw the battery charging")
    }

    @Test func addUeventOrUnparsableSnapshotReReadsTheClass() throws {
        let tree = Self.laptop()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = PowerSupplyMonitor(root: tree.root, updateInterval: .seconds(3600), changes: changes)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.device("class/power_supply/BAT1", PowerSupplyTests.chargeBattery)
        changes.publish(Self.uevent("add", ["name": "BAT1"]))
        #expect(monitor.readings.value.value?.supplies.map(\.name) == ["AC", "BAT0", "BAT1"])
        tree.write("class/power_supply/BAT0/capacity", "60\n")
        changes.publish(Self.uevent("change", ["name": "BAT0", "type": "Battery", "capacity": "garbage"]))
        #expect(Self.battery(monitor.readings.value)?.capacityPercent == 60)
    }

    @Test func pollingPicksUpChangesWithoutUevents() throws {
        let tree = Self.laptop()
        let monitor = PowerSupplyMonitor(root: tree.root, updateInterval: .milliseconds(50))
        #expect(monitor.updateInterval == .milliseconds(50))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("class/power_supply/BAT0/capacity", "55\n")
        let reading = firstReading(of: monitor.readings) { Self.battery($0)?.capacityPercent == 55 }
        #expect(reading != nil)
    }

    @Test func desktopReportsNoBatteryAndMissingClassIsUnavailable() throws {
        let tree = FakeSysfsTree()
        tree.makeDirectory("class/power_supply")
        let monitor = PowerSupplyMonitor(root: tree.root)
        #expect(monitor.availability == .available)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.readings.value.value?.powerSource == .noBattery)
        #expect(monitor.readings.value.description == "no battery")
        let bare = FakeSysfsTree()
        #expect(!PowerSupplyMonitor(root: bare.root).availability.isAvailable)
    }

    @Test func stoppedMonitorIgnoresUevents() throws {
        let tree = Self.laptop()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = PowerSupplyMonitor(root: tree.root, updateInterval: .seconds(3600), changes: changes)
        try monitor.startMonitoring()
        monitor.stopMonitoring()
        changes.publish(Self.uevent("change", ["name": "AC", "type": "Mains", "online": "1"]))
        #expect(monitor.readings.value.value?.powerSource == .battery)
    }
}

extension PowerSupplyMonitorTests {
    @Test func deviceMonitorEventsDriveTheRefreshPath() throws {
        // The DeviceMonitor is not started: its subject stands in for the kernel, so no netlink socket is needed.
        let tree = Self.laptop()
        let devices = DeviceMonitor(subsystems: ["power_supply"])
        let monitor = PowerSupplyMonitor(
            root: tree.root, updateInterval: .seconds(3600), settleCount: 0, changes: devices.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let snapshot = [
            "POWER_SUPPLY_NAME": "AC", "POWER_SUPPLY_TYPE": "Mains", "POWER_SUPPLY_ONLINE": "1",
        ]
        devices.readings.publish(
            .uevent(
                Uevent(
                    action: .change, devpath: "/devices/LNXSYSTM:00/ACPI0003:00/power_supply/AC",
                    subsystem: "power_supply", properties: snapshot.mapValues { BytePath($0) })))
        #expect(monitor.readings.value.value?.powerSource == .external)
        tree.write("class/power_supply/BAT0/capacity", "40\n")
        devices.readings.publish(.overflow)
        #expect(Self.battery(monitor.readings.value)?.capacityPercent == 40)
    }
}
