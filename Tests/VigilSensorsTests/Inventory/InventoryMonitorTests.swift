import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// ``InventoryMonitor`` on fake trees: the first read on the loop, re-reads on the uevents of its subsystems, on lost
/// events and on `refresh()`, and nothing for other events.
@Suite(.timeLimit(.minutes(10))) struct InventoryMonitorTests {
    /// A monitor of `machine` that never polls by itself, started, following `changes`, with a value read.
    /// A monitor started on ``FakeMachine/addInventory()``'s laptop, following `changes`, after its first read.
    static func started() async throws -> (FakeMachine, PublishSubject<DeviceEvent>, InventoryMonitor) {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = InventoryMonitor(
            sysfsRoot: machine.sys.root, procfsRoot: machine.proc.root, updateInterval: .seconds(3600),
            changes: changes, query: CameraTests.uvc)
        try monitor.startMonitoring()
        #expect(await eventually { monitor.readings.value.value != nil }, "no first read")
        return (machine, changes, monitor)
    }

    static func cameras(_ monitor: InventoryMonitor) -> Int? {
        monitor.readings.value.value?.cameras.count
    }

    /// Plugs a second camera into the fake tree.
    static func plugCamera(_ machine: FakeMachine) {
        machine.sys.hardware("usb/3-1/3-1:1.0", driver: "uvcvideo", bus: "usb")
        machine.sys.classDevice(
            "video4linux", "video2", parent: "usb/3-1/3-1:1.0", ["name": "USB Camera", "index": "0", "dev": "81:2"])
    }

    static func event(_ action: Uevent.Action, _ subsystem: String) -> DeviceEvent {
        .uevent(Uevent(action: action, devpath: BytePath("/devices/x/\(subsystem)"), subsystem: BytePath(subsystem)))
    }

    @Test func readsOnTheLoopAfterStart() async throws {
        let (machine, _, monitor) = try await Self.started()
        // The fake tree lives as long as the machine; keep it until the monitor stops.
        defer { withExtendedLifetime(machine) { monitor.stopMonitoring() } }
        #expect(monitor.availability == .available)
        #expect(Self.cameras(monitor) == 1)
        #expect(monitor.readings.value.value?.count(.input) == 3)
        #expect(monitor.updateInterval == .seconds(3600))
    }

    @Test(arguments: InventoryMonitor.subsystems.sorted()) func aUeventOfItsSubsystemsReReads(subsystem: String)
        async throws
    {
        let (machine, changes, monitor) = try await Self.started()
        defer { monitor.stopMonitoring() }
        Self.plugCamera(machine)
        changes.publish(Self.event(.add, subsystem))
        #expect(Self.cameras(monitor) == 2)
    }

    @Test func otherEventsReadNothingAndLostEventsReadAll() async throws {
        let (machine, changes, monitor) = try await Self.started()
        defer { monitor.stopMonitoring() }
        Self.plugCamera(machine)
        // Another subsystem's device, and a network interface's state change (traffic, not a device).
        changes.publish(Self.event(.add, "power_supply"))
        changes.publish(Self.event(.change, "net"))
        #expect(Self.cameras(monitor) == 1)
        changes.publish(.overflow)
        #expect(Self.cameras(monitor) == 2)
        machine.sys.remove("class/video4linux/video2")
        changes.publish(.unavailable(reason: "the uevent socket failed"))
        #expect(Self.cameras(monitor) == 1)
        machine.sys.remove("class/video4linux/video1")
        changes.publish(Self.event(.move, "net"))
        #expect(monitor.readings.value.value?.cameras.first?.nodes.count == 1)
        machine.sys.remove("class/video4linux/video0")
        monitor.refresh()
        #expect(Self.cameras(monitor) == 0)
    }

    @Test func aStoppedMonitorFollowsNothing() async throws {
        let (machine, changes, monitor) = try await Self.started()
        monitor.stopMonitoring()
        Self.plugCamera(machine)
        changes.publish(Self.event(.add, "video4linux"))
        #expect(Self.cameras(monitor) == 1)
    }

    @Test func withoutSysfsItIsUnavailableAndDoesNotStart() throws {
        let machine = FakeMachine.empty()
        let monitor = InventoryMonitor(sysfsRoot: machine.sys.root + "/none", procfsRoot: machine.proc.root)
        guard case .unavailable(let reason, let detail) = monitor.availability else {
            Issue.record("available without sysfs")
            return
        }
        #expect(reason == .kernelLacksInterface && detail.contains("/none/class"))
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(!monitor.isMonitoring)
    }
}
