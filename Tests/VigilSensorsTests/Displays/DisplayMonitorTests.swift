import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// ``DisplayMonitor`` on fake trees: a read on start, re-reads on `drm` hot-plug uevents (with and without
/// `CONNECTOR=`), on lost events and on `refresh()`, and nothing for other events.
@Suite(.timeLimit(.minutes(5))) struct DisplayMonitorTests {
    /// A monitor of ``DisplayReadingTests/laptop()`` that never polls by itself, started, following `changes`.
    static func started(_ machine: FakeMachine, _ changes: PublishSubject<DeviceEvent>) throws -> DisplayMonitor {
        let monitor = DisplayMonitor(root: machine.sys.root, updateInterval: .seconds(3600), changes: changes)
        try monitor.startMonitoring()
        return monitor
    }

    /// Plugs the Dell U2719D into `card0-HDMI-A-1` of the fake tree.
    static func plugMonitor(_ machine: FakeMachine) throws {
        machine.sys.write("class/drm/card0-HDMI-A-1/status", "connected\n")
        machine.sys.write(
            "class/drm/card0-HDMI-A-1/edid", bytes: try #require(Fixtures.edid("monitor-dell-u2719d-dp-cta.bin")))
    }

    static func hdmi(_ monitor: DisplayMonitor) -> DisplayConnector? {
        monitor.readings.value.value?.connectors.first { $0.name == "card0-HDMI-A-1" }
    }

    static func hotplug(_ properties: [String: String]) -> DeviceEvent {
        .uevent(
            Uevent(
                action: .change, devpath: "/devices/pci0000:00/0000:00:02.0/drm/card0", subsystem: "drm",
                devname: "dri/card0", properties: properties.mapValues { BytePath($0) }))
    }

    @Test func readsOnStart() throws {
        let machine = DisplayReadingTests.laptop()
        let monitor = try Self.started(machine, PublishSubject())
        defer { monitor.stopMonitoring() }
        #expect(monitor.availability == .available)
        #expect(monitor.readings.value.value?.connected.first?.edid?.manufacturer == "BOE")
        #expect(monitor.updateInterval == .seconds(3600))
    }

    @Test(arguments: [
        ["HOTPLUG": "1"], ["HOTPLUG": "1", "CONNECTOR": "95"], ["HOTPLUG": "1", "CONNECTOR": "95", "PROPERTY": "7"],
    ])
    func aHotplugUeventReReads(properties: [String: String]) throws {
        let machine = DisplayReadingTests.laptop()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = try Self.started(machine, changes)
        defer { monitor.stopMonitoring() }
        #expect(Self.hdmi(monitor)?.status == .disconnected)
        try Self.plugMonitor(machine)
        changes.publish(Self.hotplug(properties))
        #expect(Self.hdmi(monitor)?.status == .connected)
        #expect(Self.hdmi(monitor)?.edid?.name == "DELL U2719D")
    }

    @Test func otherEventsReadNothingAndLostEventsReadAll() throws {
        let machine = DisplayReadingTests.laptop()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = try Self.started(machine, changes)
        defer { monitor.stopMonitoring() }
        try Self.plugMonitor(machine)
        // A lease event, a change without HOTPLUG, and another subsystem's hot-plug: nothing to re-read.
        changes.publish(Self.hotplug(["LEASE": "1"]))
        changes.publish(Self.hotplug(["HOTPLUG": "0"]))
        changes.publish(
            .uevent(
                Uevent(action: .change, devpath: "/devices/x", subsystem: "power_supply", properties: ["HOTPLUG": "1"]))
        )
        #expect(Self.hdmi(monitor)?.status == .disconnected)
        changes.publish(.overflow)
        #expect(Self.hdmi(monitor)?.status == .connected)
        machine.sys.write("class/drm/card0-HDMI-A-1/status", "disconnected\n")
        changes.publish(.unavailable(reason: "the uevent socket failed"))
        #expect(Self.hdmi(monitor)?.status == .disconnected)
    }

    @Test func aCardAddedOrRemovedReReads() throws {
        let machine = DisplayReadingTests.laptop()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = try Self.started(machine, changes)
        defer { monitor.stopMonitoring() }
        machine.sys.device("class/drm/card1-DP-1", ["status": "connected"])
        changes.publish(.uevent(Uevent(action: .add, devpath: "/devices/x/drm/card1", subsystem: "drm")))
        #expect(monitor.readings.value.value?.connectors.count == 3)
        machine.sys.remove("class/drm/card1-DP-1")
        changes.publish(.uevent(Uevent(action: .remove, devpath: "/devices/x/drm/card1", subsystem: "drm")))
        #expect(monitor.readings.value.value?.connectors.count == 2)
    }

    @Test func refreshReReadsAndStoppedMonitorsIgnoreEvents() throws {
        let machine = DisplayReadingTests.laptop()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = try Self.started(machine, changes)
        try Self.plugMonitor(machine)
        monitor.refresh()
        #expect(Self.hdmi(monitor)?.status == .connected)
        monitor.stopMonitoring()
        #expect(!monitor.isMonitoring)
        machine.sys.write("class/drm/card0-HDMI-A-1/status", "disconnected\n")
        changes.publish(Self.hotplug(["HOTPLUG": "1"]))
        #expect(Self.hdmi(monitor)?.status == .connected)
    }

    @Test func pollingNoticesAChangeWithoutEvents() async throws {
        let machine = DisplayReadingTests.laptop()
        let monitor = DisplayMonitor(root: machine.sys.root, updateInterval: .milliseconds(20))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        try Self.plugMonitor(machine)
        #expect(await eventually { Self.hdmi(monitor)?.status == .connected })
    }

    @Test func aMachineWithoutDRMSaysSo() {
        let tree = FakeSysfsTree()
        let monitor = DisplayMonitor(root: tree.root)
        guard case .unavailable(.missingDevice, let detail) = monitor.availability else {
            Issue.record("expected a missing device, got \(monitor.availability)")
            return
        }
        #expect(detail.contains(tree.root + "/class/drm"))
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(!monitor.isMonitoring)
    }

    @Test func aCardWithoutConnectorsIsAvailableAndEmpty() throws {
        let tree = FakeSysfsTree()
        tree.makeDirectory("class/drm/card0")
        let monitor = DisplayMonitor(root: tree.root, updateInterval: .seconds(3600))
        #expect(monitor.availability == .available)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.readings.value.value == DisplayReading(connectors: []))
        #expect(monitor.readings.value.description == "no display connectors")
    }

    @Test func theCatalogEntryFollowsTheTreeAndSaysWhyItIsAbsent() throws {
        let entry = try #require(SourceCatalog.entry(id: "displays"))
        let empty = FakeMachine.empty()
        guard case .unavailable(.missingDevice, let detail) = entry.availability(empty.options) else {
            Issue.record("displays is available on an empty machine")
            return
        }
        #expect(detail.contains("no DRM driver"))
        let machine = DisplayReadingTests.laptop()
        #expect(entry.availability(machine.options) == .available)
        let source = try entry.make(machine.options)
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        #expect(source.latest?.description.contains("BOE NV156FHM-N4G") == true)
    }
}
